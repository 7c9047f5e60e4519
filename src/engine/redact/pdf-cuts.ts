import type { RunHit } from "./find.ts";
import type { Box, PlacedGlyph } from "./interpret.ts";
import type { TextRun } from "./pdf-text.ts";

/**
 * Decides which glyphs of the content streams draw a matched piece of a pdf.js run. The glyphs
 * whose centres fall inside the run's box are read in drawing order; the run's text is located in
 * their text, so the cut covers exactly the glyphs of the matched characters. When the fonts don't
 * say which text a glyph stands for, the run's width is shared out over its characters instead.
 */

const norm = (s: string) => s.normalize("NFKC").toLowerCase().replace(/\s+/g, "");

/** Glyphs whose centre lies in the run's box (along the baseline, and from below it to its top). */
export function glyphsOfRun(glyphs: PlacedGlyph[], run: TextRun): PlacedGlyph[] {
  const h = Math.max(run.height, 1);
  return glyphs.filter((g) => {
    const ux = g.center[0] - run.x;
    const uy = g.center[1] - run.y;
    const u = ux * run.dx + uy * run.dy;
    const v = -ux * run.dy + uy * run.dx;
    return u >= -0.3 * h && u <= run.width + 0.3 * h && v >= -0.4 * h && v <= h;
  });
}

const isCut = (g: PlacedGlyph) => g.unit.cuts.get(g.op)?.has(g.index) ?? false;

/** A run's candidate glyphs and both texts, normalised, with maps back to glyphs and characters. */
interface RunView {
  cands: PlacedGlyph[];
  /** Candidates' text and, per char, the candidate it came from. */
  s: string;
  sMap: number[];
  /** The run's text and, per char, the code point of run.str it came from. */
  r: string;
  rMap: number[];
  /** Code-unit offset in run.str of each code point. */
  codePointIndex: number[];
}

/**
 * Built once per run and page, not per hit: a run holding many occurrences (a line of repeated
 * names) would otherwise filter every glyph of the page once per occurrence.
 */
const views = new WeakMap<PlacedGlyph[], Map<TextRun, RunView>>();

function viewOf(glyphs: PlacedGlyph[], run: TextRun): RunView {
  let byRun = views.get(glyphs);
  if (!byRun) views.set(glyphs, (byRun = new Map()));
  const cached = byRun.get(run);
  if (cached) return cached;
  const cands = glyphsOfRun(glyphs, run);
  const sParts: string[] = [];
  const sMap: number[] = [];
  cands.forEach((g, i) => {
    // A glyph without known text still occupies one position, so it can never match by accident.
    const t = g.text === "" ? "\uFFFD" : norm(g.text);
    for (const ch of t) {
      sParts.push(ch);
      for (let k = 0; k < ch.length; k++) sMap.push(i);
    }
  });
  const rParts: string[] = [];
  const rMap: number[] = [];
  const codePointIndex: number[] = [];
  let cu = 0;
  [...run.str].forEach((ch, k) => {
    codePointIndex.push(cu);
    cu += ch.length;
    for (const c of norm(ch)) {
      rParts.push(c);
      for (let j = 0; j < c.length; j++) rMap.push(k);
    }
  });
  const view = { cands, s: sParts.join(""), sMap, r: rParts.join(""), rMap, codePointIndex };
  byRun.set(run, view);
  return view;
}

function alignedCut(view: RunView, hit: RunHit): PlacedGlyph[] | undefined {
  const { cands, s, sMap, r, rMap, codePointIndex } = view;
  if (!r) return undefined;
  // Among several occurrences (overprinted runs), take the one that starts nearest the run's origin
  // and has not been cut for another hit already (pdf.js reports an overprinted copy as its own run).
  let best: { at: number; d: number } | undefined;
  for (let at = s.indexOf(r); at >= 0; at = s.indexOf(r, at + 1)) {
    const g = cands[sMap[at]!]!;
    const d = Math.hypot(g.origin[0] - hit.run.x, g.origin[1] - hit.run.y) + (isCut(g) ? 1e6 : 0);
    if (!best || d < best.d) best = { at, d };
  }
  if (!best) return undefined;
  // The hit is in code units of run.str; rMap gives code points: only the hit's own characters.
  const out = new Set<PlacedGlyph>();
  for (let j = 0; j < rMap.length; j++) {
    const unit = codePointIndex[rMap[j]!]!;
    if (unit >= hit.start && unit < hit.end) out.add(cands[sMap[best.at + j]!]!);
  }
  return [...out];
}

function proportionalCut(cands: PlacedGlyph[], hit: RunHit): PlacedGlyph[] {
  const n = Math.max(hit.run.str.length, 1);
  const from = (hit.run.width * hit.start) / n;
  const to = (hit.run.width * hit.end) / n;
  return cands.filter((g) => {
    const u = (g.center[0] - hit.run.x) * hit.run.dx + (g.center[1] - hit.run.y) * hit.run.dy;
    return u >= from && u <= to;
  });
}

/** Adds the glyphs (spaces) lying between cut glyphs of the same operator. */
function fillGaps(cands: PlacedGlyph[], cut: PlacedGlyph[]): PlacedGlyph[] {
  const span = new Map<string, [number, number]>();
  for (const g of cut) {
    const k = `${g.unit.key}#${g.op}`;
    const s = span.get(k);
    span.set(k, s ? [Math.min(s[0], g.index), Math.max(s[1], g.index)] : [g.index, g.index]);
  }
  const out = new Set(cut);
  for (const g of cands) {
    const s = span.get(`${g.unit.key}#${g.op}`);
    if (s && g.index > s[0] && g.index < s[1]) out.add(g);
  }
  return [...out];
}

export interface Cut {
  glyphs: PlacedGlyph[];
  aligned: boolean;
}

export function cutFor(glyphs: PlacedGlyph[], hit: RunHit): Cut {
  const view = viewOf(glyphs, hit.run);
  const aligned = alignedCut(view, hit);
  if (aligned) return { glyphs: fillGaps(view.cands, aligned), aligned: true };
  return { glyphs: proportionalCut(view.cands, hit), aligned: false };
}

export function unionBox(glyphs: PlacedGlyph[]): Box | undefined {
  if (glyphs.length === 0) return undefined;
  return {
    x0: Math.min(...glyphs.map((g) => g.box.x0)),
    y0: Math.min(...glyphs.map((g) => g.box.y0)),
    x1: Math.max(...glyphs.map((g) => g.box.x1)),
    y1: Math.max(...glyphs.map((g) => g.box.y1)),
  };
}
