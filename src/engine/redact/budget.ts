import { payloadTooLarge } from "../../errors.ts";

/**
 * Most content operations and placed glyphs one redaction pass may build. Redaction keeps an object
 * per operation (to rewrite the stream byte for byte) and per glyph (to cut it and box it), about
 * 1.3 KB together; a 55 KB PDF can hold 2 million text operators (6.9 GB before this bound), so the
 * bound is on what the document PRODUCES when read, not on its size. 600,000 is ~800 MB, inside the
 * README's ~1.2 GB per worker with the parse's own reading of the document, and some 150 pages of
 * dense statement text; a form drawn many times counts every time it is drawn.
 */
export const MAX_REDACT_CONTENT_ITEMS = 600_000;

/** What one redaction pass may still build; spending past it refuses the document (413 payload_too_large). */
export class ContentBudget {
  constructor(private left = MAX_REDACT_CONTENT_ITEMS) {}

  spend(n = 1): void {
    this.left -= n;
    if (this.left < 0) {
      throw payloadTooLarge(
        `The PDF draws more than ${MAX_REDACT_CONTENT_ITEMS.toLocaleString("en")} text operations and glyphs, more than redaction holds in memory; redact it in parts (fewer pages per file)`,
      );
    }
  }
}
