import { formatKobo } from "../money.ts";
import { figure, type Figure, groupBy, median, medianKobo, withinOf } from "./figure.ts";
import { partyKey } from "./parties.ts";
import type { InsightRow } from "./types.ts";

/**
 * Salary: credits from one payer that the narration calls salary, or that recur like pay does
 * without the word: in at least MIN_MONTHS calendar months, each amount within AMOUNT_TOLERANCE
 * percent of the payer's median and each day of the month within DAY_TOLERANCE days of the median
 * day (counted round the month end: the 30th and the 1st are 1 to 2 days apart). One large credit,
 * however large, is not salary unless its narration says so.
 */
const MIN_MONTHS = 3;
const AMOUNT_TOLERANCE = 15n;
const DAY_TOLERANCE = 5;
/** Recurrence without the word is less sure than the word. */
const RECURRENCE_CONFIDENCE = 0.75;

export interface SalarySource {
  employer: string;
  /** The latest credit's amount. */
  amount: string;
  total: Figure;
  /** The median day of the month it arrives on. */
  day_of_month: number;
  months_seen: string[];
  /** Months between the first and the last seen without a credit from this payer. */
  months_missed: string[];
  regularity: "monthly" | "skips_months" | "once";
  basis: "narration" | "recurrence";
  confidence: number;
}

const CANDIDATE = new Set(["salary", "transfer_in", "other"]);
const dayOf = (r: InsightRow): number => Number(r.day.slice(8, 10));
const dayDistance = (a: number, b: number): number => Math.min(Math.abs(a - b), 31 - Math.abs(a - b));

function monthsBetween(first: string, last: string): string[] {
  const out: string[] = [];
  let [y, m] = first.split("-").map(Number) as [number, number];
  for (let guard = 0; guard < 1200; guard++) {
    const key = `${y}-${String(m).padStart(2, "0")}`;
    out.push(key);
    if (key >= last) break;
    m = m === 12 ? 1 : m + 1;
    if (m === 1) y++;
  }
  return out;
}

function recursLikePay(list: readonly InsightRow[]): boolean {
  const months = new Set(list.map((r) => r.month));
  if (months.size < MIN_MONTHS) return false;
  // More than two credits a month is trade or family support, not a payroll.
  if (list.length > months.size * 2) return false;
  const mid = medianKobo(list, (r) => r.credit);
  const midDay = median(list.map(dayOf), (a, b) => a - b);
  const near = withinOf(mid, AMOUNT_TOLERANCE);
  return list.every((r) => near(r.credit) && dayDistance(dayOf(r), midDay) <= DAY_TOLERANCE);
}

function source(list: InsightRow[], basis: SalarySource["basis"]): SalarySource {
  const seen = [...new Set(list.map((r) => r.month))].sort();
  const missed = seen.length === 0 ? [] : monthsBetween(seen[0] ?? "", seen[seen.length - 1] ?? "").filter((m) => !seen.includes(m));
  const last = list[list.length - 1] as InsightRow;
  const confidence = basis === "narration" ? Math.max(...list.map((r) => r.enrichment.confidence.category)) : RECURRENCE_CONFIDENCE;
  return {
    employer: last.enrichment.counterparty?.name ?? partyKey(last),
    amount: formatKobo(last.credit),
    total: figure(list, "credit"),
    day_of_month: median(list.map(dayOf), (a, b) => a - b),
    months_seen: seen,
    months_missed: missed,
    regularity: seen.length === 1 ? "once" : missed.length > 0 ? "skips_months" : "monthly",
    basis,
    confidence,
  };
}

/**
 * Every salary payer found; rows found by recurrence alone become `salary` (their category
 * confidence RECURRENCE_CONFIDENCE). `exclude`: rows that cannot be salary (the holder's own transfers).
 */
export function detectSalary(rows: readonly InsightRow[], exclude: ReadonlySet<number>): SalarySource[] {
  const credits = rows.filter((r) => r.credit > 0n && CANDIDATE.has(r.enrichment.category) && !exclude.has(r.index));
  const out: SalarySource[] = [];
  for (const list of groupBy(credits, partyKey).values()) {
    const worded = list.filter((r) => r.enrichment.category === "salary");
    if (worded.length > 0) {
      out.push(source(worded, "narration"));
      continue;
    }
    if (!recursLikePay(list)) continue;
    for (const r of list) {
      r.enrichment.category = "salary";
      r.enrichment.confidence.category = RECURRENCE_CONFIDENCE;
    }
    out.push(source(list, "recurrence"));
  }
  return out;
}
