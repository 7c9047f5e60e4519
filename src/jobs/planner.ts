import type { PageBlock } from "./claims.ts";

/** PDFs with more pages than this are split across workers; smaller ones cost more to split than to parse. */
export const SPLIT_ABOVE_PAGES = 8;
/** Fewest pages worth a helper task of its own (each one opens the document again). */
export const MIN_PAGES_PER_TASK = 4;

/**
 * How many helper tasks read pages alongside the planning task: one per other free worker, but
 * none that would get fewer than MIN_PAGES_PER_TASK pages on an even share.
 */
export const helperCount = (pageCount: number, workers: number): number =>
  Math.max(0, Math.min(workers, Math.floor(pageCount / MIN_PAGES_PER_TASK)) - 1);

/**
 * Orders the blocks every task read by first page and checks that together they cover
 * 1..pageCount once each, so a claiming mistake fails loudly instead of silently dropping
 * transactions.
 */
export function orderBlocks<T extends PageBlock>(blocks: readonly T[], pageCount: number): T[] {
  const ordered = [...blocks].sort((a, b) => a.first - b.first);
  let next = 1;
  for (const b of ordered) {
    if (b.first !== next) break;
    next += b.count;
  }
  if (next !== pageCount + 1) {
    throw new Error(`page blocks [${ordered.map((b) => `${b.first}+${b.count}`).join(",")}] do not cover 1..${pageCount} once`);
  }
  return ordered;
}
