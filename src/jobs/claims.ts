/**
 * The pages of a split PDF, handed out while they are read instead of planned up front. The
 * planning task takes pages from the front and every helper task from the back, a few at a time,
 * until the two ends meet: whichever thread runs faster (the planning task also guards the
 * document and computes its byte facts; a helper may start late behind another document, or
 * never) reads more, and no thread waits for a range planned too large for it. On a busy 2-core
 * machine a fixed plan left one thread idle for up to a second of a 2,000-page parse while the
 * other finished its range.
 *
 * The last CLAIM_PAGES pages per helper are set apart: each helper's first claim comes from them,
 * so a helper that starts while the planning task is still reading gets pages however far the
 * planning task has got; the planning task takes what is left of them once everything else is
 * read, so it never waits for a helper that has not started.
 *
 * The counters live in a SharedArrayBuffer every task of the document holds; claims are taken
 * under a spin lock held for a few instructions (one claim per CLAIM_PAGES pages).
 */

/** Pages taken per claim: few enough that the ends meet within a few milliseconds of each other. */
export const CLAIM_PAGES = 4;

/** A run of pages: `count` pages from `first` on. */
export interface PageBlock {
  first: number;
  count: number;
}

/** How many pages the blocks hold. */
export const pagesIn = (blocks: readonly PageBlock[]): number => blocks.reduce((n, b) => n + b.count, 0);

const LOCK = 0;
/**
 * Two regions, each a next unclaimed page from the front and a last unclaimed page from the back
 * (claimed out when front > back): the shared pages, then the pages set apart for helpers.
 */
const SHARED = 1;
const SET_APART = 3;
const SLOTS = 5;

/** The counters of a document with `pageCount` pages, none claimed yet, with pages set apart for `helpers` helpers. */
export function createClaims(pageCount: number, helpers: number): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
  const cells = new Int32Array(buffer);
  const apart = Math.min(pageCount, Math.max(0, helpers) * CLAIM_PAGES);
  cells.set([1, pageCount - apart], SHARED);
  cells.set([pageCount - apart + 1, pageCount], SET_APART);
  return buffer;
}

/** One task's view of the counters. */
export class PageClaims {
  private readonly cells: Int32Array;
  private claimed = false;

  constructor(buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer);
  }

  /** The planning task's next pages: from the front of the shared pages, then of those set apart; null when all are claimed. */
  front(pages = CLAIM_PAGES): PageBlock | null {
    return this.take(SHARED, "front", pages) ?? this.take(SET_APART, "front", pages);
  }

  /** A helper's next pages: its first claim from the back of the pages set apart, then from the back of the shared ones. */
  back(pages = CLAIM_PAGES): PageBlock | null {
    const first = !this.claimed;
    this.claimed = true;
    if (first) return this.take(SET_APART, "back", pages) ?? this.take(SHARED, "back", pages);
    return this.take(SHARED, "back", pages) ?? this.take(SET_APART, "back", pages);
  }

  /** Whether every page has been claimed (a helper that starts this late has nothing to read). */
  exhausted(): boolean {
    const c = this.cells;
    return Atomics.load(c, SHARED) > Atomics.load(c, SHARED + 1) && Atomics.load(c, SET_APART) > Atomics.load(c, SET_APART + 1);
  }

  private take(region: number, end: "front" | "back", pages: number): PageBlock | null {
    const c = this.cells;
    while (Atomics.compareExchange(c, LOCK, 0, 1) !== 0);
    try {
      const front = c[region]!;
      const back = c[region + 1]!;
      if (front > back) return null;
      if (end === "front") {
        const count = Math.min(pages, back - front + 1);
        c[region] = front + count;
        return { first: front, count };
      }
      const first = Math.max(front, back - pages + 1);
      c[region + 1] = first - 1;
      return { first, count: back - first + 1 };
    } finally {
      Atomics.store(c, LOCK, 0);
    }
  }
}
