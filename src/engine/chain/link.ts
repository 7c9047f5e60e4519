import type { Kobo } from "../money.ts";

/**
 * One step of the balance chain. Banks print half-kobo VAT and charges rounded, so a printed
 * balance may sit exactly 1 kobo off the sum of the row; that counts as a link ("kobo"), never more.
 */
export interface ChainRow {
  sortKey: number;
  debit: Kobo;
  credit: Kobo;
  /** Printed balance after the row (null: not printed). */
  balance: Kobo | null;
  /** Printed balance before the row, where the statement has a Balance Before column. */
  balanceBefore?: Kobo | null;
  /** An amount whose side the statement does not say. */
  unsided?: Kobo | null;
}

export type LinkKind = "exact" | "kobo" | "break";

/** The largest difference accepted as rounding: one kobo. */
export const KOBO_TOLERANCE = 1n;

const abs = (k: Kobo) => (k < 0n ? -k : k);

function closeness(got: Kobo, want: Kobo): LinkKind {
  const d = abs(got - want);
  return d === 0n ? "exact" : d <= KOBO_TOLERANCE ? "kobo" : "break";
}

const worse = (a: LinkKind, b: LinkKind): LinkKind => (a === "break" || b === "break" ? "break" : a === "kobo" || b === "kobo" ? "kobo" : "exact");

/**
 * Whether row r follows from the balance before it (`prev`, null when unknown). A row with a
 * printed Balance Before checks on its own (before + credit - debit = after) and links to the
 * row before when its Balance Before is that row's balance. An unsided amount links either way.
 */
export function linkOf(prev: Kobo | null, r: ChainRow): LinkKind {
  if (r.balance === null) return "exact";
  const before = r.balanceBefore ?? null;
  const start = before ?? prev;
  const joined = before !== null && prev !== null ? (prev === before ? "exact" : "break") : "exact";
  if (start === null) return "exact";
  if (r.unsided != null && r.unsided !== 0n) {
    const up = closeness(r.balance, start + r.credit - r.debit + r.unsided);
    const down = closeness(r.balance, start + r.credit - r.debit - r.unsided);
    return worse(joined, up === "exact" || down === "exact" ? "exact" : up === "kobo" || down === "kobo" ? "kobo" : "break");
  }
  return worse(joined, closeness(r.balance, start + r.credit - r.debit));
}

/** The balance the chain stands at after r, given the balance before it. */
export function balanceAfter(prev: Kobo | null, r: ChainRow): Kobo | null {
  if (r.balance !== null) return r.balance;
  if (prev === null || (r.unsided != null && r.unsided !== 0n)) return null;
  return prev + r.credit - r.debit;
}
