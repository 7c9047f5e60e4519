/**
 * The longest text the parse keeps from one PDF text item, spreadsheet cell or HTML table cell.
 * No statement line comes near it (narrations run to a few hundred characters); text past it is
 * dropped at extraction, so no later stage ever meets a line of unbounded length (issue 15: a
 * 100,000-character line held a worker for 25 s).
 */
export const MAX_TEXT_CHARS = 4_000;

export const capText = (s: string): string => (s.length > MAX_TEXT_CHARS ? s.slice(0, MAX_TEXT_CHARS) : s);
