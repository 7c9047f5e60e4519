import type { TextRun } from "./pdf-text.ts";

/** Lines of pdf.js text runs (or spreadsheet cells laid out as runs), the unit personal data is searched in. */

export interface Line {
  runs: TextRun[];
  /** Text of the runs joined: "" between abutting runs, " " across a gap, "\n" where runs overlap, "\u241e" a column apart. */
  text: string;
  /** For each char of `text`: [run index in `runs`, char index in that run], or null for a separator. */
  map: ([number, number] | null)[];
  baseline: number;
}

/** Separates runs a column apart (or overlapping) in a line's text. */
export const BREAK = "\u241e";

// Rotated text is read in its own frame: u along the baseline, v across it (v decreasing to the
// next line), so "to the right of" and "below" mean the same for every orientation.
const SOURCE = new WeakMap<TextRun, TextRun>();

function inReadingFrame(r: TextRun): TextRun {
  if (Math.abs(r.dy) < 0.01 && r.dx > 0) return r;
  const framed = { ...r, x: r.x * r.dx + r.y * r.dy, y: -r.x * r.dy + r.y * r.dx, dx: 1, dy: 0 };
  SOURCE.set(framed, r);
  return framed;
}

/** The pdf.js run a (possibly reframed) line run stands for. */
export const sourceRun = (r: TextRun): TextRun => SOURCE.get(r) ?? r;

/**
 * Groups a page's runs into lines (same direction, same baseline within half a font height), each
 * sorted along the baseline.
 */
export function buildLines(runs: TextRun[]): Line[] {
  const byDirection = new Map<string, TextRun[]>();
  for (const r of runs) {
    const key = `${Math.round(r.dx * 100)},${Math.round(r.dy * 100)}`;
    const list = byDirection.get(key);
    if (list) list.push(inReadingFrame(r));
    else byDirection.set(key, [inReadingFrame(r)]);
  }
  const groups: TextRun[][] = [];
  for (const framed of byDirection.values()) {
    const local: TextRun[][] = [];
    for (const r of framed.sort((a, b) => b.y - a.y || a.x - b.x)) {
      const g = local.find((l) => Math.abs(l[0]!.y - r.y) <= Math.max(1, 0.5 * Math.min(l[0]!.height, r.height)));
      if (g) g.push(r);
      else local.push([r]);
    }
    groups.push(...local);
  }
  return groups.map((g) => {
    const sorted = g.length > 1 ? [...g].sort((a, b) => a.x - b.x) : g;
    const parts: string[] = [];
    const map: ([number, number] | null)[] = [];
    sorted.forEach((r, i) => {
      if (i > 0) {
        const prev = sorted[i - 1]!;
        const gap = r.x - (prev.x + prev.width);
        const h = Math.max(prev.height, r.height, 1);
        // Overlapping runs and runs a column apart are never read as one phrase.
        const sep = gap < -0.2 * h ? "\n" : gap > 3 * h ? BREAK : gap > 0.15 * h ? " " : "";
        if (sep) {
          parts.push(sep);
          map.push(null);
        }
      }
      for (let k = 0; k < r.str.length; k++) map.push([i, k]);
      parts.push(r.str);
    });
    return { runs: sorted, text: parts.join(""), map, baseline: sorted[0]!.y };
  });
}

/** Index in line.text where each run starts. */
export function runStarts(line: Line): number[] {
  const starts: number[] = [];
  line.map.forEach((m, c) => {
    if (m && starts[m[0]] === undefined) starts[m[0]] = c;
  });
  return starts;
}

/** The run that holds char `c` of the line's text (or the next run after a separator). */
export function runAt(line: Line, c: number): number {
  for (let k = c; k < line.map.length; k++) {
    const m = line.map[k];
    if (m) return m[0];
  }
  return line.runs.length - 1;
}
