/**
 * The parsing engine's public surface. Everything here is pure TypeScript over bytes in memory:
 * no HTTP, no database, no disk. Extraction (PDFium or pdf.js, exceljs) is the only I/O-like stage; layout,
 * rows, metadata and reconciliation are pure functions of the extracted document.
 */
import { unsupportedFormat } from "../errors.ts";
import { assembleStatement } from "./assemble.ts";
import { BANK_PROFILES } from "./banks/profiles.ts";
import { guardPdf, type InflatedStreams } from "./guards/index.ts";
import { byteFacts, type InfoFacts, integrityOf, pageFacts, sheetIntegrity } from "./integrity/index.ts";
import { extractHtmlTables } from "./html/extract.ts";
import { assembleOrScan } from "./ocr/decide.ts";
import { assertHasText, checkPageCount } from "./pdf/extract.ts";
import { DEFAULT_PDF_EXTRACTOR, openDocument, type PdfExtractorName, readPages } from "./pdf/extractor.ts";
import { pageTreeUpdate } from "./pdf/page-tree.ts";
import { sniff } from "./sniff.ts";
import type { ExtractedDocument, PageText, ParseOptions, ParseResponse } from "./types.ts";
import { readXlsx } from "./xlsx/extract.ts";
import { extractSpreadsheetMl } from "./xml/spreadsheetml.ts";

export { assembleStatement } from "./assemble.ts";
export { toCsv } from "./csv.ts";
export { findStatementPii, type StatementPii } from "./pii.ts";
export type { ExtractedDocument, PageText, ParseOptions, ParseResponse, Progress, SheetTable, Transaction } from "./types.ts";

export interface DocumentInfo {
  kind: "pdf" | "sheet";
  pageCount: number;
  producer: string;
}

/** Rows read from all sheets when the caller sets no limit (as MAX_XLSX_ROWS in src/config.ts). */
const DEFAULT_MAX_XLSX_ROWS = 200_000;
/** Bytes an XLSX may inflate to when the caller sets no limit (as MAX_XLSX_INFLATED_BYTES). */
const DEFAULT_MAX_XLSX_INFLATED_BYTES = 200 * 1024 * 1024;

/** Sniffs the bytes (not a file name), opens the document, throws AppError (unsupported_format, encrypted_source, too_many_pages...). */
export async function inspectDocument(bytes: Uint8Array, opts: { password?: string; maxPages?: number; extractor?: PdfExtractorName }): Promise<DocumentInfo> {
  const kind = sniff(bytes);
  if (kind === "pdf") {
    await guardPdf(bytes, { maxPages: opts.maxPages }, { password: opts.password });
    const doc = await openDocument(opts.extractor ?? DEFAULT_PDF_EXTRACTOR, bytes, { password: opts.password });
    try {
      checkPageCount(doc.pageCount, opts.maxPages);
      return { kind: "pdf", pageCount: doc.pageCount, producer: await doc.producer() };
    } finally {
      await doc.close();
    }
  }
  // Sheets are counted as one "page" each for progress; their size limits apply at extraction.
  return { kind: "sheet", pageCount: 1, producer: kind };
}

/** PDF only: text items of pages first..last (1-based, inclusive), calling onPage(n) after each page. */
export async function extractPdfPages(
  bytes: Uint8Array,
  opts: { password?: string; first: number; last: number; onPage?: (page: number) => void; signal?: AbortSignal; extractor?: PdfExtractorName },
): Promise<PageText[]> {
  if (sniff(bytes) !== "pdf") throw unsupportedFormat("Not a PDF");
  // The page claim was checked by inspectDocument before the document was split into ranges.
  await guardPdf(bytes, { maxPages: Number.MAX_SAFE_INTEGER }, { password: opts.password });
  return (await readPages(opts.extractor ?? DEFAULT_PDF_EXTRACTOR, bytes, opts)).pages;
}

/** Whole document to the extracted form (PDF pages or sheet tables). */
export async function extractDocument(bytes: Uint8Array, opts: ParseOptions): Promise<ExtractedDocument> {
  return (await extractWithInfo(bytes, opts)).doc;
}

/** extractDocument, plus a PDF's information dictionary (for the integrity report). */
async function extractWithInfo(bytes: Uint8Array, opts: ParseOptions): Promise<{ doc: ExtractedDocument; info?: InfoFacts; objectStreams?: InflatedStreams }> {
  const kind = sniff(bytes);
  if (kind === "pdf") {
    const { pages, pageCount, producer, info, objectStreams } = await extractPagesChecked(bytes, opts);
    return { doc: { kind: "pdf", pageCount, producer, pages }, info, objectStreams };
  }
  opts.onProgress?.({ stage: "extract", current: 0, total: 1 });
  const maxRows = opts.limits?.maxXlsxRows ?? DEFAULT_MAX_XLSX_ROWS;
  const { sheets, properties } =
    kind === "html"
      ? { sheets: extractHtmlTables(bytes), properties: [] }
      : kind === "spreadsheetml"
        ? { sheets: extractSpreadsheetMl(bytes, { maxRows }), properties: [] }
        : await readXlsx(bytes, { maxRows, maxInflatedBytes: opts.limits?.maxXlsxInflatedBytes ?? DEFAULT_MAX_XLSX_INFLATED_BYTES });
  opts.onProgress?.({ stage: "extract", current: 1, total: 1 });
  // Bank detection reads the producer: a sheet's document properties and sheet names name its maker
  // where the cells do not ("GTBank Statement" as a sheet name, a bank as the docProps company).
  return { doc: { kind: "sheet", producer: [kind, ...properties, ...sheets.map((s) => s.name)].join(" / "), sheets } };
}

async function extractPagesChecked(bytes: Uint8Array, opts: ParseOptions) {
  let total = 0;
  const report = await guardPdf(bytes, { maxPages: opts.limits?.maxPages }, { password: opts.password });
  const extractor = opts.extractor ?? DEFAULT_PDF_EXTRACTOR;
  const result = await readPages(extractor, bytes, {
    // Only pdf.js needs a flat page tree balanced; PDFium reads any tree as it is.
    update: extractor === "pdfjs" ? pageTreeUpdate(bytes, report.pageTree) : undefined,
    password: opts.password,
    maxPages: opts.limits?.maxPages,
    first: 1,
    last: Number.MAX_SAFE_INTEGER,
    signal: opts.signal,
    onTotal: (n) => (total = n),
    onPage: (n) => opts.onProgress?.({ stage: "extract", current: n, total }),
  });
  assertHasText(result.pages);
  return { ...result, objectStreams: report.objectStreams };
}

/** Convenience: inspect + extract + assemble in this thread, with progress (stage, current, total). */
export async function parseStatement(bytes: Uint8Array, opts: ParseOptions = {}): Promise<ParseResponse> {
  const { doc, info, objectStreams } = await extractWithInfo(bytes, opts);
  opts.signal?.throwIfAborted();
  opts.onProgress?.({ stage: "assemble", current: 0, total: 1 });
  // A PDF whose only text is a bad OCR pass's invisible layer is refused as a scan (src/engine/ocr/decide.ts).
  const result = await assembleOrScan(doc, bytes, { bank: opts.bank, password: opts.password });
  result.integrity =
    doc.kind === "pdf" && info
      ? integrityOf(result, {
          info,
          // The guard already refused a document with more pages than allowed.
          bytes: byteFacts(bytes, { password: opts.password, maxPages: doc.pageCount, objectStreams }),
          pages: doc.pages.map(pageFacts),
        })
      : sheetIntegrity();
  opts.onProgress?.({ stage: "assemble", current: 1, total: 1 });
  return result;
}

/** Supported banks for GET /v1/banks: id, display name, formats ("pdf","xlsx"). */
export function listBanks(): { id: string; name: string; formats: string[] }[] {
  return BANK_PROFILES.map((p) => ({ id: p.id, name: p.name, formats: [...p.formats] }));
}
