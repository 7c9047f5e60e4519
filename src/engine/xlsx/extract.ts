/**
 * XLSX -> SheetTable[] from memory with exceljs, after zip-guard has checked the archive. Each sheet
 * becomes rows of display strings (see cell-text.ts); merged cells show their text once, in the
 * top-left cell, so a banner merged across six columns is not read as six values.
 */
import ExcelJS from "exceljs";
import { payloadTooLarge, unsupportedFormat } from "../../errors.ts";
import type { SheetTable } from "../types.ts";
import { cellText } from "./cell-text.ts";
import { guardXlsxZip } from "./zip-guard.ts";

export interface XlsxLimits {
  maxRows: number;
  maxInflatedBytes: number;
}

function isMergedSlave(cell: ExcelJS.Cell): boolean {
  return cell.isMerged && cell.master !== cell;
}

export async function extractXlsx(bytes: Uint8Array, limits: XlsxLimits): Promise<SheetTable[]> {
  guardXlsxZip(bytes, limits);
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's typings predate Buffer's generic parameter; the value is a plain Node Buffer.
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ExcelJS.Buffer);
  } catch (e) {
    throw unsupportedFormat(`The spreadsheet could not be read as XLSX (${e instanceof Error ? e.message : "unknown error"})`);
  }
  const sheets: SheetTable[] = [];
  let rowCount = 0;
  for (const ws of workbook.worksheets) {
    const rows: string[][] = [];
    for (let r = 1; r <= ws.rowCount; r++) {
      rowCount++;
      if (rowCount > limits.maxRows) throw payloadTooLarge(`The spreadsheet has more than ${limits.maxRows} rows`);
      const row = ws.getRow(r);
      const cells: string[] = [];
      for (let c = 1; c <= row.cellCount; c++) {
        const cell = row.getCell(c);
        cells.push(isMergedSlave(cell) ? "" : cellText(cell.value).trim());
      }
      while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
      rows.push(cells);
    }
    sheets.push({ name: ws.name, rows });
  }
  return sheets;
}
