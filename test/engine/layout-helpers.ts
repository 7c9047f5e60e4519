import type { ExtractedDocument, PageText, TextItem } from "../../src/engine/types.ts";

/** Average glyph advance of the synthetic font, in points per character at size 8. */
const CHAR = 4.4;
const SIZE = 8;

/** A piece of text: left-aligned at x, or right-aligned to r. */
export type Piece = [x: number, text: string] | { r: number; t: string };

/** A page from lines of pieces: each line is [top y, ...pieces]. */
export function page(number: number, lines: [number, ...Piece[]][], width = 600, height = 842): PageText {
  const items: TextItem[] = [];
  for (const [y, ...pieces] of lines) {
    for (const p of pieces) {
      const text = Array.isArray(p) ? p[1] : p.t;
      const w = text.length * CHAR;
      const x = Array.isArray(p) ? p[0] : p.r - w;
      items.push({ str: text, x, y, width: w, height: SIZE });
    }
  }
  return { number, width, height, items };
}

export const pdfDoc = (...pages: PageText[]): ExtractedDocument => ({ kind: "pdf", pageCount: pages.length, producer: "test", pages });
export const sheetDoc = (rows: string[][]): ExtractedDocument => ({ kind: "sheet", producer: "xlsx", sheets: [{ name: "Sheet1", rows }] });
