import { derivedBalanceText, INSIGHT_COLUMNS, insightCells, OUTPUT_COLUMNS, type OutputRow, type RowSource, statementRows } from "./statement-rows.ts";

/** The columns, in order: always the same (src/engine/statement-rows.ts), so the CSVs of a batch stack. */
export const CSV_HEADER = OUTPUT_COLUMNS;

/** What the CSV is made from: a ParseResponse (its `accounts` may be absent in responses made before sections existed). */
export type CsvSource = RowSource;

/**
 * A text cell that a spreadsheet would run as a formula (`= + - @`, or a leading tab/CR that some
 * spreadsheets strip first) gets a leading apostrophe, the OWASP-recommended neutralisation.
 * Amount columns are engine-formatted numbers (`-12.00` is a real negative balance) and are left as they are.
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * A reference made only of digits is an identifier, not a number: opened as a number, a
 * spreadsheet keeps 15 significant digits, shows 20 as 1.23457E+19 and drops leading zeros. It
 * gets the same leading apostrophe as a neutralised formula, so it stays text with every digit
 * (docs/engine.md, "CSV columns", has what Excel, LibreOffice and Google Sheets make of it). One rule for
 * every digit-only reference, short or long, so a consumer strips one leading `'` and is done.
 */
export function keepDigitsAsText(text: string): string {
  return /^\d+$/.test(text) ? `'${text}` : text;
}

/** RFC 4180: quote a field holding a comma, quote or line break; double inner quotes. */
export function quoteField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const ISO_LOCAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/;

/**
 * `2024-01-03T14:22:11+01:00` → `["2024-01-03", "14:22:11"]`. The engine writes midnight when
 * the statement prints no time, so 00:00:00 reads as "no time" and the time cell stays empty.
 * A date the engine did not write in that form is passed through whole in the date cell.
 */
export function splitDateTime(date: string): [string, string] {
  const m = ISO_LOCAL.exec(date);
  if (!m) return [date, ""];
  const [, day = "", time = ""] = m;
  return [day, time === "00:00:00" ? "" : time];
}

function row(r: OutputRow): string[] {
  const t = r.transaction;
  const [date, time] = splitDateTime(t.date);
  const text = (v: string) => neutraliseFormula(v);
  return [
    text(r.bank),
    keepDigitsAsText(text(r.account)),
    date,
    time,
    text(t.narration),
    t.debit,
    t.credit,
    t.balance,
    derivedBalanceText(r),
    keepDigitsAsText(text(t.reference)),
    text(t.currency),
  ];
}

/**
 * RFC 4180 CSV of the transactions, CRLF line ends, header first, always the columns of
 * OUTPUT_COLUMNS: bank (id), account (the section's masked number), `date` (YYYY-MM-DD), `time`
 * (HH:MM:SS or empty), narration, debit, credit, balance, derived_balance, reference, currency.
 * Every account section's rows follow in print order.
 */
export function toCsv(r: CsvSource, options: { insights?: boolean } = {}): string {
  // With insights (?include=insights), category and counterparty follow the fixed columns.
  const extra = (out: OutputRow): string[] => (options.insights ? insightCells(out.transaction).map(neutraliseFormula) : []);
  const lines = [(options.insights ? [...CSV_HEADER, ...INSIGHT_COLUMNS] : CSV_HEADER).join(",")];
  for (const out of statementRows(r)) lines.push([...row(out), ...extra(out)].map(quoteField).join(","));
  return lines.join("\r\n") + "\r\n";
}
