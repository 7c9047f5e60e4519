import type { Kobo } from "../money.ts";
import { balanceAfter, type ChainRow, linkOf } from "./link.ts";

/**
 * Rows a few seconds apart that were posted in the other order than their timestamps say: a levy
 * stamped one second after the transfer it was taken before (the transfer's balance already has
 * it), or a savings withdrawal that funded a payment, stamped seconds after it. Two ADJACENT rows
 * whose timestamps lie within REORDER_WINDOW_S of each other swap places only when the printed
 * order breaks the chain at the first of them and the swapped order chains through both and into
 * the row after (or into a further pair that needs the same). No row moves further than one
 * place, no number changes, and each move is reported.
 */

/**
 * Seconds two rows may lie apart and still be swapped. The exports read so far stamp a levy 1 s
 * after its transfer and a funding withdrawal 0-10 s after its payment; 15 s keeps a margin over
 * that while staying far below the minutes between a person's own transactions, and the chain
 * condition (both rows must link exactly in the swapped order) is what decides.
 */
export const REORDER_WINDOW_S = 15;

/**
 * sortKey counts seconds within a day (dates.ts dateSortKey); a day apart is 100,000 or more. Rows
 * of one timestamp are first ordered as a group (chain/order.ts), which needs the next group to
 * follow; a run of pairs that each need a swap is settled here, pair by pair.
 */
const withinWindow = (a: ChainRow, b: ChainRow) => Math.abs(b.sortKey - a.sortKey) <= REORDER_WINDOW_S;

export interface Swap {
  /** Index (in the input order) of the row that now comes second; the row after it now comes first. */
  at: number;
  seconds: number;
}

/**
 * The rows in chain order (a copy when anything moved) and the swaps made. `opening`: the
 * balance before the first row, when known.
 */
export function swapWithinWindow<T extends ChainRow>(rows: readonly T[], opening: Kobo | null): { rows: T[]; swaps: Swap[] } {
  const out = rows.slice();
  const swaps: Swap[] = [];
  let prev = opening;
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    const b = out[i + 1];
    if (b && prev !== null && linkOf(prev, a) === "break" && swapFixes(out, i, prev, LOOKAHEAD)) {
      out[i] = b;
      out[i + 1] = a;
      swaps.push({ at: i, seconds: Math.abs(b.sortKey - a.sortKey) });
      prev = balanceAfter(balanceAfter(prev, b), a);
      i++;
      continue;
    }
    prev = balanceAfter(prev, a);
  }
  return { rows: swaps.length > 0 ? out : (rows as T[]), swaps };
}

/** Pairs after a swap that may each need their own swap for the chain to go on (funding rows come in runs). */
const LOOKAHEAD = 8;

/**
 * Rows i and i+1, within the window, chain from `prev` swapped, and the chain then goes on: the
 * next row follows, or is itself the first of such a pair (up to `depth` pairs ahead).
 */
function swapFixes(rows: readonly ChainRow[], i: number, prev: Kobo, depth: number): boolean {
  const a = rows[i]!;
  const b = rows[i + 1];
  if (!b || !withinWindow(a, b) || a.balance === null || b.balance === null) return false;
  if (linkOf(prev, b) === "break") return false;
  const mid = balanceAfter(prev, b);
  if (linkOf(mid, a) === "break") return false;
  const after = balanceAfter(mid, a)!;
  const next = rows[i + 2];
  if (!next || linkOf(after, next) !== "break") return true;
  return depth > 0 && swapFixes(rows, i + 2, after, depth - 1);
}

/** The note that reports the swaps (1-based row numbers in the returned order). */
export function swapNote(swaps: Swap[]): string {
  const listed = swaps
    .slice(0, 5)
    .map((s) => `rows ${s.at + 1}-${s.at + 2} (${s.seconds} s apart)`)
    .join(", ");
  return `${swaps.length} pair(s) of adjacent rows stamped seconds apart were printed out of balance order and are returned in the order their balances chain: ${listed}${swaps.length > 5 ? ", ..." : ""}. Rows are swapped only within ${REORDER_WINDOW_S} s, when the printed order breaks the chain and the swapped order chains; no number was changed.`;
}
