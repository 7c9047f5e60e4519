import type { Cell, Token } from "./cells.ts";

/**
 * A run of words printed as one string (headings one word space apart in a fixed-width font, a
 * date's month run into the narration) cut before each word that starts at one of the given
 * edges. Words are placed by their own extents where the run keeps them (cells.ts), else by the
 * run's width per character: exact in a fixed-width font and close in another over a short run.
 * Answers the run alone when no word starts at an edge.
 */
export function cutRun(u: Cell, edges: readonly number[], tol: number): Cell[] {
  const words = runWords(u);
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
export function wordStartXs(u: Cell): number[] {
  return runWords(u)
    .slice(1)
    .map((w) => w.x0);
}

function runWords(u: Cell): Token[] {
  if (u.words && u.words.length > 1) return u.words;
  const per = (u.x1 - u.x0) / u.text.length;
  const out: Token[] = [];
  const re = /\S+/g;
  for (let m = re.exec(u.text); m; m = re.exec(u.text)) out.push({ text: m[0], x0: u.x0 + m.index * per, x1: u.x0 + (m.index + m[0].length) * per });
  return out;
}

function runPart(u: Cell, words: Token[], first: boolean, last = false): Cell {
  const part: Cell = { text: words.map((w) => w.text).join(" "), x0: first ? u.x0 : words[0]!.x0, x1: last ? u.x1 : words[words.length - 1]!.x1, kind: u.kind };
  if (words.length > 1 && u.words) part.words = words;
  return part;
}
