/**
 * One overall verdict on a section's figures, for a reader who will not study the individual checks:
 *
 * - "verified": every row chains, every figure the statement prints about itself (totals, counts,
 *   closing balance, header figures) agrees with the rows, and nothing was assumed or derived.
 * - "partial": the rows chain and nothing printed contradicts them, but some figure was assumed or
 *   derived (an opening balance worked back from the first row, balances counted because none are
 *   printed, a 1-kobo rounding accepted) and is listed in `assumed`.
 * - "unverified": the rows do not chain, or something printed contradicts them.
 *
 * `row_wise_reconcilable` is true exactly when the verdict is not "unverified".
 */
import type { Checks } from "./types.ts";

export type Verdict = "verified" | "partial" | "unverified";

/** The checks that decide the verdict; `assumed` lists the facts taken without a printed figure. */
export type VerdictInput = Pick<Checks, "row_chain" | "totals_match" | "closing_balance_match" | "count_match" | "assumed">;

/** Something the statement prints about itself disagrees with the rows. */
export function printedContradicts(c: Pick<Checks, "totals_match" | "closing_balance_match" | "count_match">): boolean {
  return c.totals_match === false || c.closing_balance_match === false || c.count_match === false;
}

/**
 * The verdict from the checks. `reconcilable` is the caller's row_wise_reconcilable, which may be
 * false for reasons the checks alone do not show (balances counted from an assumed 0.00).
 */
export function verdictOf(c: VerdictInput, reconcilable: boolean): Verdict {
  if (!reconcilable || !c.row_chain || printedContradicts(c)) return "unverified";
  return c.assumed.length > 0 ? "partial" : "verified";
}

/** A section after a later stage changed its checks: the flag and verdict follow the checks again. */
export function settleVerdict(section: { row_wise_reconcilable: boolean; checks: Checks }): void {
  const c = section.checks;
  if (!c.row_chain || printedContradicts(c)) section.row_wise_reconcilable = false;
  c.verdict = verdictOf(c, section.row_wise_reconcilable);
}

/** Adds an assumed fact once (stages may re-settle a section). */
export function assume(c: Pick<Checks, "assumed">, fact: string): void {
  if (!c.assumed.includes(fact)) c.assumed.push(fact);
}
