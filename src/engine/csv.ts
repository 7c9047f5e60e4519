import type { ParseResponse, StatementMetadata, Transaction } from "./types.ts";

/** The columns, in order; `account` comes first only for a statement with several account sections. */
export const CSV_HEADER = ["date", "time", "narration", "debit", "credit", "balance", "reference", "currency"] as const;
export const CSV_ACCOUNT_COLUMN = "account";

/** One account section as far as the CSV needs it (the engine's `accounts[]` entries). */
export interface CsvSection {
  metadata: Pick<StatementMetadata, "account_number_masked">;
  transactions: readonly Transaction[];
}

/**
 * What the CSV is made from: a ParseResponse, whose `accounts` (one entry per account section,
 * the first equal to the top level) may be absent in responses made before sections existed.
 */
export type CsvSource = Pick<ParseResponse, "transactions" | "metadata"> & { accounts?: readonly CsvSection[] };

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
 * (README "CSV columns" has what Excel, LibreOffice and Google Sheets make of it). One rule for
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

function row(t: Transaction): string[] {
  const [date, time] = splitDateTime(t.date);
  return [date, time, neutraliseFormula(t.narration), t.debit, t.credit, t.balance, keepDigitsAsText(neutraliseFormula(t.reference)), neutraliseFormula(t.currency)];
}

/**
 * RFC 4180 CSV of the transactions, CRLF line ends, header first: `date` (YYYY-MM-DD), `time`
 * (HH:MM:SS or empty), narration, debit, credit, balance, reference, currency. A statement with
 * several account sections lists every section's rows in print order, with an `account` column
 * (the section's masked account number) first.
 */
export function toCsv(r: CsvSource): string {
  const sections = r.accounts && r.accounts.length > 1 ? r.accounts : undefined;
  const lines = [(sections ? [CSV_ACCOUNT_COLUMN, ...CSV_HEADER] : [...CSV_HEADER]).join(",")];
  if (sections) {
    for (const s of sections) {
      const account = keepDigitsAsText(neutraliseFormula(s.metadata.account_number_masked));
      for (const t of s.transactions) lines.push([account, ...row(t)].map(quoteField).join(","));
    }
  } else {
    for (const t of r.transactions) lines.push(row(t).map(quoteField).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
