import type { PdfExtractorName } from "../engine/pdf/extractor-name.ts";

/** PDFs with more pages than this are split across workers; smaller ones cost more to split than to parse. */
export const SPLIT_ABOVE_PAGES = 8;
/** Fewest pages worth a task of their own (each task opens the document again). */
export const MIN_PAGES_PER_RANGE = 4;

export interface PageRange {
  first: number;
  last: number;
}

/**
 * What a split parse's tasks spend besides what they share (reading pages), in milliseconds:
 * measured on the 2,000-page statement of `npm run bench` with pdf.js on one thread
 * (`bun bench/split-costs.ts`, best of several runs on a busy 2-core machine). Another extractor
 * changes `readPerPage` and `open` (measure them with the same script).
 */
export interface SplitCosts {
  /** Reading one page: its text, its layout lines and its integrity facts (pdf.js: 2.7-3.1 ms). */
  readPerPage: number;
  /** A range task opening the document again; the planning task has it open already (pdf.js: 30-35 ms on 2,000 pages, under 10 on small files). */
  open: number;
  /** A range task encoding a page's lines for the hop to the assembling task (src/jobs/lines-wire.ts), copying included. */
  encodePerPage: number;
  /** The planning task's byte-level integrity facts (integrity/facts.ts), per page of the whole document. */
  byteFactsPerPage: number;
}

export const PDFJS_SPLIT_COSTS: SplitCosts = { readPerPage: 3.0, open: 30, encodePerPage: 0.05, byteFactsPerPage: 0.057 };
/** PDFium opens in a few milliseconds and reads a page (lines and facts included) in ~2.4 ms. */
export const PDFIUM_SPLIT_COSTS: SplitCosts = { readPerPage: 2.4, open: 4, encodePerPage: 0.08, byteFactsPerPage: 0.065 };
export const splitCosts = (extractor: PdfExtractorName): SplitCosts => (extractor === "pdfjs" ? PDFJS_SPLIT_COSTS : PDFIUM_SPLIT_COSTS);

/**
 * Pages the first range gets on top of an equal share (negative: fewer), so that the planning
 * task ends its range when the others end theirs: besides reading, it computes the document's byte
 * facts, while each other task opens the document again and encodes its lines. With F pages for
 * the first range and O for each of the other parts-1, F = O + b, and
 *   F·read + N·byteFacts = open + O·(read + encode)  =>  b = (open + N·(encode/parts - byteFacts)) / (read + encode/parts).
 * Rounded up: a planning task that ends first waits holding its thread; a range task that ends first
 * frees its thread for other work. (Before the lines crossed as JSON, FIRST_RANGE_BONUS was a flat
 * twentieth of the pages; that made the planning task read ~100 pages, ~0.3 s, too many on 2,000.)
 */
export function firstRangeBonus(pageCount: number, parts: number, costs: SplitCosts): number {
  if (parts < 2) return 0;
  const encodeShare = costs.encodePerPage / parts;
  return Math.ceil((costs.open + pageCount * (encodeShare - costs.byteFactsPerPage)) / (costs.readPerPage + encodeShare));
}

/** How many ranges planRanges makes: at most `workers`, none smaller than MIN_PAGES_PER_RANGE unless the document is. */
export const rangeCount = (pageCount: number, workers: number): number => Math.max(1, Math.min(workers, Math.floor(pageCount / MIN_PAGES_PER_RANGE)));

/**
 * Splits pages 1..pageCount into at most `workers` contiguous ranges of near-equal size, none
 * smaller than MIN_PAGES_PER_RANGE unless the document itself is. The first range gets
 * `firstBonus` pages more than the others (fewer if negative; see firstRangeBonus).
 */
export function planRanges(pageCount: number, workers: number, firstBonus = 0): PageRange[] {
  if (pageCount < 1) return [];
  const parts = rangeCount(pageCount, workers);
  let bonus = parts > 1 ? Math.min(Math.trunc(firstBonus), pageCount - parts * MIN_PAGES_PER_RANGE) : 0;
  // A first range made smaller still keeps MIN_PAGES_PER_RANGE pages.
  while (bonus < 0 && Math.floor((pageCount - bonus) / parts) + bonus < MIN_PAGES_PER_RANGE) bonus++;
  const base = Math.floor((pageCount - bonus) / parts);
  const extra = (pageCount - bonus) % parts;
  const ranges: PageRange[] = [];
  let first = 1;
  for (let i = 0; i < parts; i++) {
    const size = base + (i < extra ? 1 : 0) + (i === 0 ? bonus : 0);
    ranges.push({ first, last: first + size - 1 });
    first += size;
  }
  return ranges;
}

/** What one range task read: `count` pages from `first` on, as lines. */
export interface RangePart {
  first: number;
  count: number;
}

/**
 * Orders the ranges' parts by first page and checks together they cover 1..pageCount once each,
 * so a planning mistake fails loudly instead of silently dropping transactions.
 */
export function orderParts<T extends RangePart>(parts: readonly T[], pageCount: number): T[] {
  const ordered = [...parts].sort((a, b) => a.first - b.first);
  let next = 1;
  for (const p of ordered) {
    if (p.first !== next) break;
    next += p.count;
  }
  if (next !== pageCount + 1) {
    throw new Error(`page ranges [${ordered.map((p) => `${p.first}+${p.count}`).join(",")}] do not cover 1..${pageCount} once`);
  }
  return ordered;
}
