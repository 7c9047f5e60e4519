/** Words and shapes of the lines around a statement's table: balances, totals, page furniture. */

/** Opening-balance and brought-forward lines. */
export const OPENING_LABEL = /opening\s*bal|bal(?:ance)?\.?\s*b\/?f|brought\s*f(?:or)?w(?:ar)?d|balance\s+brought|previous\s+balance|beginning\s+balance|balance\s+forward|start(?:ing)?\s+balance/i;
/** Closing and totals lines; "Total" only where it leads the line or labels a figure, never "POS @ TOTAL ENERGIES". */
export const CLOSING_LABEL = /closing\s*bal|bal(?:ance)?\.?\s*c\/?f|carried\s*f(?:or)?w(?:ar)?d|^\s*(?:grand\s+|sub\s*-?\s*)?totals?\b|\btotals?\s*:|\bpage\s+totals?\b|ending\s+balance|final\s+balance/i;

/** A balance or totals label and nothing else, as an opening, carried or totals line prints it beside its figure. */
export const BALANCE_LABEL_ONLY = /^(?:(?:opening|beginning|starting|previous|closing|ending|final)\s+bal(?:ance)?|bal(?:ance)?\s*[bc]\/?f|balance\s+(?:brought|carried)\s+f(?:or)?w(?:ar)?d|(?:grand\s+|sub\s*-?\s*)?totals?)\.?:?$/i;

export const BARE_NUMBER = /^\d{1,3}$/;

/** Titles of tables whose items are not posted transactions. */
export const NOT_POSTED = /\b(?:pending|not\s+yet\s+posted|unposted|uncleared|on\s+hold|holds|lien|reserved\s+amounts?|blocked\s+funds|authori[sz]ations?\s+pending)\b/i;

/** Page furniture: "Page 2 of 5", "2 / 5", a bare page number (up to 3 digits: 4 could be a year on a date's second line). */
export const PAGE_FOOTER = /^(?:page\s*\d+(?:\s*(?:of|\/)\s*\d+)?|\d+\s*(?:of|\/)\s*\d+|\d{1,3}|continued.*|.*(?:page)\s+\d+\s+of\s+\d+.*)$/i;
