import { formatKobo, type Kobo, parseAmount } from "./money.ts";
import type { StatementMetadata, Transaction } from "./types.ts";

/**
 * The one row model of the tabular outputs (CSV and XLSX): the same columns, in the same order,
 * whatever the statement, so the files of a batch stack. Every column is always there; a value the
 * statement does not give is empty.
 */
export const OUTPUT_COLUMNS = [
  "bank",
  "account",
  "date",
  "time",
  "narration",
  "debit",
  "credit",
  "balance",
  "derived_balance",
  "reference",
  "currency",
] as const;

export type OutputColumn = (typeof OUTPUT_COLUMNS)[number];

/**
 * The two columns added after OUTPUT_COLUMNS when insights are asked for (`?include=insights`,
 * docs/insights.md): the row's category and the counterparty's name. Absent otherwise, so the
 * default files keep their fixed columns.
 */
export const INSIGHT_COLUMNS = ["category", "counterparty"] as const;

/** A transaction as an insights response carries it (src/engine/insights/): its enrichment, read structurally. */
type MaybeEnriched = Transaction & { enrichment?: { category: string; counterparty: { name: string } | null } };

/** The INSIGHT_COLUMNS cells of a row: empty when the row carries no enrichment. */
export function insightCells(t: Transaction): [string, string] {
  const e = (t as MaybeEnriched).enrichment;
  return [e?.category ?? "", e?.counterparty?.name ?? ""];
}

/** One account section as far as the rows need it (the engine's `accounts[]` entries). */
export interface RowSection {
  metadata: Pick<StatementMetadata, "bank" | "account_number_masked" | "opening_balance">;
  transactions: readonly Transaction[];
}

/**
 * What the rows are made from: a ParseResponse, whose `accounts` (one entry per account section,
 * the first equal to the top level) may be absent in responses made before sections existed.
 */
export type RowSource = { metadata: RowSection["metadata"]; transactions: readonly Transaction[]; accounts?: readonly RowSection[] };

/** A transaction with the section it belongs to and the balance its own figures lead to. */
export interface OutputRow {
  bank: string;
  account: string;
  transaction: Transaction;
  /**
   * The section's opening balance plus every credit and minus every debit up to and including this
   * row, in kobo: what the balance should be if the rows are complete. Undefined when the opening
   * balance or an amount on the way is not a plain amount.
   */
  derivedBalance?: Kobo;
}

const sectionsOf = (r: RowSource): readonly RowSection[] => (r.accounts && r.accounts.length > 0 ? r.accounts : [{ metadata: r.metadata, transactions: r.transactions }]);

const kobo = (text: string): Kobo | undefined => (text.trim() === "" ? 0n : parseAmount(text)?.kobo);

/** Every section's rows in print order, each with its bank, account and derived balance. */
export function* statementRows(r: RowSource): Generator<OutputRow> {
  for (const s of sectionsOf(r)) {
    let running = kobo(s.metadata.opening_balance);
    for (const t of s.transactions) {
      const credit = kobo(t.credit);
      const debit = kobo(t.debit);
      running = running === undefined || credit === undefined || debit === undefined ? undefined : running + credit - debit;
      yield { bank: s.metadata.bank, account: s.metadata.account_number_masked, transaction: t, derivedBalance: running };
    }
  }
}

/** The derived balance as the engine writes amounts (`1234.56`), empty when it could not be worked out. */
export const derivedBalanceText = (row: OutputRow): string => (row.derivedBalance === undefined ? "" : formatKobo(row.derivedBalance));
