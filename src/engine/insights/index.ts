import type { AccountSection, ParseResponse, Transaction } from "../types.ts";
import { balances, type SectionBalances } from "./balances.ts";
import { charges, type Charges } from "./charges.ts";
import { builtInVocabulary, type CompiledVocabulary } from "./compile.ts";
import { enrichRows } from "./enrich.ts";
import { betting, type Betting, largestCounterparties, type Counterparty, loans, type Loans, ownTransfers, type OwnTransfers } from "./flows.ts";
import { monthlyFlows, type MonthFlow } from "./monthly.ts";
import { isHolder, nameWords } from "./parties.ts";
import { recurringDebits, type RecurringDebit } from "./recurring.ts";
import { returnedItems, type Returned } from "./reversals.ts";
import { insightRows, sectionsOf } from "./rows.ts";
import { detectSalary, type SalarySource } from "./salary.ts";
import type { Enrichment, InsightRow } from "./types.ts";

export type { Enrichment } from "./types.ts";
export type { Figure } from "./figure.ts";

/** The statement as a credit analyst reads it (`?include=insights`); every figure lists its rows. */
export interface Insights {
  /** Rows are indexed across all account sections in print order (the CSV's order). */
  row_count: number;
  monthly: MonthFlow[];
  salary: SalarySource[];
  recurring_debits: RecurringDebit[];
  charges: Charges;
  own_transfers: OwnTransfers;
  loans: Loans;
  betting: Betting;
  balances: SectionBalances[];
  reversed_or_bounced: Returned;
  largest_counterparties: Counterparty[];
}

export type EnrichedTransaction = Transaction & { enrichment: Enrichment };
export type EnrichedResponse = Omit<ParseResponse, "transactions" | "accounts"> & {
  transactions: EnrichedTransaction[];
  accounts?: (Omit<AccountSection, "transactions"> & { transactions: EnrichedTransaction[] })[];
  insights: Insights;
};

type Source = Pick<ParseResponse, "metadata" | "transactions"> & { accounts?: ParseResponse["accounts"] };

/** Every row enriched and the statement's insights: a pure function of the parse. */
export function analyse(response: Source, v: CompiledVocabulary = builtInVocabulary()): { rows: InsightRow[]; insights: Insights } {
  const sections = sectionsOf(response);
  const rows = insightRows(response, v);
  enrichRows(rows, v, sections.map((s) => s.metadata.bank));
  const holder = nameWords(response.metadata.account_holder);
  // One answer per distinct counterparty name: a statement names the same few parties again and again.
  const holderNames = new Map<string, boolean>();
  const own = rows.filter((r) => {
    const name = r.enrichment.counterparty?.name;
    if (name === undefined) return false;
    let is = holderNames.get(name);
    if (is === undefined) holderNames.set(name, (is = isHolder(name, holder)));
    return is;
  });
  const salary = detectSalary(rows, new Set(own.map((r) => r.index)));
  return {
    rows,
    insights: {
      row_count: rows.length,
      monthly: monthlyFlows(rows),
      salary,
      recurring_debits: recurringDebits(rows),
      charges: charges(rows, v.fees),
      own_transfers: ownTransfers(own),
      loans: loans(rows),
      betting: betting(rows),
      balances: balances(rows),
      reversed_or_bounced: returnedItems(rows, v.bounced),
      largest_counterparties: largestCounterparties(rows),
    },
  };
}

/**
 * The response with `enrichment` on every transaction and `insights` at the top level; nothing
 * else changes. The first section's rows stay one array shared by `transactions` and
 * `accounts[0]` (so responseJson writes them once). A response that already has insights is returned as it is.
 */
export function withInsights(response: ParseResponse): EnrichedResponse {
  if ("insights" in response) return response as unknown as EnrichedResponse;
  return enrichedBy(response, analyse(response));
}

/** What analyse() answers: every row with its enrichment, and the statement's insights. */
export type Analysis = ReturnType<typeof analyse>;

/** The response with an analysis of it (withInsights, for callers that write the JSON from the analysis themselves). */
export function enrichedBy(response: ParseResponse, { rows, insights }: Analysis): EnrichedResponse {
  let next = 0;
  const sections = sectionsOf(response).map((s) => s.transactions.map((t) => ({ ...t, enrichment: (rows[next++] as InsightRow).enrichment })));
  const first = sections[0] ?? [];
  const accounts = response.accounts?.map((a, i) => ({ ...a, transactions: i === 0 ? first : (sections[i] ?? []) }));
  return { ...response, transactions: first, ...(accounts ? { accounts } : {}), insights } as EnrichedResponse;
}
