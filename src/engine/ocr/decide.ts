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
/** More candidate pages are not inspected one by one (a scan that long is refused by OCR_MAX_PAGES anyway). */
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

/** Digits of a figure, the key by which a row's balance is found among a page's text. */
const digitsOf = (s: string) => s.replace(/\D/g, "");
/** Shorter digit runs (a page number, a day) say nothing about whether a page holds rows. */
const MIN_FIGURE_DIGITS = 3;

/** What the decision needs of a document's text, page by page (1-based). */
export interface PageTexts {
  hasText(page: number): boolean;
  /**
   * Some figure (the digits of a whitespace-separated word) among the page's first texts that carry
   * figures is in `digits`. A page with rows shows a row's balance within its first few such texts;
   * a sample that misses them only makes the page a candidate to inspect, never a scan: its text
   * is visible.
   */
  carriesAny(page: number, digits: ReadonlySet<string>): boolean;
}

/** The figures of a text, each word's digits when it has enough of them. */
function figuresIn(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/)) {
    const d = digitsOf(word);
    if (d.length >= MIN_FIGURE_DIGITS) out.push(d);
  }
  return out;
}

/** Texts with figures read per page: text items are cells (about five a row), layout lines are rows. */
const ITEMS_PER_PAGE = 60;
export const LINES_PER_PAGE = 12;

/** PageTexts over extracted pages, read lazily (a page stops at its first figure that is a balance). */
function itemTexts(pages: readonly PageText[]): PageTexts {
  const byNumber = new Map(pages.map((p) => [p.number, p]));
  return {
    hasText: (n) => (byNumber.get(n)?.items.length ?? 0) > 0,
    carriesAny: (n, digits) => {
      let read = 0;
      for (const item of byNumber.get(n)?.items ?? []) {
        const figures = figuresIn(item.str);
        if (figures.length === 0) continue;
        if (figures.some((d) => digits.has(d))) return true;
        if (++read >= ITEMS_PER_PAGE) return false;
      }
      return false;
    },
  };
}

/**
 * PageTexts of layout lines tagged with their page, taken before they are let go (the split path
 * assembles and then drops its lines): each page's figures of its first `perPage` lines with any.
 */
export function lineTexts(lines: Iterable<{ page: number; text: string }>, perPage = LINES_PER_PAGE): PageTexts {
  const figures = new Map<number, Set<string>>();
  const read = new Map<number, number>();
  for (const { page, text } of lines) {
    let set = figures.get(page);
    if (!set) figures.set(page, (set = new Set()));
    const n = read.get(page) ?? 0;
    if (n >= perPage) continue;
    const found = figuresIn(text);
    if (found.length === 0) continue;
    for (const d of found) set.add(d);
    read.set(page, n + 1);
  }
  return {
    hasText: (n) => figures.has(n),
    carriesAny: (n, digits) => {
      for (const d of figures.get(n) ?? []) if (digits.has(d)) return true;
      return false;
    },
  };
}

/** Pages none of whose text carries a balance of the reading's rows (every page when the text does not read as a statement). */
function pagesWithoutRows(texts: PageTexts, pageCount: number, reading: ParseResponse | null): number[] {
  const all = Array.from({ length: pageCount }, (_, i) => i + 1);
  if (reading === null || !readsAsStatement(reading)) return all;
  const balances = new Set<string>();
  for (const s of reading.accounts) for (const t of s.transactions) balances.add(digitsOf(t.balance));
  return all.filter((n) => !texts.carriesAny(n, balances));
}

/** The 1-based pages to read by OCR, in order: of the candidate pages (pagesWithoutRows), those isScannedPage picks. */
export async function scannedPagesOf(texts: PageTexts, pageCount: number, bytes: Uint8Array, password: string | undefined, reading: ParseResponse | null): Promise<number[]> {
  const candidates = pagesWithoutRows(texts, pageCount, reading);
  if (candidates.length === 0 || candidates.length > MAX_PAGES_INSPECTED) return [];
  const pdf = await openPdfium(bytes, password);
  try {
    // A page with any text counts as text items for the rule (their number does not matter to it).
    return candidates.filter((n) => isScannedPage(pageObjects(pdf, n), texts.hasText(n) ? 1 : 0));
  } finally {
    pdf.close();
  }
}

/** scannedPagesOf for an extracted document; one with no text at all has every page read. */
export async function scannedPages(doc: PdfDoc, bytes: Uint8Array, password: string | undefined, reading: ParseResponse | null): Promise<number[]> {
  if (doc.pages.every((p) => p.items.length === 0)) return doc.pages.map((p) => p.number);
  return scannedPagesOf(itemTexts(doc.pages), doc.pageCount, bytes, password, reading);
}

/**
 * assembleOrScan for a document whose pages were read on several parse workers (only their layout
 * lines are left, as `texts`: lineTexts): `assemble` is its assembly, refused as a scan when the document
 * has scanned pages.
 */
export async function assembleOrScanPages(assemble: () => ParseResponse, texts: PageTexts, pageCount: number, bytes: Uint8Array, password: string | undefined): Promise<ParseResponse> {
  let reading: ParseResponse | null = null;
  let refusal: unknown;
  try {
    reading = assemble();
  } catch (e) {
    if (!(e instanceof AppError && (e.errorClass === "layout_unrecognized" || e.errorClass === "empty_statement"))) throw e;
    refusal = e;
  }
  const scans = await scannedPagesOf(texts, pageCount, bytes, password, reading);
  if (scans.length > 0) throw scannedPagesFound(scans, pageCount);
  if (reading === null) throw refusal;
  return reading;
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
