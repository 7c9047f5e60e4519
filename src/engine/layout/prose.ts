import type { Cell } from "./cells.ts";
import type { Column } from "./header.ts";
import type { Line } from "./lines.ts";

/**
 * Sentences printed across a statement table: a footer repeated at every page's foot ("Generated
 * on 27 Nov 2026 ... Deposits are insured up to 5,000,000.00 by NDIC"), a notice between rows. Its
 * dates and figures are no row's, and no column's either: a footer's date under the date column on
 * every page would otherwise widen that column's band as if rows printed there.
 */

/** A sentence across the table has at least this many words in its widest run. */
const PROSE_WORDS = 4;

/** A run of this many words over PROSE_COLUMNS columns is a sentence whichever edges its words fall on. */
const PROSE_LINE_WORDS = 12;
const PROSE_COLUMNS = 3;

/** Words of a sentence stand at most this share of the line height apart (a word space is ~0.25-0.5). */
const PROSE_GAP = 0.75;

/** A paragraph's lines follow each other within this many line heights. */
const PROSE_LEADING = 1.6;

/**
 * A line of words (as drawn, before any cut at column edges), one of them covering a column's
 * whole band and reaching into another, is a sentence printed across the table, not a row: a
 * row's text may run into the column beside it, never over it to the next.
 */
export function proseAcross(columns: readonly Column[], line: Line): boolean {
  return runsAcross(columns, line) && !rowShaped(columns, line.cells);
}

function runsAcross(columns: readonly Column[], line: Line): boolean {
  const { cells, h } = line;
  // One run of words from the table's first column on: no gap wider than a loose word space
  // (a row's cells stand a column gap apart somewhere; a narration run on over an empty column is
  // still set apart from the row's date or reference).
  const first = columns[0];
  if (!first || (cells[0]?.x0 ?? Infinity) > first.x1 || cells.some((c, i) => i > 0 && c.x0 - cells[i - 1]!.x1 > PROSE_GAP * h)) return false;
  // Many words in that one run over three columns or more: its words may fall either side of
  // every column's edge (a footer's long clause ending just short of a widened band's end).
  const across = columns.filter((col) => col.x1 > cells[0]!.x0 && col.x0 < cells[cells.length - 1]!.x1).length;
  if (across >= PROSE_COLUMNS && cells.reduce((n, c) => n + wordsIn(c), 0) >= PROSE_LINE_WORDS) return true;
  return cells.some((c) => {
    // Words, not a rule of dashes under the headings.
    if (wordsIn(c) < PROSE_WORDS) return false;
    const touched = columns.filter((col) => Math.min(c.x1, col.x1) > Math.max(c.x0, col.x0));
    return touched.length >= 2 && touched.some((col) => col.x1 > col.x0 && c.x0 <= col.x0 && c.x1 >= col.x1);
  });
}

/** Columns a row prints its figures in. */
const FIGURE_ROLES: ReadonlySet<string> = new Set(["debit", "credit", "amount", "balance"]);

/**
 * A line that opens with a date under the date column and has figures under two columns of
 * figures is a row, however tight its cells: a fixed-width report sets every cell one space after
 * the one before, so a full narration and its reference make one run of words across two columns.
 */
function rowShaped(columns: readonly Column[], cells: readonly Cell[]): boolean {
  const first = cells[0];
  const date = columns.find((c) => c.role === "date");
  if (!first || first.kind !== "date" || !date || first.x0 > date.x1 || first.x1 < date.x0) return false;
  return figuresUnderTwoColumns(columns, cells);
}

/** Figures stand under two columns of figures or more: a row's movement and balance. */
export function figuresUnderTwoColumns(columns: readonly Column[], cells: readonly Cell[]): boolean {
  const under = new Set<Column>();
  for (const c of cells) {
    if (c.kind !== "money") continue;
    const col = columns.find((k) => FIGURE_ROLES.has(k.role) && Math.min(c.x1, k.x1) > Math.max(c.x0, k.x0));
    if (col) under.add(col);
  }
  return under.size >= 2;
}

/** Words of two letters or more in a text cell (none in a cell of figures, dates or dashes). */
const wordsIn = (c: Cell): number => (c.kind === "text" ? (c.text.match(/\p{L}{2,}/gu)?.length ?? 0) : 0);

/** Words in one run that make a line a sentence without the table's columns to measure it by. */
const SENTENCE_WORDS = 5;

/** A line of prose (a run of several words) with no money on it: a footer's sentence, not a row's cells. */
export function sentenceLine(line: Line): boolean {
  return !line.cells.some((c) => c.kind === "money") && line.cells.some((c) => wordsIn(c) >= SENTENCE_WORDS);
}

/**
 * The next line of a sentence printed across the table: right under it (within 1.6 of its line
 * height), starting where it started, the sentence having run to the table's last column or so
 * near the table's right edge that the next line's first word would not have fitted after it (a
 * paragraph wraps only when its line is full: `... insured up to` over `5,000,000.00 by NDIC.`).
 */
export function wrapsProse(prose: Line | null, line: Line, columns: readonly Column[]): boolean {
  if (!prose || prose.page !== line.page || line.y <= prose.y || line.y - prose.y > PROSE_LEADING * prose.h) return false;
  const [start, end, last, first] = [prose.cells[0], prose.cells[prose.cells.length - 1], columns[columns.length - 1], line.cells[0]];
  if (start === undefined || end === undefined || last === undefined || first === undefined) return false;
  const full = end.x1 >= last.x0 || end.x1 + firstWordWidth(first) > last.x1;
  return full && Math.abs(first.x0 - start.x0) <= 0.5 * prose.h;
}

/** The width of a cell's first word: measured where the line builder kept its words, else its share of the cell by characters. */
function firstWordWidth(cell: Cell): number {
  const word = cell.words?.[0];
  if (word) return word.x1 - word.x0;
  const space = cell.text.indexOf(" ");
  return space < 0 ? cell.x1 - cell.x0 : ((cell.x1 - cell.x0) * space) / cell.text.length;
}
