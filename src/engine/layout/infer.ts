import type { Cell } from "./cells.ts";
import { alignedGroups, alignTolerance, clusterIds, type Group } from "./columns.ts";
import type { Column, ColumnRole } from "./header.ts";
import type { Line } from "./lines.ts";

/**
 * Columns of a table printed without a text header (headings drawn as an image, or none): read
 * from the body alone. Lines that start with a date and carry an amount are the rows; their
 * amounts fall into aligned groups, the rightmost of which (present on nearly every row) is the
 * balance. Two other groups are taken as debit then credit, a guess the assembler checks against
 * the balance movements and swaps when the other way round reconciles better.
 */

/** Fewer dated lines with amounts than this is not a table. */
const MIN_ROWS = 3;
/** The balance group must appear on at least this share of the rows. */
const BALANCE_SUPPORT = 0.6;
/** A text column must have a cell on at least this share of the rows. */
const TEXT_SUPPORT = 0.3;

export interface InferredTable {
  columns: Column[];
  /** Index of the first row line: lines before it are outside the table (metadata). */
  start: number;
}

export function inferColumns(lines: Line[]): InferredTable | null {
  const rowIdx: number[] = [];
  lines.forEach((l, i) => {
    if (l.cells[0]?.kind === "date" && l.cells.some((c) => c.kind === "money")) rowIdx.push(i);
  });
  if (rowIdx.length < MIN_ROWS) return null;
  const body = rowIdx.map((i) => lines[i]!);
  const tol = alignTolerance(body[0]);
  const columns: Column[] = [];
  const span = (cells: Cell[]) => cells.reduce((e, c) => ({ x0: Math.min(e.x0, c.x0), x1: Math.max(e.x1, c.x1) }), { x0: Infinity, x1: -Infinity });
  columns.push({ role: "date", label: "", ...span(body.map((l) => l.cells[0]!)) });

  const later = (pred: (c: Cell) => boolean) => body.flatMap((l) => l.cells.slice(1).filter(pred));
  const money = alignedGroups(later((c) => c.kind === "money" || c.kind === "empty"), tol);
  if (money.length === 0) return null;
  const last = money[money.length - 1]!;
  const hasBalance = last.count >= BALANCE_SUPPORT * body.length;
  const sided = hasBalance ? money.slice(0, -1) : money;
  const placed: [ColumnRole, Cell["x0"], Cell["x1"]][] = [];
  if (sided.length >= 2) {
    const [d, c] = sided.slice(-2) as [Group, Group];
    placed.push(["debit", d.x0, d.x1], ["credit", c.x0, c.x1]);
  } else if (sided.length === 1) placed.push(["amount", sided[0]!.x0, sided[0]!.x1]);
  if (hasBalance) placed.push(["balance", last.x0, last.x1]);
  for (const [role, x0, x1] of placed) columns.push({ role, label: "", x0, x1 });

  // Second dates are value dates; text cells left-aligned in clusters are narration, then references.
  const dates = later((c) => c.kind === "date");
  if (dates.length >= TEXT_SUPPORT * body.length) columns.push({ role: "value_date", label: "", ...span(dates) });
  const texts = later((c) => c.kind === "text" || c.kind === "integer");
  if (texts.length > 0) {
    const { ids, sizes } = clusterIds(texts.map((c) => c.x0), tol);
    const byCluster: Cell[][] = sizes.map(() => []);
    texts.forEach((c, i) => byCluster[ids[i]!]!.push(c));
    const clusters = byCluster.map((cells) => ({ size: cells.length, cells })).filter((c) => c.size >= TEXT_SUPPORT * body.length);
    // The widest text is the narration; other text columns hold references or channels.
    const widest = clusters.reduce((w, c) => Math.max(w, ...c.cells.map((x) => x.x1 - x.x0)), 0);
    for (const c of clusters) {
      const isNarration = c.cells.some((x) => x.x1 - x.x0 === widest);
      const refLike = c.cells.every((x) => !/\s/.test(x.text));
      columns.push({ role: isNarration ? "narration" : refLike ? "reference" : "other", label: "", ...span(c.cells) });
    }
  }
  columns.sort((a, b) => a.x0 - b.x0);
  return { columns, start: rowIdx[0]! };
}
