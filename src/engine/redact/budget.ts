import { payloadTooLarge } from "../../errors.ts";

/**
 * Most content operations and placed glyphs one redaction pass may build. Redaction keeps an object
 * per operation (to rewrite the stream byte for byte) and per glyph (to cut it and box it), about
 * 1.3 KB together; a 55 KB PDF can hold 2 million text operators (6.9 GB before this bound), so the
 * bound is on what the document PRODUCES when read, not on its size. 600,000 is ~800 MB, inside the
 * README's ~1.2 GB per worker with the parse's own reading of the document, and some 150-300 pages
 * of dense statement text; a form drawn many times counts every time it is drawn.
 */
export const MAX_REDACT_CONTENT_ITEMS = 600_000;

/**
 * The worker's heap a redaction may grow to (Bun's heapUsed is per worker thread and counts
 * ArrayBuffers and PDFium's WebAssembly memory): a net under the item count, for whatever costs
 * more per item than measured. Checked every HEAP_CHECK_EVERY items (~25 us a check).
 */
export const MAX_REDACT_HEAP_BYTES = 1200 * 1024 * 1024;
const HEAP_CHECK_EVERY = 50_000;

const tooLarge = (why: string) => payloadTooLarge(`The PDF ${why}, more than redaction holds in memory; redact it in parts (fewer pages per file)`);

export interface BudgetOptions {
  items?: number;
  heapCap?: number;
  /** The worker's heap in bytes (process.memoryUsage().heapUsed; replaceable in tests). */
  heapUsed?: () => number;
}

/** What one redaction pass may still build; spending past it refuses the document (413 payload_too_large). */
export class ContentBudget {
  private left: number;
  private untilCheck = HEAP_CHECK_EVERY;
  private readonly heapCap: number;
  private readonly heapUsed: () => number;

  constructor(opts: BudgetOptions = {}) {
    this.left = opts.items ?? MAX_REDACT_CONTENT_ITEMS;
    this.heapCap = opts.heapCap ?? MAX_REDACT_HEAP_BYTES;
    this.heapUsed = opts.heapUsed ?? (() => process.memoryUsage().heapUsed);
  }

  spend(n = 1): void {
    this.left -= n;
    if (this.left < 0) throw tooLarge(`draws more than ${MAX_REDACT_CONTENT_ITEMS.toLocaleString("en")} text operations and glyphs`);
    this.untilCheck -= n;
    if (this.untilCheck > 0) return;
    this.untilCheck = HEAP_CHECK_EVERY;
    if (this.heapUsed() > this.heapCap) throw tooLarge(`grew the worker's heap past ${Math.round(this.heapCap / (1024 * 1024))} MiB while being redacted`);
  }
}
