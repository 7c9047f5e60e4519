import { formatKobo } from "../money.ts";
import { figure, type Figure, medianKobo, withinOf } from "./figure.ts";
import { partyKey } from "./parties.ts";
import { dayNumber } from "./rows.ts";
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


function cadenceOf(list: readonly InsightRow[]): RecurringDebit["cadence"] | undefined {
  const months = new Set(list.map((r) => r.month));
  if (months.size >= MIN_MONTHS && list.length <= months.size * 2) return "monthly";
  if (list.length < MIN_WEEKS) return undefined;
  for (let i = 1; i < list.length; i++) {
    const gap = dayNumber((list[i] as InsightRow).day) - dayNumber((list[i - 1] as InsightRow).day);
    if (gap < 6 || gap > 8) return undefined;
  }
  return "weekly";
}

/** The business a rule named, else the party: what a recurring payment is to. */
const payee = (r: InsightRow): string => (r.entity && !r.entity.endsWith("(unnamed)") ? r.entity : partyKey(r));

/**
 * Debits grouped by category and payee, in first-seen order: a map per category keyed by the payee
 * string the rows already hold, so no key is built per row (76,000 on the largest statements).
 */
function byPayee(rows: readonly InsightRow[]): [string, InsightRow[]][] {
  const order: [string, InsightRow[]][] = [];
  const maps = new Map<Category, Map<string, InsightRow[]>>();
  for (const r of rows) {
    if (r.debit <= 0n || NOT_RECURRING.has(r.enrichment.category) || r.enrichment.fee_of !== null) continue;
    let byKey = maps.get(r.enrichment.category);
    if (!byKey) maps.set(r.enrichment.category, (byKey = new Map()));
    const key = payee(r);
    const list = byKey.get(key);
    if (list) list.push(r);
    else {
      const fresh = [r];
      byKey.set(key, fresh);
      order.push([key, fresh]);
    }
  }
  return order;
}

export function recurringDebits(rows: readonly InsightRow[]): RecurringDebit[] {
  const out: RecurringDebit[] = [];
  for (const [key, group] of byPayee(rows)) {
    // Fewer payments than MIN_MONTHS are neither monthly nor weekly (MIN_WEEKS is more).
    if (group.length < MIN_MONTHS) continue;
    const mid = medianKobo(group, (r) => r.debit);
    const near = withinOf(mid, AMOUNT_TOLERANCE);
    const list = group.filter((r) => near(r.debit));
    const cadence = cadenceOf(list);
    if (!cadence) continue;
    const last = list[list.length - 1] as InsightRow;
    out.push({
      description: last.enrichment.counterparty?.name ?? (last.entity && !last.entity.endsWith("(unnamed)") ? last.entity : key),
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
