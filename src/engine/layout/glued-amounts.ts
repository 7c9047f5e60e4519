import { type Cell, cellKind } from "./cells.ts";
import { MONEY } from "./columns.ts";
import type { Column } from "./header.ts";
import type { Line } from "./lines.ts";

/** An amount (and a DR/CR after it) at the end of a run, glued to the text before it or one space after it. */
const TRAILING_AMOUNT = /(?:^|[^\d.,])([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)\.\d{2}(?: ?(?:DR|CR|Dr|Cr))?)$/;

/** How far (in the run's average character widths) the amount's estimated start may lie from the column's edge. */
const EDGE_CHARS = 1.5;

/**
 * Parts a text run that ends with an amount printed from a money column's left edge: a narration
 * filling its cell up to a left-aligned amount column comes out as one run with the amount
 * ("... for rent6,217.31 DR", TCPDF's tables with no cell padding). The run must start before the
 * column and reach into it, and the amount must start at the column's edge: read from the run's
 * own character widths where it is glued inside a word (positions are known per word only).
 */
export function partGluedAmounts(line: Line, columns: Column[]): Line {
  if (line.source !== "pdf") return line;
  const edges = columns.filter((c) => MONEY.has(c.role)).map((c) => c.x0);
  if (edges.length === 0) return line;
  let changed = false;
  const cells: Cell[] = [];
  for (const cell of line.cells) {
    const parted = cell.kind === "text" ? partCell(cell, edges) : null;
    if (parted) changed = true;
    cells.push(...(parted ?? [cell]));
  }
  return changed ? { ...line, cells } : line;
}

function partCell(cell: Cell, edges: number[]): [Cell, Cell] | null {
  const m = TRAILING_AMOUNT.exec(cell.text);
  if (!m) return null;
  const amount = m[1]!;
  const head = cell.text.slice(0, cell.text.length - amount.length);
  if (head.trim() === "" || cellKind(amount) !== "money") return null;
  const charWidth = (cell.x1 - cell.x0) / cell.text.length;
  // Where the amount starts, by its share of the run's characters.
  const start = cell.x1 - charWidth * amount.length;
  const edge = edges.find((e) => cell.x0 < e && cell.x1 > e && Math.abs(start - e) <= EDGE_CHARS * charWidth);
  if (edge === undefined) return null;
  const text = head.trimEnd();
  const x1 = Math.min(edge, cell.x0 + charWidth * text.length);
  const words = cell.words ? headWords(cell.words, text.split(" ").filter(Boolean).length, x1) : undefined;
  return [
    { text, x0: cell.x0, x1, kind: cellKind(text), ...(words ? { words } : {}) },
    { text: amount, x0: edge, x1: cell.x1, kind: "money" },
  ];
}

/** The run's first `count` words, the last cut to end at `x1` where the amount was glued to it. */
function headWords(words: NonNullable<Cell["words"]>, count: number, x1: number): NonNullable<Cell["words"]> | undefined {
  if (count === 0 || words.length < count) return undefined;
  const head = words.slice(0, count);
  const last = head[count - 1]!;
  const glued = TRAILING_AMOUNT.exec(last.text);
  if (glued && last.x1 > x1) head[count - 1] = { text: last.text.slice(0, last.text.length - glued[1]!.length), x0: last.x0, x1 };
  return head;
}
