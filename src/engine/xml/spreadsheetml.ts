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

/**
 * Each style's number format (Style ss:ID, then its NumberFormat ss:Format), by style id. One pass
 * over the tags, each read only up to the next `<` or `>`: a crafted file of unclosed tags costs
 * one scan, not one per tag.
 */
function numberFormats(xml: string): Map<string, string> {
  const formats = new Map<string, string>();
  const tagRe = /<(?:ss:)?(Style|NumberFormat)\b([^<>]*)>/g;
  let style: string | undefined;
  for (let tag = tagRe.exec(xml); tag !== null; tag = tagRe.exec(xml)) {
    if (tag[1] === "Style") {
      style = attr(tag[2] ?? "", "ID");
      continue;
    }
    const code = attr(tag[2] ?? "", "Format");
    if (style !== undefined && code !== undefined) formats.set(style, NAMED_FORMATS[code.toLowerCase()] ?? decodeEntities(code));
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
  return new SheetReader(numberFormats(xml), limits).read(xml);
}

/**
 * One pass over the workbook's Worksheet, Row, Cell and Data tags, in order, each tag read only up
 * to the next `<` or `>`: a crafted file of unclosed tags (200 KB of `<Row>`) costs one scan, where
 * matching each element to its closing tag rescanned the rest of the file for every one.
 */
class SheetReader {
  private readonly sheets: SheetTable[] = [];
  private sheet: SheetTable | null = null;
  private row: string[] | null = null;
  private cell: { attrs: string; text: string; data?: { type: string | undefined; from: number } } | null = null;
  private totalRows = 0;
  private totalCells = 0;

  constructor(
    private readonly formats: Map<string, string>,
    private readonly limits: SpreadsheetMlLimits,
  ) {}

  read(xml: string): SheetTable[] {
    const tagRe = /<(\/?)(?:ss:)?(Worksheet|Row|Cell|Data)\b([^<>]*?)(\/?)>/g;
    for (let tag = tagRe.exec(xml); tag !== null; tag = tagRe.exec(xml)) {
      const [, close, name, attrs = "", empty] = tag;
      if (close) this.end(name!, xml, tag.index);
      else {
        this.start(name!, attrs, tagRe.lastIndex);
        if (empty) this.end(name!, xml, tagRe.lastIndex);
      }
    }
    if (this.sheets.length === 0) throw unsupportedFormat("The XML file has no worksheets");
    return this.sheets;
  }

  private start(name: string, attrs: string, after: number): void {
    if (name === "Worksheet") {
      this.sheet = { name: decodeEntities(attr(attrs, "Name") ?? `Sheet${this.sheets.length + 1}`), rows: [] };
    } else if (name === "Row" && this.sheet) {
      if (this.row) this.endRow();
      const index = intAttr(attrs, "Index", MAX_ROW_INDEX);
      while (index !== undefined && this.sheet.rows.length < index - 1) this.sheet.rows.push([]);
      this.row = [];
    } else if (name === "Cell" && this.row) {
      if (this.cell) this.endCell();
      const col = intAttr(attrs, "Index", MAX_COLUMN_INDEX);
      while (col !== undefined && this.row.length < col - 1) this.row.push("");
      this.cell = { attrs, text: "" };
    } else if (name === "Data" && this.cell && !this.cell.data) {
      this.cell.data = { type: attr(attrs, "Type"), from: after };
    }
  }

  private end(name: string, xml: string, at: number): void {
    if (name === "Worksheet" && this.sheet) {
      if (this.row) this.endRow();
      this.sheets.push(this.sheet);
      this.sheet = null;
    } else if (name === "Row" && this.row) this.endRow();
    else if (name === "Cell" && this.cell) this.endCell();
    else if (name === "Data" && this.cell?.data && this.cell.text === "" && at >= this.cell.data.from) {
      const style = attr(this.cell.attrs, "StyleID");
      this.cell.text = dataText(this.cell.data.type, xml.slice(this.cell.data.from, at), style === undefined ? undefined : this.formats.get(style));
    }
  }

  private endCell(): void {
    const { attrs, text } = this.cell!;
    this.cell = null;
    this.row!.push(text);
    const merge = intAttr(attrs, "MergeAcross", MAX_COLUMN_INDEX) ?? 0;
    for (let i = 0; i < merge; i++) this.row!.push("");
  }

  private endRow(): void {
    if (this.cell) this.endCell();
    const cells = this.row!;
    this.row = null;
    while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
    this.sheet!.rows.push(cells);
    this.totalRows++;
    this.totalCells += cells.length;
    if (this.totalRows > this.limits.maxRows) throw payloadTooLarge(`The spreadsheet has more than ${this.limits.maxRows} rows`);
    if (this.totalCells > MAX_CELLS) throw payloadTooLarge(`The spreadsheet has more than ${MAX_CELLS} cells`);
  }
}
