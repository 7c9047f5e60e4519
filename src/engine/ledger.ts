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
}
