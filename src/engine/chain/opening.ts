import { formatKobo, type Kobo } from "../money.ts";
import type { LedgerRow, PrintedFigures } from "../ledger.ts";
import { linkOf } from "./link.ts";

/**
 * A printed opening balance against the rows: some apps print the balance after the first row as
 * the opening. When the rows chain on their own and something vouches for the first row, the
 * opening they imply is reported and the printed one kept in a note.
 */

/** The balance before the first row, from its own figures. */
export function impliedOpening(r: LedgerRow): Kobo | null {
  if (r.balanceBefore != null) return r.balanceBefore;
  if (r.balance === null || (r.unsided !== null && r.unsided !== 0n)) return null;
  return r.balance - r.credit + r.debit;
}

/**
 * The first row's own figures are trusted over the printed opening only with something to back
 * them: the printed opening is exactly the first row's balance (the apps' known slip), or the
 * printed debit and credit totals both agree with the rows. Otherwise a misread first amount
 * could pass for a wrong opening, so the break is reported instead.
 */
export function firstRowVouched(rows: LedgerRow[], printed: PrintedFigures): boolean {
  if (rows[0]!.balance === printed.opening) return true;
  if (printed.totalDebit === null || printed.totalCredit === null) return false;
  let debit = 0n;
  let credit = 0n;
  for (const r of rows) {
    debit += r.debit;
    credit += r.credit;
  }
  const abs = (k: Kobo) => (k < 0n ? -k : k);
  return abs(printed.totalDebit) === debit && abs(printed.totalCredit) === credit;
}

/** Every row after the first follows from the one before (the rows chain on their own). */
export function chainsFromFirst(rows: LedgerRow[]): boolean {
  let prev = rows[0]?.balance ?? null;
  for (const r of rows.slice(1)) {
    if (linkOf(prev, r) === "break") return false;
    prev = r.balance ?? (prev === null ? null : prev + r.credit - r.debit);
  }
  return rows.length > 1 || prev !== null;
}

/**
 * The note on a printed opening balance the rows do not follow from, saying which opening the
 * printed closing balance (or the last balance) agrees with once the rows' totals are applied;
 * rows accepted at 1 kobo off may leave that many kobo between them.
 */
export function openingDisagreement(printed: PrintedFigures, implied: Kobo, rows: LedgerRow[]): string {
  const printedOpening = printed.opening!;
  let net = 0n;
  let rounded = 0n;
  let prev: Kobo | null = implied;
  for (const r of rows) {
    net += r.credit - r.debit;
    if (linkOf(prev, r) === "kobo") rounded++;
    prev = r.balance ?? (prev === null ? null : prev + r.credit - r.debit);
  }
  const lastBalance = [...rows].reverse().find((r) => r.balance !== null)?.balance ?? implied + net;
  const base = `The printed opening balance ${formatKobo(printedOpening)} is not the balance before the first row; the rows chain on their own from ${formatKobo(implied)}, which is reported as the opening balance (the printed one is kept in this note).`;
  const closing = printed.closing ?? lastBalance;
  const what = printed.closing !== null ? "printed closing balance" : "last balance";
  const off = (opening: Kobo) => {
    const d = closing - (opening + net);
    return d < 0n ? -d : d;
  };
  const within = (opening: Kobo) => (off(opening) === 0n ? "" : ` within ${off(opening)} kobo of rounded charges`);
  if (off(implied) <= rounded) return `${base} The ${what} ${formatKobo(closing)} agrees with the implied opening plus the rows' credits minus debits${within(implied)}.`;
  if (off(printedOpening) <= rounded) return `${base} The ${what} ${formatKobo(closing)} agrees with the printed opening plus the rows' credits minus debits${within(printedOpening)}.`;
  return `${base} The ${what} ${formatKobo(closing)} agrees with neither opening plus the rows' credits minus debits.`;
}
