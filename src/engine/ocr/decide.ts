/**
 * Which pages of a PDF are read by OCR (issue 24 class 7, issue 25), decided page by page: a page
 * that draws no visible text (a scan, text turned into vector outlines, or a scan under a bad OCR
 * pass's invisible layer) goes to OCR; a page with visible text keeps the text path. The scanned
 * pages are then read by OCR and merged, in page order, with the text pages into one layout flow
 * (src/engine/ocr/read.ts), so the balance chain runs across the join.
 *
 * Inspecting a page (its objects through PDFium) costs about as much as reading its text, so
 * ordinary text statements are not inspected at all: only pages with no text items, and pages none
 * of whose figures became a row. When the text does not read as a statement, every page is
 * inspected: an invisible layer that does read as one (a good OCR tool's) keeps the text path.
 */
import { AppError, scannedDocument } from "../../errors.ts";
import { assembleStatement } from "../assemble.ts";
import { openPdfium } from "../pdf/pdfium/document.ts";
import type { ExtractedDocument, PageText, ParseResponse } from "../types.ts";
import { type PageObjects, pageObjects } from "./pdfium-render.ts";

/** An image covering this share of the page is the page itself (a scan), not a logo. */
const FULL_PAGE_COVER = 0.8;
/**
 * A page with no text items at all is read by OCR when it draws something that could be text: an
 * image covering this share of it, or this many vector paths (outlined glyphs; a blank page or one
 * with a few rules has fewer), or text objects whose glyphs gave no characters.
 */
const TEXTLESS_IMAGE_COVER = 0.2;
const OUTLINE_PATHS = 20;
/** Documents with more pages are not inspected page by page (a scan that long is refused by OCR_MAX_PAGES anyway). */
const MAX_PAGES_INSPECTED = 100;

type PdfDoc = Extract<ExtractedDocument, { kind: "pdf" }>;

/** Page facts to the decision: this page must be read by OCR. */
export function isScannedPage(o: PageObjects, textItems: number): boolean {
  const visibleText = o.textObjects - o.invisibleTextObjects;
  if (textItems === 0) return o.largestImageCover >= TEXTLESS_IMAGE_COVER || o.pathObjects >= OUTLINE_PATHS || visibleText > 0;
  // Text items, none of them visible, over an image that is the page: a scan under an OCR layer.
  return visibleText === 0 && o.largestImageCover >= FULL_PAGE_COVER;
}

/** At least two rows that chain, with nothing printed that contradicts them. */
export function readsAsStatement(r: ParseResponse): boolean {
  return r.transactions.length >= 2 && r.checks.row_chain && r.checks.verdict !== "unverified";
}

/** Digits of a figure, the key by which a row's balance is found among a page's text items. */
const digitsOf = (s: string) => s.replace(/\D/g, "");
/** Shorter digit runs (a page number, a day) say nothing about whether a page holds rows. */
const MIN_FIGURE_DIGITS = 3;

/** Pages none of whose text items carries a balance of the reading's rows (all pages when there is no reading). */
function pagesWithoutRows(pages: readonly PageText[], reading: ParseResponse | null): PageText[] {
  if (reading === null || !readsAsStatement(reading)) return [...pages];
  const balances = new Set<string>();
  for (const s of reading.accounts) for (const t of s.transactions) balances.add(digitsOf(t.balance));
  return pages.filter((p) => {
    for (const item of p.items) {
      const d = digitsOf(item.str);
      if (d.length >= MIN_FIGURE_DIGITS && balances.has(d)) return false;
    }
    return true;
  });
}

/**
 * The 1-based pages to read by OCR, in order: of the candidate pages (see pagesWithoutRows), those
 * isScannedPage picks. A document with no text at all has every page read.
 */
export async function scannedPages(doc: PdfDoc, bytes: Uint8Array, password: string | undefined, reading: ParseResponse | null): Promise<number[]> {
  if (doc.pages.every((p) => p.items.length === 0)) return doc.pages.map((p) => p.number);
  const candidates = pagesWithoutRows(doc.pages, reading);
  if (candidates.length === 0 || doc.pageCount > MAX_PAGES_INSPECTED) return [];
  const pdf = await openPdfium(bytes, password);
  try {
    return candidates.filter((p) => isScannedPage(pageObjects(pdf, p.number), p.items.length)).map((p) => p.number);
  } finally {
    pdf.close();
  }
}

/** The text path's reading, or null when it found no statement table. */
export function textReading(doc: ExtractedDocument, bank: string | undefined): ParseResponse | null {
  try {
    return assembleStatement(doc, { bank });
  } catch (e) {
    if (e instanceof AppError && (e.errorClass === "layout_unrecognized" || e.errorClass === "empty_statement")) return null;
    throw e;
  }
}

const listPages = (pages: readonly number[]) => (pages.length === 1 ? `page ${pages[0]}` : `pages ${pages.join(", ")}`);

export const scannedPagesFound = (pages: readonly number[], pageCount: number) =>
  scannedDocument(
    `The PDF's ${listPages(pages)} (of ${pageCount}) ${pages.length === 1 ? "draws" : "draw"} no visible text (a page image with no text over it or only an invisible layer from a scan's OCR pass, or text turned into outlines) and must be read by OCR`,
  );

/**
 * assembleStatement, except that a PDF with scanned pages (scannedPages) is refused as a scan
 * (scanned_document), for the OCR pool to read those pages and merge them with its text pages.
 */
export async function assembleOrScan(doc: ExtractedDocument, bytes: Uint8Array, opts: { bank?: string; password?: string }): Promise<ParseResponse> {
  if (doc.kind !== "pdf") return assembleStatement(doc, { bank: opts.bank });
  const reading = textReading(doc, opts.bank);
  const scans = await scannedPages(doc, bytes, opts.password, reading);
  if (scans.length > 0) throw scannedPagesFound(scans, doc.pageCount);
  // No scanned page: the text path's own answer, its refusal included.
  return reading ?? assembleStatement(doc, { bank: opts.bank });
}
