import type { Column, ColumnRole } from "./header.ts";
import type { Line } from "./lines.ts";

/** The shapes row assembly builds while it walks a table (layout/rows.ts and its helpers). */

/** Text of each role of one row, continuation lines included. */
export type RoleTexts = Partial<Record<ColumnRole, string>>;

export interface RowDraft {
  page: number;
  y: number;
  cells: RoleTexts;
  /** Baseline of the row's last line so far. */
  lastY: number;
  /** The date cell of the row's own line (continuations may add to the date column). */
  dateText: string;
  /** Text on the row's line that fit no column (reported in the checks notes, never guessed into a field). */
  dropped: string[];
  /** The date was taken from the row above (a date printed once per day), not printed on this row. */
  inherited?: boolean;
  /** So was the time: the row's own line printed none. */
  timeInherited?: boolean;
  /** Baseline of the line the row's date was printed on, when that is a line below its amounts (layout/day-rows.ts). */
  dateY?: number;
  /** Baseline of the last line of the row's date, when a narrow cell wrapped it (`03 Jan` over `2026`; layout/stitch.ts). */
  dateBottom?: number;
  /**
   * An undated row above the table's first date: a row of that date's run when the dates are
   * centred on their runs (layout/centred-dates.ts); otherwise read, as before, as a line of
   * figures before the rows (finishScan makes it an AmountLine again). Its line's text.
   */
  leading?: string;
  /** The row's date cell ran over the page end and ends at this line of the next page. */
  continuedOn?: { page: number; y: number };
  /** Where each role's text came from, line by line, as appendParts built it (see orderPieces). */
  pieces?: Partial<Record<ColumnRole, TextPiece[]>>;
}

/** One line's text of one role of a row, and where that line is printed. */
export interface TextPiece {
  page: number;
  y: number;
  text: string;
}

/** An undated line with amounts: an opening-balance line before the rows, a totals/closing line after. */
export interface AmountLine {
  cells: RoleTexts;
  text: string;
  /** Index of the next row at the time the line was seen (0 = before any row). */
  rowIndex: number;
  /** Where the line is printed. */
  page?: number;
  y?: number;
}

export interface TableScan {
  rows: RowDraft[];
  amountLines: AmountLine[];
  /** Lines outside any table (metadata blocks, footers): used for metadata and bank detection. */
  outside: Line[];
  /** Header labels seen, for bank detection. */
  headerText: string;
  /** The columns of the first header, or null when no table header was found. */
  columns: Column[] | null;
  /** Account number of a second account's section that follows the first (its rows are not read). */
  otherAccount: string | null;
}

/** A continuation line belongs to a row when it lies within this many glyph heights of the row's last line. */
export const CONTINUATION_GAP = 2.6;

export interface Pending {
  line: Line;
  parts: RoleTexts;
  /** Index in rows of the row above on the same page, or -1. */
  prevRow: number;
  /** At the top of a page: the last row of the pages before (a row split by the page break), or -1. */
  carryRow: number;
  /** Index the next row will have (the row below, if it is on the same page). */
  nextRow: number;
  /** The line is under its own page's (repeated) header. */
  underHeader?: boolean;
}

