import { type Cell, type Token, tokensOf } from "./cells.ts";

/**
 * A run of words printed as one string (headings one word space apart in a fixed-width font, a
 * date's month run into the narration) cut before each word that starts at one of the given
 * edges. Words are placed by their own extents where the run keeps them (cells.ts), else as
 * tokensOf places them: evenly in a fixed-width font, by likely character widths in another.
 * Answers the run alone when no word starts at an edge.
 */
export function cutRun(u: Cell, edges: readonly number[], tol: number, proportional = false): Cell[] {
  const words = runWords(u, proportional);
  if (edges.length === 0 || words.length < 2) return [u];
  const out: Cell[] = [];
  let from = 0;
  for (let k = 1; k < words.length; k++) {
    if (!edges.some((x) => Math.abs(words[k]!.x0 - x) <= tol)) continue;
    out.push(runPart(u, words.slice(from, k), from === 0));
    from = k;
  }
  if (out.length === 0) return [u];
  out.push(runPart(u, words.slice(from), false, true));
  return out;
}

/** Where each word of a run after its first starts. */
export function wordStartXs(u: Cell, proportional = false): number[] {
  return runWords(u, proportional)
    .slice(1)
    .map((w) => w.x0);
}

function runWords(u: Cell, proportional: boolean): Token[] {
  if (u.words && u.words.length > 1) return u.words;
  return tokensOf(u.text, u.x0, u.x1, proportional);
}

function runPart(u: Cell, words: Token[], first: boolean, last = false): Cell {
  const part: Cell = { text: words.map((w) => w.text).join(" "), x0: first ? u.x0 : words[0]!.x0, x1: last ? u.x1 : words[words.length - 1]!.x1, kind: u.kind };
  if (words.length > 1 && u.words) part.words = words;
  return part;
}
