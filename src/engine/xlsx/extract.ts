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
import { squeezeSpaces } from "../whitespace.ts";

export interface XlsxLimits {
  maxRows: number;
  maxInflatedBytes: number;
}

/** Most cell positions (up to each row's last value) in one workbook: exceljs holds ~1 KB per cell, so ~1.2 GB in one worker. */
export const MAX_CELLS = 1_000_000;

/** Excel's limit on the characters in one cell (Excel specifications and limits). */
export const EXCEL_MAX_CELL_CHARS = 32_767;

function isMergedSlave(cell: ExcelJS.Cell): boolean {
  return cell.isMerged && cell.master !== cell;
}

/** A workbook's sheets, and what its document properties say of who made it (for bank detection). */
export interface XlsxContents {
  sheets: SheetTable[];
  /** Non-empty docProps values: creator, company, title, subject, ... (an export names its app or bank there). */
  properties: string[];
}

/** docProps fields that name a maker or a document; dates and revision numbers tell nothing. */
function documentProperties(workbook: ExcelJS.Workbook): string[] {
  const w = workbook as ExcelJS.Workbook & Partial<Record<"title" | "subject" | "keywords" | "category" | "description", string>>;
  return [w.creator, w.lastModifiedBy, w.company, w.manager, w.title, w.subject, w.keywords, w.category, w.description].filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => squeezeSpaces(v).slice(0, 200));
}

/** The sheets alone. */
export async function extractXlsx(bytes: Uint8Array, limits: XlsxLimits): Promise<SheetTable[]> {
  return (await readXlsx(bytes, limits)).sheets;
}

export async function readXlsx(bytes: Uint8Array, limits: XlsxLimits): Promise<XlsxContents> {
  guardXlsxZip(bytes, { ...limits, maxCells: MAX_CELLS });
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's typings predate Buffer's generic parameter; the value is a plain Node Buffer.
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ExcelJS.Buffer);
  } catch (e) {
    throw unsupportedFormat(`The spreadsheet could not be read as XLSX (${e instanceof Error ? e.message : "unknown error"})`);
  }
  const sheets: SheetTable[] = [];
  let rowCount = 0;
  let cellCount = 0;
  for (const ws of workbook.worksheets) {
    // A hidden sheet (lookup tables, a tool's scratch data) is not part of the statement anyone sees.
    if (ws.state === "hidden" || ws.state === "veryHidden") continue;
    const rows: string[][] = [];
    for (let r = 1; r <= ws.rowCount; r++) {
      rowCount++;
      if (rowCount > limits.maxRows) throw payloadTooLarge(`The spreadsheet has more than ${limits.maxRows} rows`);
      const cells: string[] = [];
      // Only cells that exist are visited; a lone cell far to the right must not make us walk the gap twice.
      ws.getRow(r).eachCell((cell, c) => {
        // Line breaks inside a cell (Alt+Enter) and runs of spaces read as one space, as they display.
        // A number (or a formula's number) shows the decimals its format fixes: 25000 under
        // `#,##0.00` is the figure 25000.00.
        const text = isMergedSlave(cell) ? "" : squeezeSpaces(cellText(cell.value, undefined, cell.numFmt));
        if (text === "") return;
        // Excel itself cannot hold more in a cell; a longer one is crafted, and costs the PII finder dearly.
        if (text.length > EXCEL_MAX_CELL_CHARS) throw unsupportedFormat(`A cell holds more than ${EXCEL_MAX_CELL_CHARS} characters, which Excel does not allow`);
        cellCount += c - cells.length;
        if (cellCount > MAX_CELLS) throw payloadTooLarge(`The spreadsheet has more than ${MAX_CELLS} cells`);
        while (cells.length < c - 1) cells.push("");
        cells.push(text);
      });
      rows.push(cells);
    }
    sheets.push({ name: ws.name, rows });
  }
  return { sheets, properties: documentProperties(workbook) };
}
