import { formatKobo, type Kobo } from "../money.ts";
import type { InsightRow } from "./types.ts";

/**
 * A figure of the insights and the rows it came from: `amount` is exactly the sum of the listed
 * rows' credits (`of: "credit"`), debits (`of: "debit"`), or credits minus debits (`of: "net"`),
 * so an analyst (and test/insights/figures.test.ts) can add it up again from the rows.
 */
export interface Figure {
  amount: string;
  of: "credit" | "debit" | "net";
  rows: number[];
}

const valueOf = (r: InsightRow, of: Figure["of"]): Kobo => (of === "credit" ? r.credit : of === "debit" ? r.debit : r.credit - r.debit);

export function figure(rows: readonly InsightRow[], of: Figure["of"]): Figure {
  let sum = 0n;
  for (const r of rows) sum += valueOf(r, of);
  return { amount: formatKobo(sum), of, rows: rows.map((r) => r.index) };
}

/** Groups rows by a key, keeping first-seen order. */
export function groupBy<K>(rows: readonly InsightRow[], key: (r: InsightRow) => K | undefined): Map<K, InsightRow[]> {
  const groups = new Map<K, InsightRow[]>();
  for (const r of rows) {
    const k = key(r);
    if (k === undefined) continue;
    const list = groups.get(k);
    if (list) list.push(r);
    else groups.set(k, [r]);
  }
  return groups;
}

/** The middle value of a non-empty list (the lower middle for an even count). */
export function median<T>(values: readonly T[], compare: (a: T, b: T) => number): T {
  const sorted = [...values].sort(compare);
  return sorted[Math.floor((sorted.length - 1) / 2)] as T;
}

export const compareKobo = (a: Kobo, b: Kobo): number => (a < b ? -1 : a > b ? 1 : 0);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * median(values, compareKobo) of the rows' amounts: sorted natively as 64-bit integers (a
 * comparator called n log n times was most of the recurring and salary rules' time on a large
 * statement); amounts beyond 64 bits, which no statement prints, take the comparator.
 */
export function medianKobo(rows: readonly InsightRow[], amount: (r: InsightRow) => Kobo): Kobo {
  const values = new BigInt64Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const v = amount(rows[i] as InsightRow);
    if (v < INT64_MIN || v > INT64_MAX) return median(rows.map(amount), compareKobo);
    values[i] = v;
  }
  return values.sort()[Math.floor((values.length - 1) / 2)] as Kobo;
}

/**
 * |a - b| <= percent% of b, in exact integers, for many `a` against one `b`: |a - b| * 100 <= b * percent holds exactly when
 * |a - b| <= floor(b * percent / 100) (|a - b| is a whole number of kobo), so the bounds are worked
 * out once and each row costs two comparisons, not four BigInt operations.
 */
export function withinOf(b: Kobo, percent: bigint): (a: Kobo) => boolean {
  const limit = b * percent;
  // A negative limit: |a - b| * 100 is never below it.
  if (limit < 0n) return () => false;
  const slack = limit / 100n;
  const lo = b - slack;
  const hi = b + slack;
  return (a) => a >= lo && a <= hi;
}
