import { scanDate } from "../dates.ts";
import type { Cell } from "./cells.ts";
import type { Line } from "./lines.ts";

/**
 * Word processors wrap a too-narrow date cell wherever the line runs out, even mid-number
 * ("01/10/202" over "4", "03 Jan 20" over "24"). This pass puts such a date back together on
 * its first line, before any column or row is inferred, so the row starts where its date does.
 * Pure: lines that change are copied.
 */

/** The second piece starts (or ends) within this share of the glyph height of the first's left (right) edge. */
const SAME_EDGE = 0.6;
/** The second piece lies within this many glyph heights below the first. */
const NEXT_LINE = 2.2;
/** Pieces longer than this are not halves of a date. */
const MAX_PIECE = 12;

const HEAD = /^\d{1,4}(?:[-/. ][\dA-Za-z]{0,9}){0,2}[-/. ]?$/;
const TAIL = /^[\dA-Za-z]{0,9}(?:[-/. ]?\d{1,4})?$/;

/** The two halves joined: digits and separators without a space, words with one. */
function glue(a: string, b: string): string {
  if (/[-/.]$/.test(a) || /^[-/.]/.test(b) || (/\d$/.test(a) && /^\d/.test(b))) return `${a}${b}`;
  return `${a} ${b}`;
}

function isHead(c: Cell): boolean {
  return c.kind !== "money" && c.text.length <= MAX_PIECE && HEAD.test(c.text) && !scanDate(c.text);
}

export function stitchBrokenDates(lines: Line[]): Line[] {
  const out = lines.slice();
  for (let i = 0; i < out.length; i++) {
    const line = out[i]!;
    if (line.source !== "pdf") continue;
    cells: for (let k = 0; k < line.cells.length; k++) {
      const head = line.cells[k]!;
      if (!isHead(head)) continue;
      for (let j = i + 1; j < out.length && j <= i + 3; j++) {
        const below = out[j]!;
        // A row split by a page break continues on the next page, under its repeated header.
        const lastOnPage = out[i + 1]?.page !== line.page;
        if (below.page === line.page ? below.y - line.y > NEXT_LINE * line.h : !lastOnPage || below.page !== line.page + 1) break;
        // Left-aligned cells share the left edge, right-aligned ones (figures boxes) the right.
        const tol = SAME_EDGE * line.h;
        const m = below.cells.findIndex((c) => Math.abs(c.x0 - head.x0) <= tol || Math.abs(c.x1 - head.x1) <= tol);
        if (m < 0) continue;
        const tail = below.cells[m]!;
        if (tail.kind === "money" || tail.text.length > MAX_PIECE || !TAIL.test(tail.text)) break;
        const joined = glue(head.text, tail.text);
        if (!scanDate(joined)) break;
        const cells = line.cells.slice();
        cells[k] = { text: joined, x0: head.x0, x1: Math.max(head.x1, tail.x1), kind: "date" };
        // The row still reaches down to where the date ended (same page), for its continuation lines.
        out[i] = { ...withCells(line, cells), bottom: below.page === line.page ? below.y : line.y };
        out[j] = withCells(below, below.cells.filter((_, n) => n !== m));
        break cells;
      }
    }
  }
  return out;
}

function withCells(line: Line, cells: Cell[]): Line {
  return { ...line, cells, text: cells.map((c) => c.text).join(" ") };
}
