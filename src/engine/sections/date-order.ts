/**
 * A date the balance chain cannot vouch for: the chain checks every figure, but no figure depends
 * on a row's date, so a date read from the wrong row's cell (a wrapped date cell cut by a page
 * break, a serial number read as a day, a day and month read the wrong way round) passes it. A
 * statement lists its rows in date order, within the period it prints; a row whose day breaks
 * that order while the rows either side of it keep it, or falls outside that period, is most
 * likely misread, and is said so in the notes.
 */

/** Day steps against the statement's direction, as a share of its steps, above which it is not read as sorted. */
const UNSORTED_SHARE = 0.02;
/** Steps against the direction a sorted statement may have whatever its length. */
const UNSORTED_ALLOWANCE = 2;

/**
 * Indexes (0-based) of rows whose day is out of the statement's order between two neighbours that
 * keep it. `days`: each row's day as `YYYY-MM-DD` (any form that sorts as text). None when the
 * statement is not in date order to begin with, or all on one day.
 */
export function daysOutOfOrder(days: readonly string[]): number[] {
  let up = 0;
  let down = 0;
  for (let i = 1; i < days.length; i++) {
    if (days[i]! > days[i - 1]!) up++;
    else if (days[i]! < days[i - 1]!) down++;
  }
  const against = Math.min(up, down);
  if (up === down || against > Math.max(UNSORTED_ALLOWANCE, UNSORTED_SHARE * (days.length - 1))) return [];
  const sign = up > down ? 1 : -1;
  // a before b in the statement's direction (or the same day).
  const inOrder = (a: string, b: string) => (sign > 0 ? a <= b : a >= b);
  const out: number[] = [];
  for (let i = 1; i + 1 < days.length; i++) {
    const [before, day, after] = [days[i - 1]!, days[i]!, days[i + 1]!];
    if (inOrder(before, after) && !(inOrder(before, day) && inOrder(day, after))) out.push(i);
  }
  return out;
}

/** The note for rows daysOutOfOrder found, or null for none. `dates`: the rows' dates as the response prints them. */
export function dateOrderNote(rows: readonly number[], dates: readonly string[]): string | null {
  return rows.length === 0 ? null : `Dates out of the statement's order, possibly misread (the balances do not depend on them): ${rowsListed(rows, dates)}.`;
}

/** The first three rows (1-based) with their days, and how many more: `row 3 (2026-01-22), and 2 more`. */
function rowsListed(rows: readonly number[], dates: readonly string[]): string {
  const shown = rows.slice(0, 3).map((i) => `row ${i + 1} (${dates[i]!.slice(0, 10)})`);
  return `${shown.join(", ")}${rows.length > 3 ? `, and ${rows.length - 3} more` : ""}`;
}

/** Indexes (0-based) of rows whose day (`YYYY-MM-DD`) falls outside the period `[start, end]` (the same form). */
export function daysOutsidePeriod(days: readonly string[], start: string, end: string): number[] {
  const out: number[] = [];
  days.forEach((day, i) => {
    if (day < start || day > end) out.push(i);
  });
  return out;
}

/** The note for rows daysOutsidePeriod found, or null for none. */
export function outsidePeriodNote(rows: readonly number[], dates: readonly string[], start: string, end: string): string | null {
  return rows.length === 0 ? null : `Dates outside the printed statement period (${start} to ${end}), possibly misread (the balances do not depend on them): ${rowsListed(rows, dates)}.`;
}
