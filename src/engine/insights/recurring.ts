import { formatKobo } from "../money.ts";
import { compareKobo, figure, type Figure, groupBy, median, within } from "./figure.ts";
import { partyKey } from "./parties.ts";
import type { Category, InsightRow } from "./types.ts";

/**
 * Recurring debits: payments to one party (or one biller, lender, telco) of about the same amount
 * (within AMOUNT_TOLERANCE percent of their median) either in at least MIN_MONTHS calendar months,
 * at most twice a month (monthly), or at least MIN_WEEKS times 6 to 8 days apart (weekly). Charges
 * and levies are the bank's, listed under charges; cash withdrawals have no party.
 */
const AMOUNT_TOLERANCE = 10n;
const MIN_MONTHS = 3;
const MIN_WEEKS = 4;
const NOT_RECURRING = new Set<Category>(["bank_charge", "tax_levy", "cash_withdrawal", "reversal"]);

export interface RecurringDebit {
  description: string;
  category: Category;
  cadence: "monthly" | "weekly";
  /** The latest payment's amount. */
  amount: string;
  occurrences: number;
  months: string[];
  total: Figure;
}

const dayNumber = (r: InsightRow): number => Date.UTC(Number(r.day.slice(0, 4)), Number(r.day.slice(5, 7)) - 1, Number(r.day.slice(8, 10))) / 86_400_000;

function cadenceOf(list: readonly InsightRow[]): RecurringDebit["cadence"] | undefined {
  const months = new Set(list.map((r) => r.month));
  if (months.size >= MIN_MONTHS && list.length <= months.size * 2) return "monthly";
  if (list.length < MIN_WEEKS) return undefined;
  for (let i = 1; i < list.length; i++) {
    const gap = dayNumber(list[i] as InsightRow) - dayNumber(list[i - 1] as InsightRow);
    if (gap < 6 || gap > 8) return undefined;
  }
  return "weekly";
}

export function recurringDebits(rows: readonly InsightRow[]): RecurringDebit[] {
  const debits = rows.filter((r) => r.debit > 0n && !NOT_RECURRING.has(r.enrichment.category) && r.enrichment.fee_of === null);
  const out: RecurringDebit[] = [];
  for (const [key, group] of groupBy(debits, (r) => `${r.enrichment.category}|${r.entity && !r.entity.endsWith("(unnamed)") ? r.entity : partyKey(r)}`)) {
    const mid = median(group.map((r) => r.debit), compareKobo);
    const list = group.filter((r) => within(r.debit, mid, AMOUNT_TOLERANCE));
    const cadence = cadenceOf(list);
    if (!cadence) continue;
    const last = list[list.length - 1] as InsightRow;
    out.push({
      description: last.enrichment.counterparty?.name ?? (last.entity && !last.entity.endsWith("(unnamed)") ? last.entity : key.split("|")[1] ?? ""),
      category: last.enrichment.category,
      cadence,
      amount: formatKobo(last.debit),
      occurrences: list.length,
      months: [...new Set(list.map((r) => r.month))].sort(),
      total: figure(list, "debit"),
    });
  }
  return out.sort((a, b) => b.occurrences - a.occurrences);
}
