import type { PageText, TextItem } from "../types.ts";
import type { IntegritySignal, PageFacts } from "./types.ts";

/**
 * Figures typed in by an editor rarely match the bank's own: the editor draws them in a font of its
 * own (often a standard Helvetica) that nothing else on the page uses. A page taken from another
 * document shows the same on a larger scale: other fonts, another paper size.
 */

/** An amount, count or date-like figure: digits with separators, signs, a currency mark or Cr/Dr. */
const FIGURE = /^[\s(+\-₦N#$]*\d[\d\s,./:-]*\)?\s*(?:CR|DR|Cr|Dr|cr|dr)?$/;
/** Fewest figures in the same column, besides the odd one, for a font to be "the column's font" (a credit column can be sparse). */
const MIN_PEERS = 3;
/** Share of the column's other figures that must share one font. */
const DOMINANT = 0.8;

/** Figures on a page in a font used by no other text of the page while their column uses another. */
export function fontOutliers(page: PageText): IntegritySignal[] {
  // One pass: which fonts set figures, which set other text. Most pages end here, with no font
  // that only a handful of figures use.
  const figures: (TextItem & { font: string })[] = [];
  const textFonts = new Set<string>();
  const perFont = new Map<string, number>();
  for (const it of page.items) {
    if (it.font === undefined) continue;
    const s = it.str.trim();
    if (s === "") continue;
    if (FIGURE.test(s)) {
      figures.push(it as TextItem & { font: string });
      perFont.set(it.font, (perFont.get(it.font) ?? 0) + 1);
    } else textFonts.add(it.font);
  }
  const rare = Math.max(3, figures.length / 10);
  const candidates = [...perFont].filter(([font, n]) => !textFonts.has(font) && n <= rare).map(([font]) => font);
  if (candidates.length === 0) return [];
  const odd: TextItem[] = [];
  for (const it of figures) {
    if (!candidates.includes(it.font)) continue;
    const peers = figures.filter((o) => o !== it && o.x < it.x + it.width && it.x < o.x + o.width);
    if (peers.length < MIN_PEERS) continue;
    const counts = new Map<string, number>();
    for (const p of peers) counts.set(p.font, (counts.get(p.font) ?? 0) + 1);
    const [font, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    if (font !== it.font && n >= DOMINANT * peers.length && (counts.get(it.font) ?? 0) === 0) odd.push(it);
  }
  if (odd.length === 0) return [];
  const list = odd.slice(0, 3).map((it) => `"${it.str.trim()}"`).join(", ");
  return [{ code: "font_outlier", severity: "warn", page: page.number, detail: `${list}${odd.length > 3 ? ` and ${odd.length - 3} more` : ""} ${odd.length === 1 ? "is" : "are"} set in a font no other text on the page uses, unlike the rest of the column.` }];
}

/** Points two page sizes may differ by and still be the same paper. */
const SIZE_TOLERANCE = 2;

/** Pages whose size or fonts differ from the rest of the document (a page from elsewhere). */
export function templateSignals(pages: PageFacts[], fonts: { page: number; fonts: string[] }[]): IntegritySignal[] {
  const out: IntegritySignal[] = [];
  if (pages.length >= 2) {
    // Rotation swaps width and height without changing the paper, so sizes compare unordered.
    const key = (p: PageFacts) => [Math.min(p.width, p.height), Math.max(p.width, p.height)] as const;
    const counts = new Map<string, { n: number; size: readonly [number, number] }>();
    for (const p of pages) {
      const k = key(p).map((v) => Math.round(v / SIZE_TOLERANCE)).join("x");
      counts.set(k, { n: (counts.get(k)?.n ?? 0) + 1, size: key(p) });
    }
    if (counts.size > 1) {
      const [, common] = [...counts].sort((a, b) => b[1].n - a[1].n)[0]!;
      for (const p of pages) {
        const [w, h] = key(p);
        if (Math.abs(w - common.size[0]) > SIZE_TOLERANCE || Math.abs(h - common.size[1]) > SIZE_TOLERANCE) {
          out.push({ code: "page_size_differs", severity: "warn", page: p.page, detail: `Page ${p.page} is ${Math.round(p.width)}×${Math.round(p.height)} pt; the document's other pages are ${Math.round(common.size[0])}×${Math.round(common.size[1])} pt.` });
        }
      }
    }
  }
  const used = fonts.filter((f) => f.fonts.length > 0);
  if (used.length >= 2) {
    const pagesUsing = new Map<string, number>();
    for (const f of used) for (const name of f.fonts) pagesUsing.set(name, (pagesUsing.get(name) ?? 0) + 1);
    for (const f of used) {
      if (f.fonts.every((name) => pagesUsing.get(name) === 1)) {
        out.push({ code: "page_fonts_differ", severity: "warn", page: f.page, detail: `Page ${f.page} uses none of the fonts of the other pages (${f.fonts.slice(0, 4).join(", ")}).` });
      }
    }
  }
  return out;
}
