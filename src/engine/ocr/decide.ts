/**
 * When a PDF's text cannot be trusted and its pages go to OCR instead (issue 24 class 7, issue 25).
 * A page with no text, or only vector outlines, already has no text items (assertHasText). A bad OCR
 * tool's pass leaves invisible text (render mode 3) over a full-page image; when that layer does not
 * read as a statement, the document is treated as a scan; so is one whose text pages do not read as
 * a statement and that has pages that are images only. A layer that reads as a statement (rows
 * that chain and nothing printed against them) keeps the text path: it is faster and exact.
 */
import { AppError, scannedDocument } from "../../errors.ts";
import { assembleStatement } from "../assemble.ts";
import { openPdfium } from "../pdf/pdfium/document.ts";
import type { ExtractedDocument, ParseResponse } from "../types.ts";
import { pageObjects } from "./pdfium-render.ts";

/** An image covering this share of the page is the page itself (a scan), not a logo. */
const FULL_PAGE_COVER = 0.8;
/** Documents with more pages are not inspected (a scan that long is refused by OCR_MAX_PAGES anyway). */
const MAX_PAGES_INSPECTED = 100;

/**
 * Some page is a scan: an image covering the page with no text over it, or only invisible text (a
 * page of a statement whose other pages carry text, a cover letter in front of scanned pages).
 * Pages whose text is visible are read as text either way.
 */
export async function hasScannedPage(bytes: Uint8Array, password?: string): Promise<boolean> {
  const doc = await openPdfium(bytes, password);
  try {
    if (doc.pageCount > MAX_PAGES_INSPECTED) return false;
    for (let n = 1; n <= doc.pageCount; n++) {
      const o = pageObjects(doc, n);
      if (o.largestImageCover >= FULL_PAGE_COVER && o.invisibleTextObjects === o.textObjects) return true;
    }
    return false;
  } finally {
    doc.close();
  }
}

/** At least two rows that chain, with nothing printed that contradicts them. */
export function readsAsStatement(r: ParseResponse): boolean {
  return r.transactions.length >= 2 && r.checks.row_chain && r.checks.verdict !== "unverified";
}

export const garbageTextLayer = () =>
  scannedDocument("The PDF's text does not read as a statement and it has scanned pages (page images with no text over them, or only an invisible layer from a scan's OCR pass); it must be read as a scan");

/**
 * assembleStatement, except that a PDF whose text does not read as a statement (or reads as no table
 * at all) and that has scanned pages is refused as a scan (scanned_document), for OCR to read all of
 * its pages. The pages are inspected only then, so a statement that reads costs nothing more.
 */
export async function assembleOrScan(doc: ExtractedDocument, bytes: Uint8Array, opts: { bank?: string; password?: string }): Promise<ParseResponse> {
  if (doc.kind !== "pdf") return assembleStatement(doc, { bank: opts.bank });
  let result: ParseResponse;
  try {
    result = assembleStatement(doc, { bank: opts.bank });
  } catch (e) {
    const noTable = e instanceof AppError && (e.errorClass === "layout_unrecognized" || e.errorClass === "empty_statement");
    if (noTable && (await hasScannedPage(bytes, opts.password))) throw garbageTextLayer();
    throw e;
  }
  if (!readsAsStatement(result) && (await hasScannedPage(bytes, opts.password))) throw garbageTextLayer();
  return result;
}
