import { PassThrough } from "node:stream";
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

type Writer = InstanceType<typeof ExcelJS.stream.xlsx.WorkbookWriter>;

function transactionsSheet(book: Writer, source: XlsxSource, insights: boolean): void {
  const sheet = book.addWorksheet("Transactions", { views: [{ state: "frozen", ySplit: 1 }] });
  // With insights (?include=insights), category and counterparty follow the fixed columns.
  const columns: readonly string[] = insights ? [...OUTPUT_COLUMNS, ...INSIGHT_COLUMNS] : OUTPUT_COLUMNS;
  sheet.columns = columns.map((key) => ({
    header: key,
    key,
    width: key === "narration" || key === "counterparty" ? 48 : key === "reference" ? 28 : AMOUNT_COLUMNS.has(key) ? 16 : 12,
    style: AMOUNT_COLUMNS.has(key) ? { numFmt: AMOUNT_FORMAT } : key === "date" ? { numFmt: "yyyy-mm-dd" } : {},
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  let rows = 0;
  // Rows are committed as they are written: the streaming writer keeps none of them in memory.
  // Text cells are written as strings: a cell starting with `=` is text to exceljs, never a formula.
  for (const r of statementRows(source)) {
    sheet.addRow(insights ? [...rowValues(r), ...insightCells(r.transaction)] : rowValues(r)).commit();
    rows++;
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, rows + 1), column: columns.length } };
  sheet.commit();
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

function summarySheet(book: Writer, source: XlsxSource): void {
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
    row.commit();
  }
  sheet.commit();
}

/**
 * The parse as an Excel workbook: a Transactions sheet (the CSV's columns, dates and amounts typed,
 * the header frozen and filtered) and a Summary sheet (metadata, checks and verdict of each account
 * section, and the integrity report). Written with exceljs's streaming writer into memory (nothing
 * touches disk); CPU-heavy for large statements (seconds for 50,000 rows), so the server runs it
 * off the main thread (src/output/xlsx-pool.ts).
 */
export async function toXlsx(source: XlsxSource, options: { insights?: boolean } = {}): Promise<Uint8Array<ArrayBuffer>> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (c: Buffer) => chunks.push(c));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  book.creator = "statement-parser";
  transactionsSheet(book, source, options.insights === true);
  summarySheet(book, source);
  await book.commit();
  const whole = Buffer.concat(chunks);
  const bytes = new Uint8Array(new ArrayBuffer(whole.byteLength));
  bytes.set(whole);
  return bytes;
}
