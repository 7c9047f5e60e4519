/** PDFs with more pages than this are split across workers; smaller ones cost more to split than to parse. */
export const SPLIT_ABOVE_PAGES = 8;
/** Fewest pages worth a task of their own (each task opens the document again). */
export const MIN_PAGES_PER_RANGE = 4;

export interface PageRange {
  first: number;
  last: number;
}

/**
 * Share of a PDF's pages the planning task reads on top of an equal range, so that the ranges end
 * together. It already has the document open when the plan goes out and usually assembles in
 * place, while every other range's task opens the document again and then serialises its lines
 * and copies them over: together about a twentieth of reading the pages (measured on the
 * 2,000-page statement of `npm run bench`).
 */
export const FIRST_RANGE_BONUS = 1 / 20;

/**
 * Splits pages 1..pageCount into at most `workers` contiguous ranges of near-equal size, none
 * smaller than MIN_PAGES_PER_RANGE unless the document itself is. `firstBonus` extra pages go to
 * the first range (see FIRST_RANGE_BONUS).
 */
export function planRanges(pageCount: number, workers: number, firstBonus = 0): PageRange[] {
  if (pageCount < 1) return [];
  const parts = Math.max(1, Math.min(workers, Math.floor(pageCount / MIN_PAGES_PER_RANGE)));
  const bonus = parts > 1 ? Math.max(0, Math.min(Math.floor(firstBonus), pageCount - parts * MIN_PAGES_PER_RANGE)) : 0;
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
