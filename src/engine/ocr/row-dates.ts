/**
 * The chain checks figures, never dates. A date cell OCR missed leaves the row with the date of the
 * row above (the layout stage carries dates for statements that print each date once), so each
 * row's date is compared with the dates OCR read on its figure line:
 * - on the line: confirmed;
 * - not on it, while the statement's two date columns (posted and value date) agree on every line
 *   where both were read, and the line shows one date that keeps the rows in order: that date is
 *   used, and reported as a repair;
 * - otherwise unconfirmed: the statement is not reconcilable (a date printed on the row contradicts
 *   the one it would be given).
 */
import { scanDate } from "../dates.ts";
import type { OcrRepair, Transaction } from "../types.ts";
import type { OcrLine } from "./row-lines.ts";

/** Lines with both date columns read that must agree before one stands in for the other. */
const MIN_AGREEING_LINES = 3;

type Ymd = string;

/** The dates of a line as yyyy-mm-dd, day first or month first. */
function lineDates(line: OcrLine, dayFirst: boolean): Ymd[] {
  const out: Ymd[] = [];
  for (const w of line.words) {
    const d = scanDate(w.text);
    if (!d) continue;
    // scanDate stores a/b/yyyy as day=a, month=b.
    const [month, day] = dayFirst || !d.ambiguous ? [d.month, d.day] : [d.day, d.month];
    out.push(`${String(d.year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`);
  }
  return out;
}

export interface RowDates {
  repairs: OcrRepair[];
  unconfirmed: number[];
}

/** Settles each row's date against its figure line (null: the row's line was not found); rewrites the dates it repairs. */
export function settleRowDates(rows: Transaction[], lines: readonly (OcrLine | null)[]): RowDates {
  const day = (t: Transaction) => t.date.slice(0, 10);
  // Day first unless more rows confirm month first.
  let dayFirstHits = 0;
  let monthFirstHits = 0;
  rows.forEach((t, i) => {
    const l = lines[i];
    if (!l) return;
    if (lineDates(l, true).includes(day(t))) dayFirstHits++;
    if (lineDates(l, false).includes(day(t))) monthFirstHits++;
  });
  const dayFirst = dayFirstHits >= monthFirstHits;
  const read = lines.map((l) => (l ? lineDates(l, dayFirst) : []));
  const both = read.filter((d) => d.length >= 2);
  const columnsAgree = both.length >= MIN_AGREEING_LINES && both.every((d) => d.every((x) => x === d[0]));
  const repairs: OcrRepair[] = [];
  const unconfirmed: number[] = [];
  rows.forEach((t, i) => {
    const dates = read[i]!;
    if (dates.length === 0 || dates.includes(day(t))) return;
    const only = new Set(dates).size === 1 ? dates[0]! : null;
    const inOrder = only !== null && (i === 0 || day(rows[i - 1]!) <= only) && (i === rows.length - 1 || only <= day(rows[i + 1]!));
    if (columnsAgree && only !== null && inOrder) {
      repairs.push({ row: i, field: "date", printed: day(t), used: only, reason: "date_cell_missed_other_date_column_used" });
      t.date = only + t.date.slice(10);
    } else unconfirmed.push(i);
  });
  return { repairs, unconfirmed };
}
