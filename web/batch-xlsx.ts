/**
 * The batch as one workbook, merged in the browser from the server's own workbooks of each job
 * (`GET /v1/parse/jobs/{id}/result?format=xlsx`: no second parse, nothing counted), so every cell
 * keeps the server's typing (dates, amounts and their number formats). Transactions: one header,
 * then every statement's rows in queue order. Summary: each statement's summary under its file
 * name. exceljs (about 1 MB) is served as its own script (/assets/batch-xlsx.js) and loaded only
 * when asked for, so the page does not carry it for everyone.
 */
import ExcelJS from "exceljs";

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export interface JobWorkbook {
  /** The statement's file name, heading its part of the Summary sheet. */
  name: string;
  bytes: ArrayBuffer;
}

/** A row's cells into another sheet's row: value, number format and font. */
function copyRow(from: ExcelJS.Row, to: ExcelJS.Row): void {
  from.eachCell({ includeEmpty: false }, (cell, col) => {
    const target = to.getCell(col);
    target.value = cell.value;
    if (cell.numFmt) target.numFmt = cell.numFmt;
    if (cell.font) target.font = cell.font;
  });
}

const headerOf = (sheet: ExcelJS.Worksheet): string => JSON.stringify(sheet.getRow(1).values);

function sheetOf(book: ExcelJS.Workbook, name: string, file: string): ExcelJS.Worksheet {
  const sheet = book.getWorksheet(name);
  if (!sheet) throw new Error(`The workbook of ${file} has no ${name} sheet`);
  return sheet;
}

export async function batchXlsx(workbooks: JobWorkbook[]): Promise<Blob> {
  const out = new ExcelJS.Workbook();
  out.creator = "statement-parser";
  const rows = out.addWorksheet("Transactions", { views: [{ state: "frozen", ySplit: 1 }] });
  const summary = out.addWorksheet("Summary");
  let header: string | undefined;
  for (const { name, bytes } of workbooks) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes);
    const t = sheetOf(book, "Transactions", name);
    if (header === undefined) {
      header = headerOf(t);
      copyRow(t.getRow(1), rows.getRow(1));
      t.columns.forEach((c, i) => (rows.getColumn(i + 1).width = c.width));
      sheetOf(book, "Summary", name).columns.forEach((c, i) => (summary.getColumn(i + 1).width = c.width));
    } else if (headerOf(t) !== header) {
      // The columns are fixed by the service; a difference means a workbook from another version.
      throw new Error(`The columns of ${name} differ from the first statement's`);
    }
    t.eachRow((row, n) => {
      if (n > 1) copyRow(row, rows.addRow([]));
    });
    const s = sheetOf(book, "Summary", name);
    if (summary.rowCount > 0) summary.addRow([]);
    summary.addRow(["File", name]).font = { bold: true };
    s.eachRow((row) => copyRow(row, summary.addRow([])));
  }
  const width = rows.getRow(1).cellCount;
  rows.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, rows.rowCount), column: Math.max(1, width) } };
  return new Blob([await out.xlsx.writeBuffer()], { type: XLSX_TYPE });
}
