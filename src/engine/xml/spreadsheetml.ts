/**
 * Excel 2003 XML Spreadsheet ("SpreadsheetML", `urn:schemas-microsoft-com:office:spreadsheet`),
 * which core-banking systems export with an .xls name just as others export HTML tables. A tolerant
 * scanner over Worksheet / Row / Cell / Data that honours ss:Index (skipped rows and cells) and
 * ss:MergeAcross, gives numbers (with the decimals their style's number format fixes) and dates in
 * the same canonical text as the XLSX reader, and refuses DTDs before reading anything.
 */
import { payloadTooLarge, unsupportedFormat } from "../../errors.ts";
import { decodeEntities } from "../html/entities.ts";
import type { SheetTable } from "../types.ts";
import { formattedNumberText } from "../xlsx/cell-text.ts";
import { squeezeSpaces } from "../whitespace.ts";

export interface SpreadsheetMlLimits {
  maxRows: number;
}

/** Most cells (after ss:Index gaps and merges) in one document, as for XLSX. */
const MAX_CELLS = 1_000_000;
/** Largest ss:Index / ss:MergeAcross step accepted: Excel 2003 had 256 columns and 65,536 rows. */
const MAX_COLUMN_INDEX = 256;
const MAX_ROW_INDEX = 65_536;

const NAMESPACE = "urn:schemas-microsoft-com:office:spreadsheet";

/** True when the bytes look like an Excel 2003 XML workbook (for the sniffer). */
export function isSpreadsheetMl(bytes: Uint8Array): boolean {
  const head = new TextDecoder("utf-8").decode(bytes.subarray(0, 4096));
  return /^\uFEFF?\s*<\?xml/.test(head) && head.includes(NAMESPACE);
}

function attr(attrs: string, name: string): string | undefined {
  // Attributes may carry the ss: prefix or none; values in single or double quotes.
  const m = new RegExp(`(?:^|\\s)(?:ss:)?${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, "i").exec(attrs);
  return m ? (m[2] ?? m[3]) : undefined;
}

function intAttr(attrs: string, name: string, max: number): number | undefined {
  const v = attr(attrs, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > max) throw unsupportedFormat(`The spreadsheet has an invalid ss:${name} (${v})`);
  return n;
}

/** SpreadsheetML's named number formats, as the format codes they stand for. */
const NAMED_FORMATS: Record<string, string> = { standard: "#,##0.00", fixed: "0.00", currency: "#,##0.00", "euro currency": "#,##0.00", percent: "0.00%", scientific: "0.00E+00", "general number": "General" };

/** Each style's number format (ss:Styles / Style ss:ID / NumberFormat ss:Format), by style id. */
function numberFormats(xml: string): Map<string, string> {
  const formats = new Map<string, string>();
  const styleRe = /<(?:ss:)?Style\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:ss:)?Style>)/g;
  for (let st = styleRe.exec(xml); st !== null; st = styleRe.exec(xml)) {
    const id = attr(st[1] ?? "", "ID");
    const format = /<(?:ss:)?NumberFormat\b([^>]*)\/?>/.exec(st[2] ?? "");
    const code = format ? attr(format[1] ?? "", "Format") : undefined;
    if (id !== undefined && code !== undefined) formats.set(id, NAMED_FORMATS[code.toLowerCase()] ?? decodeEntities(code));
  }
  return formats;
}

/**
 * Data text by its declared type, in the canonical forms of the XLSX reader: a number with the
 * decimals its style's format fixes (25000 under `Standard` is 25000.00), as the XLSX reader reads it.
 */
function dataText(type: string | undefined, raw: string, numFmt: string | undefined): string {
  const text = squeezeSpaces(decodeEntities(raw.replace(/<[^>]*>/g, "")));
  if (type === "Number") {
    const n = Number(text);
    return Number.isFinite(n) && text !== "" ? formattedNumberText(n, numFmt) : text;
  }
  if (type === "DateTime") {
    const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(text);
    return m ? `${m[1]}T${m[2]}` : text;
  }
  if (type === "Boolean") return text === "1" ? "TRUE" : text === "0" ? "FALSE" : text;
  if (type === "Error") return "";
  return text;
}

export function extractSpreadsheetMl(bytes: Uint8Array, limits: SpreadsheetMlLimits): SheetTable[] {
  const xml = new TextDecoder("utf-8").decode(bytes);
  if (/<!(DOCTYPE|ENTITY)/i.test(xml)) throw unsupportedFormat("The spreadsheet declares a DOCTYPE or ENTITY, which is refused");
  const formats = numberFormats(/<(?:ss:)?Styles\b[\s\S]*?<\/(?:ss:)?Styles>/.exec(xml)?.[0] ?? "");
  const sheets: SheetTable[] = [];
  let totalRows = 0;
  let totalCells = 0;
  const worksheetRe = /<(?:ss:)?Worksheet\b([^>]*)>([\s\S]*?)<\/(?:ss:)?Worksheet>/g;
  for (let ws = worksheetRe.exec(xml); ws !== null; ws = worksheetRe.exec(xml)) {
    const name = decodeEntities(attr(ws[1] ?? "", "Name") ?? `Sheet${sheets.length + 1}`);
    const rows: string[][] = [];
    const rowRe = /<(?:ss:)?Row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:ss:)?Row>)/g;
    const body = ws[2] ?? "";
    for (let row = rowRe.exec(body); row !== null; row = rowRe.exec(body)) {
      const index = intAttr(row[1] ?? "", "Index", MAX_ROW_INDEX);
      while (index !== undefined && rows.length < index - 1) rows.push([]);
      const cells: string[] = [];
      const cellRe = /<(?:ss:)?Cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:ss:)?Cell>)/g;
      const inner = row[2] ?? "";
      for (let cell = cellRe.exec(inner); cell !== null; cell = cellRe.exec(inner)) {
        const attrs = cell[1] ?? "";
        const col = intAttr(attrs, "Index", MAX_COLUMN_INDEX);
        while (col !== undefined && cells.length < col - 1) cells.push("");
        const data = /<(?:ss:)?Data\b([^>]*)>([\s\S]*?)<\/(?:ss:)?Data>/.exec(cell[2] ?? "");
        const style = attr(attrs, "StyleID");
        cells.push(data ? dataText(attr(data[1] ?? "", "Type"), data[2] ?? "", style === undefined ? undefined : formats.get(style)) : "");
        const merge = intAttr(attrs, "MergeAcross", MAX_COLUMN_INDEX) ?? 0;
        for (let i = 0; i < merge; i++) cells.push("");
      }
      while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
      rows.push(cells);
      totalRows = totalRows + 1;
      totalCells += cells.length;
      if (totalRows > limits.maxRows) throw payloadTooLarge(`The spreadsheet has more than ${limits.maxRows} rows`);
      if (totalCells > MAX_CELLS) throw payloadTooLarge(`The spreadsheet has more than ${MAX_CELLS} cells`);
    }
    sheets.push({ name, rows });
  }
  if (sheets.length === 0) throw unsupportedFormat("The XML file has no worksheets");
  return sheets;
}
