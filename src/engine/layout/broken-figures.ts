/**
 * A word processor wraps a figure too wide for its cell wherever the line runs out, even inside
 * its decimals: `+145,207.7` over `8` (LibreOffice Writer). Read apart, the head is a wrong amount
 * (one decimal) and the tail a number of its own that a column takes for an amount. This pass puts
 * such a figure back together on its first line, before any column or row is inferred.
 * Pure: lines that change are copied.
 */
import { cellKind, type Cell } from "./cells.ts";
import { type Line, withCells } from "./lines.ts";

/** A figure cut inside its decimals: its number ends at the decimal point or one digit after it. */
const CUT_HEAD = /^[(+-]?\s*(?:₦|NGN\s?)?\s*\d[\d,]*\.(\d?)$/;
/** The rest: the missing decimal digits, and the closing parenthesis that followed them. */
const TAIL = /^(\d{1,2})\)?$/;
/** The rest lies within this many glyph heights below the head (the row's next line or the one after). */
const TAIL_DROP = 2.2;
/** How far (glyph heights) the rest may stand outside the head's extent and still lie under it. */
const UNDER = 0.6;

export function stitchBrokenFigures(lines: Line[]): Line[] {
  let out: Line[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = (out ?? lines)[i]!;
    if (line.source !== "pdf") continue;
    for (let k = 0; k < line.cells.length; k++) {
      const head = (out ?? lines)[i]!.cells[k]!;
      // Every cell of every line passes here: most are settled by their last two characters.
      if (!endsNearPoint(head.text)) continue;
      const cut = CUT_HEAD.exec(head.text);
      if (!cut) continue;
      const rest = restBelow(out ?? lines, i, head, 2 - cut[1]!.length);
      if (!rest) continue;
      out ??= lines.slice();
      const below = out[rest.line]!;
      const tail = below.cells[rest.cell]!;
      const text = `${head.text}${tail.text}`;
      const cells = out[i]!.cells.slice();
      cells[k] = { text, x0: Math.min(head.x0, tail.x0), x1: Math.max(head.x1, tail.x1), kind: cellKind(text) };
      out[i] = withCells(out[i]!, cells);
      out[rest.line] = withCells(below, below.cells.filter((_, n) => n !== rest.cell));
    }
  }
  return out ?? lines;
}

/** The text ends at a decimal point or one character after one (a cut figure's last characters). */
const endsNearPoint = (t: string): boolean => t.charCodeAt(t.length - 1) === 0x2e || t.charCodeAt(t.length - 2) === 0x2e;

/**
 * The rest of a cut figure: on the first line below (same page, within TAIL_DROP glyph heights)
 * that holds anything under the head, the cell under it, when it is `digits` digits (and perhaps
 * the figure's closing parenthesis) and nothing else lies under the head there.
 */
function restBelow(lines: Line[], i: number, head: Cell, digits: number): { line: number; cell: number } | null {
  const line = lines[i]!;
  const slack = UNDER * line.h;
  for (let j = i + 1; j < lines.length; j++) {
    const below = lines[j]!;
    if (below.page !== line.page || below.y - line.y > TAIL_DROP * line.h) return null;
    const under = below.cells.flatMap((c, n) => (c.x1 > head.x0 - slack && c.x0 < head.x1 + slack ? [n] : []));
    if (under.length === 0) continue;
    if (under.length > 1) return null;
    const cell = below.cells[under[0]!]!;
    const m = TAIL.exec(cell.text.trim());
    const inside = cell.x0 >= head.x0 - slack && cell.x1 <= head.x1 + slack;
    return m && m[1]!.length === digits && inside ? { line: j, cell: under[0]! } : null;
  }
  return null;
}
