import type { Kobo } from "./money.ts";

/**
 * The ledger's shapes that reconciliation (reconcile.ts) and the chain helpers under chain/ both
 * read: here, below both, so the helpers need not import the module that calls them.
 */

/** One transaction in statement order, amounts already read, before ordering and balance checks. */
export interface LedgerRow {
  sortKey: number;
  debit: Kobo;
  credit: Kobo;
  /** Printed balance after the row, or null when the statement prints none for it. */
  balance: Kobo | null;
  /** An amount whose side the statement does not say (unsigned amount column without DR/CR). */
  unsided: Kobo | null;
  /** Printed balance before the row, where the statement has a Balance Before column. */
  balanceBefore?: Kobo | null;
}

/** What a statement prints about itself (header or summary block); null where it prints nothing. */
export interface PrintedTotals {
  opening: Kobo | null;
  closing: Kobo | null;
  totalDebit: Kobo | null;
  totalCredit: Kobo | null;
  debitCount: number | null;
  creditCount: number | null;
}

export interface PrintedFigures extends PrintedTotals {
  /** The printed credit total may include the opening balance (bank quirk). */
  creditTotalMayIncludeOpening: boolean;
  /**
   * Every labelled closing balance the section's lines print, in print order. A first page may
   * print the whole customer's (all pockets) before the section's own summary: the one the rows
   * end on is the section's (reconcile.ts).
   */
  closingCandidates?: Kobo[];
  /** Every labelled opening balance, in print order (as closingCandidates). */
  openingCandidates?: Kobo[];
}
