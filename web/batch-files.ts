/**
 * The batch as one CSV: every parsed statement's rows under one header, written by the engine's own
 * CSV writer (src/engine/csv.ts) over a source whose account sections are every section of every
 * statement, so the columns (bank, account, ... derived_balance) and cells are exactly those of each
 * statement's own CSV, stacked in queue order. (The workbook is merged from the server's: web/batch-xlsx.ts.)
 */
import { toCsv } from "../src/engine/csv.ts";
import type { RowSection } from "../src/engine/statement-rows.ts";
import type { ParseResponse, Section } from "./types.ts";

/** Every account section of the statements, in order (a response without `accounts` is one section). */
export function sectionsOf(responses: ParseResponse[]): Section[] {
  return responses.flatMap((r) => (r.accounts && r.accounts.length > 0 ? r.accounts : [r]));
}

/** The statements as one row source for the engine's writers. */
export function batchSource(responses: ParseResponse[]): { format_version: string; metadata: Section["metadata"]; accounts: Section[] } & Section {
  const first = responses[0];
  if (!first) throw new Error("a batch file needs at least one parsed statement");
  const sections = sectionsOf(responses);
  return { ...first, format_version: first.format_version, accounts: sections, row_wise_reconcilable: sections.every((s) => s.row_wise_reconcilable) };
}

/** One CSV: the header once, then every statement's rows (the same text as stacking each statement's CSV). */
export function batchCsv(responses: ParseResponse[]): Blob {
  const source = batchSource(responses) as unknown as { metadata: RowSection["metadata"]; transactions: RowSection["transactions"]; accounts: RowSection[] };
  return new Blob([toCsv(source)], { type: "text/csv" });
}
