import { hasClockTime, scanDate, scanPartialDate } from "../dates.ts";
import type { Column } from "./header.ts";
import type { Line } from "./lines.ts";

/**
 * Tables keyed by time: each row prints a time and no date, and each day's date heads its rows on
 * a line of its own ("Friday, 02 Jan 2026"), as app histories group a day's transactions. The
 * rows take the date of the heading above them.
 */

/** The table's row key is a time column: it has one and no date column. */
export const timeKeyed = (columns: readonly Column[]): boolean => columns.some((c) => c.role === "time") && !columns.some((c) => c.role === "date" || c.role === "value_date");

/**
 * The heading's date when the line is a day heading: a line with no time (which every row of a
 * time-keyed table has) opening with a date (a weekday before it allowed) and holding nothing else
 * but figures, the day's own totals some apps print beside it (never a row); else null.
 */
export function dayHeading(line: Line): string | null {
  if (hasClockTime(line.text)) return null;
  const firstFigure = line.cells.findIndex((c) => c.kind === "money" || c.kind === "empty");
  const before = firstFigure < 0 ? line.cells : line.cells.slice(0, firstFigure);
  if (before.length === 0 || line.cells.slice(before.length).some((c) => c.kind !== "money" && c.kind !== "empty")) return null;
  const text = before.map((c) => c.text).join(" ").trim();
  // Without a year ("Mon, 05 Jan") the statement period's year completes it, as for any row's date.
  return scanDate(text) || scanPartialDate(text) ? text : null;
}
