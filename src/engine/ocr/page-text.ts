/**
 * OCR words to the PageText the text path's extractors produce, so a scanned page goes through the
 * same layout stage (lines, header, column bands, rows) as a text PDF: one item per word, in PDF
 * points from the page's top-left corner.
 */
import type { PageText } from "../types.ts";
import type { OcrWord } from "./words.ts";

export interface OcrPage {
  number: number;
  /** Words after deskewing, in pixels of a `dpi` rendering. */
  words: OcrWord[];
  dpi: number;
  widthPt: number;
  heightPt: number;
  /** The skew undone on the words, in degrees (positive: the text ran downhill to the right). */
  skewDegrees: number;
}

/**
 * A word's box height is its ink (a lower-case word is shorter than a capitalised one); the layout
 * stage groups lines by baseline within a share of the glyph height, so every word of a line gets
 * the line's typical height: the median word height of the page.
 */
export function ocrPageText(page: OcrPage): PageText {
  const scale = 72 / page.dpi;
  const heights = page.words.map((w) => w.height).sort((a, b) => a - b);
  const glyph = (heights[Math.floor(heights.length / 2)] ?? 10) * scale;
  const bases = lineBaselines(page.words, glyph / scale);
  return {
    number: page.number,
    width: page.widthPt,
    height: page.heightPt,
    items: page.words.map((w, i) => ({ str: w.text, x: w.left * scale, y: bases[i]! * scale - glyph, width: w.width * scale, height: glyph })),
  };
}

/**
 * Each word's baseline (pixels): the median box bottom of its tesseract line, which descenders
 * ("g", "p", ",") and a raised comma cannot move; a word far from its line's median (the line
 * was misgrouped) keeps its own bottom.
 */
function lineBaselines(words: readonly OcrWord[], glyphPx: number): number[] {
  const bottoms = new Map<string, number[]>();
  for (const w of words) {
    const b = bottoms.get(w.line) ?? [];
    b.push(w.top + w.height);
    bottoms.set(w.line, b);
  }
  const medians = new Map<string, number>();
  for (const [line, b] of bottoms) medians.set(line, b.sort((x, y) => x - y)[Math.floor(b.length / 2)]!);
  return words.map((w) => {
    const own = w.top + w.height;
    const median = medians.get(w.line) ?? own;
    return Math.abs(own - median) <= glyphPx / 2 ? median : own;
  });
}
