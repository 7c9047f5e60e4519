/** The opening, closing and totals a table prints on its own lines (not in its header). */
import { type AmountLine, CLOSING_LABEL, OPENING_LABEL } from "../layout/rows.ts";
import { absKobo, type Kobo, parseAmount } from "../money.ts";
import { signedBalance } from "./cells.ts";

const SUBTOTAL = /\btotals?\s+for\b|\bsub\s*-?\s*totals?\b|\bpage\s+totals?\b/i;
/** A closing-balance or carried-forward label (not a totals line). */
const CARRIED = /closing\s*bal|bal(?:ance)?\.?\s*c\/?f|carried\s*f(?:or)?w(?:ar)?d|ending\s+balance|final\s+balance/i;

export interface TableFigures {
  opening: Kobo | null;
  closing: Kobo | null;
  /** Only a labelled B/F or C/F figure is the table's own opening or closing (see preferTable). */
  labelledOpening: Kobo | null;
  labelledClosing: Kobo | null;
  debit: Kobo | null;
  credit: Kobo | null;
  /** Unlabelled undated lines with amounts between rows, as text for a note. */
  skipped: string[];
}

/**
 * Trailer and leader lines (undated, with amounts) carry the opening/closing balance and totals;
 * `rowOpening`/`rowClosing` are the balances of dated opening and closing rows, if any.
 */
export function tableFigures(amountLines: AmountLine[], rowCount: number, rowOpening: Kobo | null, rowClosing: Kobo | null): TableFigures {
  const f: TableFigures = { opening: rowOpening, closing: rowClosing, labelledOpening: rowOpening, labelledClosing: rowClosing, debit: null, credit: null, skipped: [] };
  for (const a of amountLines) {
    const bal = a.cells.balance ? parseAmount(a.cells.balance) : null;
    if (a.rowIndex === 0 || OPENING_LABEL.test(a.text)) {
      // An opening line printed after the rows is a newest-first table's first posting's balance before it.
      const lastLabelled = a.rowIndex === rowCount && !CLOSING_LABEL.test(a.text);
      if (bal && f.opening === null && (a.rowIndex === 0 || lastLabelled)) {
        f.opening = signedBalance(bal.kobo, bal.marker);
        if (OPENING_LABEL.test(a.text)) f.labelledOpening = f.opening;
      }
      continue;
    }
    // Mid-table amount lines are page carry-forwards (C/F, B/F), not the statement's figures; an
    // unlabelled one is reported, since it might be a row the layout could not date.
    if (a.rowIndex < rowCount) {
      if (!OPENING_LABEL.test(a.text) && !CLOSING_LABEL.test(a.text)) f.skipped.push(a.text);
      continue;
    }
    // A closing-balance line with one figure carries that balance, whichever column the figure
    // fell under (a spreadsheet prints it in the cell beside its label, under the narration or a
    // movement column): it is not the table's totals.
    const lone = CARRIED.test(a.text) ? loneFigure(a) : null;
    if (lone) {
      f.closing = f.labelledClosing = signedBalance(lone.kobo, lone.marker);
      continue;
    }
    if (bal) {
      f.closing = signedBalance(bal.kobo, bal.marker);
      if (CARRIED.test(a.text)) f.labelledClosing = f.closing;
    }
    // Subtotals of a month or a page are not the statement's totals.
    if (SUBTOTAL.test(a.text)) continue;
    const d = a.cells.debit ? parseAmount(a.cells.debit) : null;
    const c = a.cells.credit ? parseAmount(a.cells.credit) : null;
    if (d) f.debit = absKobo(d.kobo);
    if (c) f.credit = absKobo(c.kobo);
  }
  return f;
}

/** Roles an amount line's figures may stand under. */
const FIGURE_ROLES = ["debit", "credit", "amount", "balance", "balance_before", "extra_amount"] as const;

/** The line's only figure, when it has exactly one. */
function loneFigure(a: AmountLine): ReturnType<typeof parseAmount> {
  const figures = FIGURE_ROLES.map((role) => (a.cells[role] ? parseAmount(a.cells[role]!) : null)).filter((x) => x !== null);
  return figures.length === 1 ? figures[0]! : null;
}
