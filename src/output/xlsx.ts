import ExcelJS from "exceljs";
import { splitDateTime } from "../engine/csv.ts";
import { derivedBalanceText, INSIGHT_COLUMNS, insightCells, OUTPUT_COLUMNS, type OutputRow, statementRows } from "../engine/statement-rows.ts";
import type { AccountSection, Checks, ParseResponse } from "../engine/types.ts";

export const XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The ParseResponse as JSON.parse gives it back: `checks.verdict` and `assumed` may be absent in results from before they existed. */
type LooseChecks = Checks & { verdict?: string; assumed?: string[] };
type Section = Pick<AccountSection, "metadata" | "totals" | "row_wise_reconcilable" | "transactions"> & { checks?: LooseChecks };
export type XlsxSource = Pick<ParseResponse, "format_version" | "metadata" | "totals" | "row_wise_reconcilable" | "transactions" | "integrity"> & {
  checks?: LooseChecks;
  accounts?: Section[];
};

const AMOUNT_FORMAT = "#,##0.00";
const AMOUNT_COLUMNS = new Set<string>(["debit", "credit", "balance", "derived_balance"]);

/**
 * `2024-01-03T14:22:11+01:00` -> a Date whose UTC fields are the statement's wall-clock day:
 * Excel dates carry no zone, and exceljs writes a Date's UTC fields as the serial, so the cell
 * shows the Lagos calendar date the CSV's `date` column shows. Undefined for a date not in that form.
 */
function excelDay(iso: string): Date | undefined {
  const [day] = splitDateTime(iso);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
}

/**
 * An amount as a spreadsheet number. Spreadsheets hold numbers as doubles: the engine's exact
 * decimal string becomes the nearest one, which shows the same two decimals. Empty stays empty.
 */
const amountCell = (text: string): number | string => (text === "" || Number.isNaN(Number(text)) ? text : Number(text));

function rowValues(r: OutputRow): (string | number | Date)[] {
  const t = r.transaction;
  const [, time] = splitDateTime(t.date);
  return [r.bank, r.account, excelDay(t.date) ?? t.date, time, t.narration, amountCell(t.debit), amountCell(t.credit), amountCell(t.balance), amountCell(derivedBalanceText(r)), t.reference, t.currency];
}

function transactionsSheet(book: ExcelJS.Workbook, source: XlsxSource, insights: boolean): void {
  const sheet = book.addWorksheet("Transactions", { views: [{ state: "frozen", ySplit: 1 }] });
  // With insights (?include=insights), category and counterparty follow the fixed columns.
  const columns: readonly string[] = insights ? [...OUTPUT_COLUMNS, ...INSIGHT_COLUMNS] : OUTPUT_COLUMNS;
  sheet.columns = columns.map((key) => ({
    header: key,
    key,
    width: key === "narration" || key === "counterparty" ? 48 : key === "reference" ? 28 : AMOUNT_COLUMNS.has(key) ? 16 : 12,
    style: AMOUNT_COLUMNS.has(key) ? { numFmt: AMOUNT_FORMAT } : key === "date" ? { numFmt: "yyyy-mm-dd" } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  let rows = 0;
  for (const r of statementRows(source)) {
    // Text cells are written as strings: a cell starting with `=` is text to exceljs, never a formula.
    sheet.addRow(insights ? [...rowValues(r), ...insightCells(r.transaction)] : rowValues(r));
    rows++;
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, rows + 1), column: columns.length } };
}

const yesNo = (v: boolean | null | undefined): string => (v === null || v === undefined ? "not printed" : v ? "yes" : "no");

function sectionLines(s: Section, label: string): [string, string | number][] {
  const c = s.checks;
  const lines: [string, string | number][] = [
    [label, ""],
    ["Bank", s.metadata.bank],
    ["Account holder", s.metadata.account_holder],
    ["Account", s.metadata.account_number_masked],
    ["Period start", splitDateTime(s.metadata.statement_period_start)[0]],
    ["Period end", splitDateTime(s.metadata.statement_period_end)[0]],
    ["Opening balance", amountCell(s.metadata.opening_balance)],
    ["Closing balance", amountCell(s.metadata.closing_balance)],
    ["Total credit", amountCell(s.totals.credit)],
    ["Total debit", amountCell(s.totals.debit)],
    ["Transactions", s.transactions.length],
    ["Verdict", c?.verdict ?? (s.row_wise_reconcilable ? "reconcilable (no verdict in this result)" : "unverified")],
    ["Row-wise reconcilable", s.row_wise_reconcilable ? "yes" : "no"],
  ];
  if (c) {
    lines.push(
      ["Rows chain", yesNo(c.row_chain)],
      ["Printed totals agree", yesNo(c.totals_match)],
      ["Printed closing balance agrees", yesNo(c.closing_balance_match)],
      ["Printed count agrees", yesNo(c.count_match)],
      ["Opening balance source", c.opening_balance_source],
      ["Balances derived", yesNo(c.balances_derived)],
    );
    for (const a of c.assumed ?? []) lines.push(["Assumed", a]);
    for (const n of c.notes) lines.push(["Note", n]);
  }
  return lines;
}

function summarySheet(book: ExcelJS.Workbook, source: XlsxSource): void {
  const sheet = book.addWorksheet("Summary");
  sheet.columns = [{ width: 32 }, { width: 80 }];
  const sections: Section[] = source.accounts && source.accounts.length > 0 ? source.accounts : [source];
  const lines: [string, string | number][] = [["Format version", source.format_version]];
  sections.forEach((s, i) => lines.push(["", ""], ...sectionLines(s, sections.length > 1 ? `Account section ${i + 1}` : "Statement")));
  if (source.integrity) {
    lines.push(["", ""], ["Integrity", source.integrity.verdict]);
    for (const s of source.integrity.signals) lines.push([`Signal (${s.severity})`, `${s.code}: ${s.detail}`]);
  }
  for (const [k, v] of lines) {
    const row = sheet.addRow([k, v]);
    if (typeof v === "number") row.getCell(2).numFmt = AMOUNT_FORMAT;
    if (v === "" || k === "Verdict" || k === "Integrity") row.getCell(1).font = { bold: true };
  }
}

/**
 * The parse as an Excel workbook: a Transactions sheet (the CSV's columns, dates and amounts typed,
 * the header frozen and filtered) and a Summary sheet (metadata, checks and verdict of each account
 * section, and the integrity report). In memory; nothing touches disk.
 */
export async function toXlsx(source: XlsxSource, options: { insights?: boolean } = {}): Promise<Uint8Array<ArrayBuffer>> {
  const book = new ExcelJS.Workbook();
  book.creator = "statement-parser";
  transactionsSheet(book, source, options.insights === true);
  summarySheet(book, source);
  const buffer = await book.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}
