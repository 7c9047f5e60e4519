import type { Kobo } from "../money.ts";
import type { Transaction } from "../types.ts";
import type { Category, Channel } from "./vocabulary/schema.ts";

export type { Category, Channel };

/**
 * What a transaction says beyond its figures (`?include=insights`). Every index is a statement
 * row index: the position of the row among all account sections' rows in print order (the order
 * of the CSV lines); for a one-section statement, the index in `transactions`.
 */
export interface Enrichment {
  category: Category;
  channel: Channel;
  /** The other party, where the narration names it; `bank` when it names their bank too. */
  counterparty: { name: string; bank: string | null } | null;
  /** The 30-digit NIBSS Instant Payment session id printed in the narration or reference. */
  session_id: string | null;
  /** For a charge, VAT, stamp duty or EMTL row: the row it was taken for. */
  fee_of: number | null;
  /** 0..1 for each field; null where the field is null. */
  confidence: { category: number; channel: number; counterparty: number | null; session_id: number | null; fee_of: number | null };
}

/** A row as the insight rules read it. */
export interface InsightRow {
  /** Statement row index (see Enrichment). */
  index: number;
  /** 0-based account section. */
  section: number;
  transaction: Transaction;
  credit: Kobo;
  debit: Kobo;
  /** Undefined when the balance is not an amount. */
  balance: Kobo | undefined;
  /** YYYY-MM-DD as printed (Lagos calendar day). */
  day: string;
  /** YYYY-MM. */
  month: string;
  /** HH:MM:SS, or "" when the statement prints no time. */
  time: string;
  /** The normalised narration (src/engine/insights/normalise.ts), and its words. */
  text: string;
  words: string[];
  /** The reference, trimmed (fee links compare it with a dozen neighbours' each). */
  reference: string;
  /** Vocabulary phrases found in the narration. */
  found: Set<string>;
  enrichment: Enrichment;
  /** The business a category rule named (a lender, betting operator, telco, biller). */
  entity?: string;
  /** The row's party key (parties.ts partyKey) once asked for; undefined until then (set at creation, so rows keep one shape). */
  partyKey: string | undefined;
}

/** A figure and the rows it is the sum of. */
export interface Figure {
  amount: string;
  rows: number[];
}
