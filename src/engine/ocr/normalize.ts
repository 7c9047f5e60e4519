/**
 * Word readings with one meaning only, rewritten before the layout stage: an amount whose thousands
 * separators came out as points ("5.000.00") or whose decimal point came out as a comma
 * ("1,234,56") cannot be anything but that amount, yet no amount parser reads it. Each rewrite is
 * kept, so the row it lands in is reported as repaired, and the chain must still confirm it.
 */
import type { OcrPage } from "./page-text.ts";

export interface Rewrite {
  page: number;
  /** Index of the word in its page's words. */
  word: number;
  printed: string;
  used: string;
}

const POINTS_AS_SEPARATORS = /^([+-]?[₦#N]?)(\d{1,3}(?:\.\d{3})+)\.(\d{2})([-+]?|DR|CR)$/i;
const COMMA_AS_POINT = /^([+-]?[₦#N]?)(\d{1,3}(?:,\d{3})*),(\d{2})([-+]?|DR|CR)$/i;

export function rewriteAmount(text: string): string | null {
  const a = POINTS_AS_SEPARATORS.exec(text);
  if (a) return `${a[1]}${a[2]!.replaceAll(".", ",")}.${a[3]}${a[4]}`;
  const b = COMMA_AS_POINT.exec(text);
  if (b) return `${b[1]}${b[2]}.${b[3]}${b[4]}`;
  return null;
}

/** The pages with such words rewritten (new objects; the input is not changed), and the rewrites. */
export function normalizePages(pages: readonly OcrPage[]): { pages: OcrPage[]; rewrites: Rewrite[] } {
  const rewrites: Rewrite[] = [];
  const out = pages.map((p) => ({
    ...p,
    words: p.words.map((w, i) => {
      const used = rewriteAmount(w.text);
      if (used === null) return w;
      rewrites.push({ page: p.number, word: i, printed: w.text, used });
      return { ...w, text: used };
    }),
  }));
  return { pages: out, rewrites };
}
