import type { PageText, TextItem } from "../types.ts";
import type { IntegritySignal } from "./types.ts";

/**
 * Amount columns are right-aligned by the bank's generator to the same edge, to a fraction of a
 * point. A figure changed in place (its glyphs replaced in the content stream, or retyped at the
 * old figure's starting point) keeps the old start and so ends off that edge. The edge is judged
 * against the column's own spread: a renderer that places figures a little off (measuring them
 * with other metrics) strays on many of them, or puts several on a second edge of their own, and
 * neither is an edit.
 */

/** A plain amount: digits with thousands separators and two decimals, optionally signed. */
const AMOUNT = /^[-+]?[\d,]+\.\d{2}$/;
/** Right edges within this many points are one edge. */
const EDGE = 0.75;
/** Fewest amounts on one edge for it to be a column's edge (a credit column can be sparse). */
const MIN_COLUMN = 3;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** A right edge shared by a column's amounts, with the span they cover. */
interface Edge {
  edge: number;
  x0: number;
  top: number;
  bottom: number;
  members: TextItem[];
}

/** How many times the column's typical stray a figure must exceed to be out of line. */
const SPREAD_FACTOR = 4;

/** The column's typical stray from its edge: the median of its figures' distances from it. */
function columnSpread(offsets: number[]): number {
  if (offsets.length === 0) return 0;
  const d = offsets.map(Math.abs).sort((a, b) => a - b);
  return d[Math.floor(d.length / 2)]!;
}

export function misalignedFigures(page: PageText): IntegritySignal[] {
  // An amount ends in a digit: most items are ruled out before the pattern runs.
  const amounts = page.items.filter((it) => {
    const s = it.str.trimEnd();
    return it.width > 0 && isDigit(s.charCodeAt(s.length - 1)) && AMOUNT.test(s.trimStart());
  });
  if (amounts.length <= MIN_COLUMN) return [];
  const right = (it: TextItem) => it.x + it.width;
  const sorted = [...amounts].sort((a, b) => right(a) - right(b));
  // Edges shared by at least MIN_COLUMN amounts, each with the span its amounts cover.
  const edges: Edge[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && right(sorted[j + 1]!) - right(sorted[i]!) <= EDGE) j++;
    const n = j - i + 1;
    const members = sorted.slice(i, j + 1);
    // Members starting at different points prove the edge is a right alignment (equal-length
    // figures of a left-aligned block share both their start and their end).
    if (n >= MIN_COLUMN && new Set(members.map((it) => Math.round(it.x))).size > 1) {
      edges.push({ edge: right(sorted[i]!), x0: Math.min(...members.map((it) => it.x)), top: Math.min(...members.map((it) => it.y)), bottom: Math.max(...members.map((it) => it.y)), members });
    }
    i = j + 1;
  }
  if (edges.length === 0) return [];
  const onEdge = (it: TextItem) => edges.some((e) => Math.abs(right(it) - e.edge) <= EDGE);
  // Off-edge amounts sharing a start are a left-aligned column, not amounts out of line.
  const off = amounts.filter((it) => !onEdge(it));
  const starts = new Map<number, number>();
  for (const it of off) starts.set(Math.round(it.x), (starts.get(Math.round(it.x)) ?? 0) + 1);
  const inColumn = (it: TextItem, e: Edge) => it.x < e.edge && right(it) > e.x0 && it.y > e.top && it.y < e.bottom;
  const odd = off.filter((it) => {
    if ((starts.get(Math.round(it.x)) ?? 0) >= 2) return false;
    // Within the column's rows: a summary box above the table or a totals line below it may be set apart.
    const column = edges.find((e) => inColumn(it, e));
    if (column === undefined) return false;
    // Off the edge by more than a glyph's sliver, and by more than the column's own figures stray
    // from it: a renderer that places every figure a little off spreads the whole column.
    const others = amounts.filter((a) => a !== it && (column.members.includes(a) || inColumn(a, column)));
    const tolerance = Math.max(1.5, 0.15 * it.height, SPREAD_FACTOR * columnSpread(others.map((a) => right(a) - column.edge)));
    if (Math.abs(right(it) - column.edge) <= tolerance) return false;
    // Another figure of different length off the edge by the same amount: the renderer's second
    // alignment (figures it measures differently), not an edit; an edited figure strays alone.
    if (off.some((o) => o !== it && Math.round(o.x) !== Math.round(it.x) && inColumn(o, column) && Math.abs(right(o) - right(it)) <= EDGE)) return false;
    // Its neighbours on the edge starting where it starts make a left-aligned block (a summary box).
    const above = nearest(column.members.filter((m) => m.y < it.y), -1);
    const below = nearest(column.members.filter((m) => m.y > it.y), 1);
    const start = Math.round(it.x);
    return !(above && below && Math.round(above.x) === start && Math.round(below.x) === start);
  });
  if (odd.length === 0) return [];
  const list = odd.slice(0, 3).map((it) => `"${it.str.trim()}"`).join(", ");
  return [{ code: "figure_misaligned", severity: "warn", page: page.number, detail: `${list} ${odd.length === 1 ? "ends" : "end"} off the right edge the rest of ${odd.length === 1 ? "its" : "their"} amount column is aligned to.` }];
}

/** The item closest in y on one side (`items` are all above, -1, or all below, 1). */
function nearest(items: TextItem[], direction: 1 | -1): TextItem | undefined {
  let best: TextItem | undefined;
  for (const it of items) if (!best || direction * (it.y - best.y) < 0) best = it;
  return best;
}
