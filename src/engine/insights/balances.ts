import { formatKobo, type Kobo } from "../money.ts";
import { dayNumber } from "./rows.ts";
import type { InsightRow } from "./types.ts";

/**
 * Balances of one account section, day by day: the balance a day ends on is its last row's (or
 * the last earlier row's, on a day without rows), from the first row's day to the last's.
 * `average_daily.amount` is `sum` / `days` rounded half away from zero to the kobo, and `sum` is
 * the listed end-of-day rows' balances, each times the days it stood (`days_held`).
 */
export interface SectionBalances {
  section: number;
  average_daily: { amount: string; sum: string; days: number; rows: number[]; days_held: number[] };
  lowest: { amount: string; row: number } | null;
  /** Days that ended with a balance at or below zero. */
  negative_or_zero_days: { day: string; balance: string; row: number }[];
}

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const isoDay = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);

function roundedDivide(sum: Kobo, days: bigint): Kobo {
  const q = sum / days;
  const r = sum % days;
  if (r * 2n >= days) return q + 1n;
  if (r * 2n <= -days) return q - 1n;
  return q;
}

function sectionBalances(section: number, rows: readonly InsightRow[]): SectionBalances {
  // Rows of one day share its string (insightRows): the shape is checked once per run of a day.
  let lastDay = "";
  let lastIsDate = false;
  const dated = rows.filter((r) => {
    if (r.day !== lastDay) lastIsDate = ISO_DAY.test((lastDay = r.day));
    return r.balance !== undefined && lastIsDate;
  });
  // The last row of each day; rows are in date order within a section.
  const ends: InsightRow[] = [];
  for (const r of dated) {
    const prev = ends[ends.length - 1];
    if (prev && prev.day === r.day) ends[ends.length - 1] = r;
    else ends.push(r);
  }
  const held = ends.map((r, i) => {
    const next = ends[i + 1];
    return next ? Math.max(1, dayNumber(next.day) - dayNumber(r.day)) : 1;
  });
  let sum = 0n;
  ends.forEach((r, i) => (sum += (r.balance as Kobo) * BigInt(held[i] as number)));
  const days = held.reduce((a, b) => a + b, 0);
  let lowest: InsightRow | undefined;
  for (const r of dated) if (!lowest || (r.balance as Kobo) < (lowest.balance as Kobo)) lowest = r;
  const negative: SectionBalances["negative_or_zero_days"] = [];
  ends.forEach((r, i) => {
    if ((r.balance as Kobo) > 0n) return;
    for (let d = 0; d < (held[i] as number); d++) negative.push({ day: isoDay(dayNumber(r.day) + d), balance: formatKobo(r.balance as Kobo), row: r.index });
  });
  return {
    section,
    average_daily: { amount: days === 0 ? "0.00" : formatKobo(roundedDivide(sum, BigInt(days))), sum: formatKobo(sum), days, rows: ends.map((r) => r.index), days_held: held },
    lowest: lowest ? { amount: formatKobo(lowest.balance as Kobo), row: lowest.index } : null,
    negative_or_zero_days: negative,
  };
}

export function balances(rows: readonly InsightRow[]): SectionBalances[] {
  const sections = new Map<number, InsightRow[]>();
  for (const r of rows) {
    const list = sections.get(r.section);
    if (list) list.push(r);
    else sections.set(r.section, [r]);
  }
  return [...sections.entries()].map(([s, list]) => sectionBalances(s, list));
}
