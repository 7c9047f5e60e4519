import type { ParseResponse } from "./types.ts";

export const CSV_HEADER = ["date", "narration", "debit", "credit", "balance", "reference", "currency"] as const;

/**
 * A text cell that a spreadsheet would run as a formula (`= + - @`, or a leading tab/CR that some
 * spreadsheets strip first) gets a leading apostrophe, the OWASP-recommended neutralisation.
 * Amount columns are engine-formatted numbers (`-12.00` is a real negative balance) and are left as they are.
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** RFC 4180: quote a field holding a comma, quote or line break; double inner quotes. */
export function quoteField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV of the transactions, CRLF line ends, header first. */
export function toCsv(r: ParseResponse): string {
  const lines = [CSV_HEADER.join(",")];
  for (const t of r.transactions) {
    lines.push(
      [t.date, neutraliseFormula(t.narration), t.debit, t.credit, t.balance, neutraliseFormula(t.reference), neutraliseFormula(t.currency)]
        .map(quoteField)
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}
