import { scanDate } from "../dates.ts";
import type { Column } from "./header.ts";
import type { Line } from "./lines.ts";

/**
 * Tables keyed by time: each row prints a time and no date, and each day's date heads its rows on
 * a line of its own ("Friday, 02 Jan 2026"), as app histories group a day's transactions. The
 * rows take the date of the heading above them.
 */

/** The table's row key is a time column: it has one and no date column. */
export const timeKeyed = (columns: readonly Column[]): boolean => columns.some((c) => c.role === "time") && !columns.some((c) => c.role === "date" || c.role === "value_date");

/** A clock time anywhere in a text ("14:03", "2:13 PM"). */
const CLOCK = /\d:\d\d/;

/**
 * The line's text when it is a day heading: a date alone on its line (a weekday before it
 * allowed) and no time, which a row of a time-keyed table never is; else null.
 */
export function dayHeading(line: Line): string | null {
  const text = line.text.trim();
  if (CLOCK.test(text) || line.cells.some((c) => c.kind === "money")) return null;
  return scanDate(text) ? text : null;
}
