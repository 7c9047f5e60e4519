/**
 * Undoes a scan's small rotation on the word boxes, so that a table row's words share one baseline
 * again and amount columns line up by x. A sheet turned by 1 degree drifts ~40 px across a 300-dpi
 * page, more than a row's height: without this the layout stage would mix neighbouring rows.
 * The angle is the median of the slopes of tesseract's own text lines (each fitted through its
 * words' baselines), which a few misgrouped lines cannot move.
 */
import type { OcrWord } from "./words.ts";

/** Lines with fewer words, or spanning less of the page, give no trustworthy slope. */
const MIN_WORDS = 3;
const MIN_SPAN_SHARE = 0.2;
/** Scans are turned by a few degrees at most; a steeper fit is a misgrouped line. */
const MAX_SLOPE = Math.tan((8 * Math.PI) / 180);

/** The page's skew as a slope (dy/dx of a text baseline, y down); 0 when no line gives one. */
export function skewSlope(words: readonly OcrWord[], pageWidth: number): number {
  const lines = new Map<string, OcrWord[]>();
  for (const w of words) {
    const l = lines.get(w.line);
    if (l) l.push(w);
    else lines.set(w.line, [w]);
  }
  const slopes: number[] = [];
  for (const ws of lines.values()) {
    if (ws.length < MIN_WORDS) continue;
    const xs = ws.map((w) => w.left + w.width / 2);
    const span = Math.max(...xs) - Math.min(...xs);
    if (span < MIN_SPAN_SHARE * pageWidth) continue;
    const slope = fitSlope(xs, ws.map((w) => w.top + w.height));
    if (Math.abs(slope) <= MAX_SLOPE) slopes.push(slope);
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  return slopes[Math.floor(slopes.length / 2)]!;
}

/** Least-squares slope of y over x. */
function fitSlope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** The words turned back by `slope` about the page centre (each box moves with its baseline's middle; its size is kept). */
export function deskewWords(words: readonly OcrWord[], slope: number, width: number, height: number): OcrWord[] {
  if (slope === 0) return [...words];
  const angle = -Math.atan(slope);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const cx = width / 2;
  const cy = height / 2;
  return words.map((w) => {
    const x = w.left + w.width / 2 - cx;
    const y = w.top + w.height - cy;
    const nx = cx + x * cos - y * sin;
    const ny = cy + x * sin + y * cos;
    return { ...w, left: nx - w.width / 2, top: ny - w.height };
  });
}
