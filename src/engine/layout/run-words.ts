import type { Cell } from "./cells.ts";

/**
 * A run of words printed as one string (headings one word space apart in a fixed-width font, or
 * a header drawn as one string) cut before each word that starts at one of the given edges.
 * A word's start is read from the run's width per character: exact in a fixed-width font and
 * close in another over a short run. Answers the run alone when no word starts at an edge.
 */
export function cutRun(u: Cell, edges: readonly number[], tol: number): Cell[] {
  if (edges.length === 0 || !/\s/.test(u.text)) return [u];
  const per = (u.x1 - u.x0) / u.text.length;
  const out: Cell[] = [];
  let from = 0;
  for (const at of wordStarts(u.text)) {
    if (at === 0 || !edges.some((x) => Math.abs(u.x0 + at * per - x) <= tol)) continue;
    out.push(runPart(u, from, at, per));
    from = at;
  }
  if (out.length === 0) return [u];
  out.push(runPart(u, from, u.text.length, per));
  return out;
}

/** Where each word of a run starts, estimated as cutRun does. */
export function wordStartXs(u: Cell): number[] {
  const per = (u.x1 - u.x0) / u.text.length;
  return wordStarts(u.text).filter((at) => at > 0).map((at) => u.x0 + at * per);
}

function wordStarts(text: string): number[] {
  const out: number[] = [];
  const re = /\S+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m.index);
  return out;
}

function runPart(u: Cell, from: number, to: number, per: number): Cell {
  const text = u.text.slice(from, to).trimEnd();
  return { ...u, text, x0: from === 0 ? u.x0 : u.x0 + from * per, x1: to === u.text.length ? u.x1 : u.x0 + (from + text.length) * per };
}
