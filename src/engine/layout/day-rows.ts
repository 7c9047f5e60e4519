import { isEmptyAmount, type Kobo, parseAmount } from "../money.ts";
import { appendParts } from "./continuation.ts";
import { type AmountLine, CONTINUATION_GAP, type Pending, type RoleTexts, type RowDraft } from "./draft.ts";
import type { Line } from "./lines.ts";

/**
 * Undated lines with amounts inside the table: a further row of the day above (a date printed
 * once per day), or the amounts of a row whose date cell is printed below them.
 */

/** An undated line with amounts: made a row of the day above (`row`), or kept as a leader/trailer (`amountLine`). */
export interface UndatedMoney {
  line: Line;
  row: number;
  amountLine: number;
}

/**
 * True when a dated line without amounts closes the row whose amounts were printed above it
 * (the date cell bottom-aligned under a wrapped narration): no row began in between and every
 * line from the amounts down to the date follows the one above within the continuation gap, or
 * the date heads the next page.
 */
export function dateBelowAmounts(u: UndatedMoney, line: Line, pendings: Pending[], rows: RowDraft[], amountLines: AmountLine[]): boolean {
  if (u.row >= 0 ? u.row !== rows.length - 1 : amountLines[u.amountLine]?.rowIndex !== rows.length) return false;
  // A balance alone moved no money: an opening or carried-forward line, never a row's figures.
  if (u.row < 0 && !hasMovement(amountLines[u.amountLine]!.cells)) return false;
  // A row cut by a page break with its cells centred on each part: its figures at the foot of one
  // page, the top of its date cell at the head of the next, before any other row there.
  if (line.page === u.line.page + 1) {
    const above = pendings.filter((p) => p.line.page === line.page && p.line.y < line.y).map((p) => p.line.y);
    return [...above, line.y].every((y, k, ys) => k === 0 || y - ys[k - 1]! <= CONTINUATION_GAP * line.h);
  }
  return closeRun(u.line, line, pendings);
}

/** The lines from `top` down to `bottom` (one page) each follow the one above within the continuation gap. */
function closeRun(top: Line, bottom: Line, pendings: Pending[]): boolean {
  if (top.page !== bottom.page) return false;
  const between = pendings.filter((p) => p.line.page === bottom.page && p.line.y > top.y && p.line.y < bottom.y).map((p) => p.line.y);
  const ys = [top.y, ...between, bottom.y];
  return ys.every((y, k) => k === 0 || y - ys[k - 1]! <= CONTINUATION_GAP * bottom.h);
}

/**
 * The balance of a dated row that moved money but printed none, found on the undated line just
 * above it: a balance cell wrapped in two (`229,980.98` / `CR`) and centred in a tall row puts its
 * figure above the row's date line. Taken only when no other row began in between, the lines
 * from there down are close, and the chain links it: the balance before (the row above's, or a
 * figure alone above the first row) moved by this row's movement, in either order of listing,
 * with the figure read as either sign (its DR/CR may be wrapped below it). The table's first row,
 * with no balance before it in the table, takes it unlinked: the chain checks it against the
 * statement's opening balance afterwards, as every row.
 * The balance line's other text stays a line of the table (`undated`), as any wrapped narration.
 */
export function balanceAbove(u: UndatedMoney, line: Line, parts: RoleTexts, s: { rows: RowDraft[]; amountLines: AmountLine[]; pendings: Pending[] }): { balance: string; undated: RoleTexts } | null {
  const a = s.amountLines[u.amountLine];
  if (u.row >= 0 || !a || a.rowIndex !== s.rows.length || hasMovement(a.cells) || !figure(a.cells.balance)) return null;
  if (figure(parts.balance) || !hasMovement(parts) || !closeRun(u.line, line, s.pendings)) return null;
  const before = balanceBefore(u, s);
  const [prev, bal, move] = [amountOf(before), amountOf(a.cells.balance), movementOf(parts)];
  if (bal === null || move === null || (prev === null && (before !== undefined || s.rows.length > 0))) return null;
  // The figure's DR/CR may be wrapped onto the line below it, so either sign may be the balance.
  if (prev !== null && ![bal, -bal].some((b) => b - prev === move || prev - b === move)) return null;
  s.amountLines.splice(u.amountLine, 1);
  const { balance, ...undated } = a.cells;
  return { balance: balance!, undated };
}

/** The balance before the row the undated line belongs to: the last row's, or a figure alone above the first row. */
const balanceBefore = (u: UndatedMoney, s: { rows: RowDraft[]; amountLines: AmountLine[] }): string | undefined =>
  s.rows.length > 0 ? s.rows[s.rows.length - 1]!.cells.balance : s.amountLines[u.amountLine - 1]?.cells.balance;

/** The cells that state a row's movement (its side and its figure). */
const MOVEMENT_ROLES = ["debit", "credit", "amount", "drcr"] as const;

/**
 * The movement of a dated row that prints its balance but no movement, found on the undated line
 * just above it: the mirror of balanceAbove. A movement cell wrapped in two (a figure Writer broke
 * inside its decimals, `+145,207.7` over `8`, put back by layout/broken-figures.ts) and centred in
 * a tall row puts its figure above the row's date line. Taken only when no other row began in
 * between, the lines from there down are close, and the chain links it: the balance before (the
 * row above's, or a figure alone above the first row) moved by that movement is this row's
 * balance, in either order of listing. The movement line's other text stays a line of the table.
 */
export function movementAbove(u: UndatedMoney, line: Line, parts: RoleTexts, s: { rows: RowDraft[]; amountLines: AmountLine[]; pendings: Pending[] }): { figures: RoleTexts; undated: RoleTexts } | null {
  const a = s.amountLines[u.amountLine];
  if (u.row >= 0 || !a || a.rowIndex !== s.rows.length || !hasMovement(a.cells) || figure(a.cells.balance)) return null;
  if (!figure(parts.balance) || hasMovement(parts) || !closeRun(u.line, line, s.pendings)) return null;
  const before = balanceBefore(u, s);
  const [prev, bal, move] = [amountOf(before), amountOf(parts.balance), movementOf(a.cells)];
  if (prev === null || bal === null || move === null || (bal - prev !== move && prev - bal !== move)) return null;
  s.amountLines.splice(u.amountLine, 1);
  const figures: RoleTexts = {};
  const undated: RoleTexts = { ...a.cells };
  for (const role of MOVEMENT_ROLES) {
    if (a.cells[role] === undefined) continue;
    figures[role] = a.cells[role];
    delete undated[role];
  }
  return { figures, undated };
}

/** A line's one signed movement (credit positive), or null when it has none or several. */
function movementOf(parts: RoleTexts): Kobo | null {
  const { d, c, a, moving } = sidesOf(parts);
  if (moving !== 1) return null;
  if (d !== null && d !== 0n) return d < 0n ? d : -d;
  return c !== null && c !== 0n ? c : a;
}

/** A line's debit, credit and amount figures, and how many of them move money (are there and not zero). */
function sidesOf(parts: RoleTexts): { d: Kobo | null; c: Kobo | null; a: Kobo | null; moving: number } {
  const d = amountOf(parts.debit);
  const c = amountOf(parts.credit);
  const a = amountOf(parts.amount);
  return { d, c, a, moving: [d, c, a].filter((k) => k !== null && k !== 0n).length };
}

/**
 * Makes the amounts line above the row's own: a row of the day above is re-dated, a leader line
 * becomes the row. The lines in between and the date line itself then continue that row.
 */
export function claimAmountsAbove(
  u: UndatedMoney,
  date: { line: Line; parts: RoleTexts; dateText: string },
  s: { rows: RowDraft[]; amountLines: AmountLine[]; pendings: Pending[]; labelled: { line: Line; rowIndex: number }[] },
): void {
  let index = u.row;
  if (index >= 0) {
    const row = s.rows[index]!;
    row.cells.date = undefined;
    // A time the row took from the row above goes with that row's date; one printed on its own line stays.
    if (row.inherited && row.timeInherited) row.cells.time = undefined;
    row.timeInherited = undefined;
    row.dateText = date.dateText;
    row.dateY = date.line.y;
    if (date.line.bottom !== undefined) row.dateBottom = date.line.bottom;
    row.inherited = false;
    row.leading = undefined;
  } else {
    const a = s.amountLines.splice(u.amountLine, 1)[0]!;
    index = s.rows.length;
    s.rows.push({ page: u.line.page, y: u.line.y, cells: { ...a.cells }, lastY: u.line.y, dateText: date.dateText, dateY: date.line.y, ...(date.line.bottom !== undefined ? { dateBottom: date.line.bottom } : {}), dropped: [] });
    for (let k = s.labelled.length - 1; k >= 0; k--) if (s.labelled[k]!.line === u.line) s.labelled.splice(k, 1);
  }
  for (const p of s.pendings) {
    if (p.line.page !== date.line.page || p.line.y <= u.line.y || p.line.y >= date.line.y) continue;
    p.prevRow = index;
    p.carryRow = -1;
  }
  // A line holding the date alone is no text of the row: taken as its date, it is not a line of the
  // block between this row and the next either (which would shift where a centred table cuts that
  // block: a date centred between two rows of its day, layout/centred-dates.ts).
  if (Object.keys(date.parts).every((role) => role === "date")) s.rows[index]!.cells.date = date.parts.date;
  // A date line heading the next page (a row cut by the page break) is the row's at once: as a
  // line between it and the next row, its distance from the row would be measured across pages.
  else if (date.line.page !== u.line.page) appendParts(s.rows[index]!, date.parts, "after", date.line);
  else s.pendings.push({ line: date.line, parts: date.parts, prevRow: index, carryRow: -1, nextRow: index + 1 });
}

const amountOf = (t: string | undefined): Kobo | null => {
  if (!t || isEmptyAmount(t)) return null;
  const a = parseAmount(t);
  if (!a) return null;
  return a.marker === "DR" && a.kobo > 0n ? -a.kobo : a.kobo;
};

/**
 * An undated line with exactly one movement is a further row of the day above when its balance
 * follows from that row's balance (or, without a balance column, when it has a narration). Totals
 * lines, which carry both sides, and balance-only lines do not qualify.
 */
export function continuesDay(last: RowDraft, parts: RoleTexts): boolean {
  const { d, c, a, moving } = sidesOf(parts);
  if (moving !== 1) return false;
  const bal = amountOf(parts.balance);
  const prevBal = amountOf(last.cells.balance);
  if (bal === null || prevBal === null) return parts.balance === undefined && last.cells.balance === undefined && Boolean(parts.narration);
  const abs = (k: Kobo) => (k < 0n ? -k : k);
  const forward = d !== null && d !== 0n ? prevBal - abs(d) === bal : c !== null && c !== 0n ? prevBal + abs(c) === bal : prevBal + a! === bal || prevBal - abs(a!) === bal || prevBal + abs(a!) === bal;
  if (forward) return true;
  // Newest-first listings: the row above happened after this one, so its own movement links them.
  const ld = amountOf(last.cells.debit) ?? 0n;
  const lc = amountOf(last.cells.credit) ?? 0n;
  const la = amountOf(last.cells.amount);
  const moves = la !== null ? [la, -la] : [abs(lc) - abs(ld)];
  return moves.some((m) => bal + m === prevBal);
}

/**
 * A money cell holds a figure when it has a digit: a currency code or sign alone (`NGN` over a
 * figure wrapped onto the line below, in a narrow cell) is not one.
 */
export const figure = (text: string | undefined): boolean => text !== undefined && /\d/.test(text);

/** The cells print a debit, credit or amount figure (not only a balance). */
export const hasMovement = (cells: RoleTexts): boolean => figure(cells.debit) || figure(cells.credit) || figure(cells.amount);
