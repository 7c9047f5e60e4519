import { isWrappedDatePart } from "../dates.ts";
import { isCurrencyMark, isEmptyAmount, isSignedCurrencyMark } from "../money.ts";
import { cellKind, type Cell, type CellKind, type Token } from "./cells.ts";
import { timeKeyed } from "./day-headings.ts";
import { type Column, type ColumnRole, labelRole, TIME_LABEL, WORD_ROLES } from "./header.ts";
import type { Line } from "./lines.ts";
import { proseAcross } from "./prose.ts";
import { cutRun, wordStartXs } from "./run-words.ts";

/**
 * Assigns a line's cells to the header's columns. Cells and columns are both in x order, so the
 * assignment is monotone: a dynamic programme over (cell, column) minimises horizontal distance
 * plus a type penalty (a date never goes to an amount column, an amount never to a date column).
 * That keeps right-aligned numbers that overhang their header, left-aligned ones that start under
 * it, and pages whose columns shifted (a blank narration column squeezed away) all in place.
 */

/** Roles that hold at most one cell per line. */
const SINGLE: ReadonlySet<ColumnRole> = new Set(["extra_amount", "date", "time", "value_date", "debit", "credit", "amount", "balance", "balance_before", "drcr", "currency"]);
/** Amount columns; `extra_amount` is a second one of a kind (an available balance), read but not used. */
export const MONEY: ReadonlySet<ColumnRole> = new Set(["debit", "credit", "amount", "balance", "balance_before", "extra_amount"]);
export const TEXTUAL: ReadonlySet<ColumnRole> = new Set(["narration", "reference", "status", "other"]);

/** Cost meaning "never" (a date in an amount column); any real placement costs far less. */
const FORBIDDEN = 1e6;
/** Penalty (in units of page-width percent) for putting a cell where its type rarely goes. */
const UNUSUAL = 6;
/** Penalty for leaving a date or amount in a text column when its own column is free. */
const SOFT = 1;
/** Penalty for a part of a date (a time, a year) in a date column. */
const NEAR_MISS = 0.5;

const MERIDIEM = /^[ap]\.?m\.?$/i;

/** A bare integer with a leading zero or ten or more digits: an identifier, not an ungrouped amount. */
const NEVER_AMOUNT = /^(?:0\d+|\d{10,})$/;

function typeCost(kind: CellKind, role: ColumnRole, text: string): number {
  switch (kind) {
    case "date":
      if (role === "date" || role === "value_date") return 0;
      return TEXTUAL.has(role) ? UNUSUAL : FORBIDDEN;
    case "time":
      if (role === "time") return 0;
      if (role === "date" || role === "value_date") return NEAR_MISS;
      return TEXTUAL.has(role) ? UNUSUAL : FORBIDDEN;
    case "money":
      if (MONEY.has(role)) return 0;
      return TEXTUAL.has(role) ? UNUSUAL : FORBIDDEN;
    case "empty":
      if (MONEY.has(role) || role === "drcr") return 0;
      return TEXTUAL.has(role) ? SOFT : FORBIDDEN;
    case "integer":
      if (role === "reference" || role === "narration" || role === "other") return 0;
      // The year of a date printed over two lines ("02 Dec" / "2024"), or its day ("25" / "January" / "2026").
      if ((role === "date" || role === "value_date") && /^(?:(?:19|20)\d\d|0?[1-9]|[12]\d|3[01])$/.test(text.trim())) return NEAR_MISS;
      // Phone, meter, session and zero-padded reference numbers are never amounts.
      if (NEVER_AMOUNT.test(text.trim())) return FORBIDDEN;
      return MONEY.has(role) ? SOFT : FORBIDDEN;
    case "drcr":
      if (role === "drcr") return 0;
      // A DR/CR marker a narrow amount cell wrapped onto its own line ("1,532.20" / "DR"): it
      // signs that amount, so it stays in its column.
      if (MONEY.has(role)) return NEAR_MISS;
      return TEXTUAL.has(role) ? 0.5 : FORBIDDEN;
    case "text":
      // The meridiem a narrow time cell wrapped onto its own line ("10:05" / "PM").
      if (role === "time") return MERIDIEM.test(text.trim()) ? NEAR_MISS : FORBIDDEN;
      // A currency code a narrow amount cell wrapped onto its own line ("26,532.20" / "NGN"), or
      // the plus sign it wrapped above the figure ("+" / "₦42,381.33"; a lone minus is a dash,
      // which amount columns take as an empty cell's mark anyway).
      if (MONEY.has(role)) return wrappedMark(text) ? NEAR_MISS : FORBIDDEN;
      // A part of a date wrapped in a narrow column ("03 Jan" / "2026," / "AM"), like a bare year or a time.
      if (role === "date" || role === "value_date") return isWrappedDatePart(text) ? NEAR_MISS : FORBIDDEN;
      // A "Type" column may hold words other than DR/CR (Transfer, POS); they are read, not used.
      if (role === "drcr") return NEAR_MISS;
      if (role === "currency") return /^[A-Z]{3}$/.test(text.trim()) ? 0 : FORBIDDEN;
      // A mark alone is rather the money column's, where a band reaches over both (it is no word
      // of a narration); an unnamed column may hold marks of its own, where the mark lies in it,
      // but no nearer than the money column the mark lies in (distance decides between them).
      if (TEXTUAL.has(role)) return wrappedMark(text) ? (role === "other" ? NEAR_MISS : SOFT) : 0;
      return FORBIDDEN;
  }
}

/** A currency mark, with or without a sign or an opening parenthesis (`NGN`, `-NGN`, `(₦`), or a plus sign: what a narrow amount cell wraps onto a line of its own. */
const wrappedMark = (text: string): boolean => text.trim() === "+" || isCurrencyMark(text) || isSignedCurrencyMark(text);

/** Horizontal cost: gap between the cell and the column band, in percent of the page width. */
function distanceCost(cell: Cell, col: Column, width: number): number {
  const overlap = Math.min(cell.x1, col.x1) - Math.max(cell.x0, col.x0);
  if (overlap > 0) {
    // Prefer the column the cell overlaps most (share of the cell inside the band).
    const share = overlap / Math.max(cell.x1 - cell.x0, 1e-6);
    return (1 - share) * 0.5;
  }
  // Outside the band costs more than any overlap does: a narration run that stops a hair short of
  // the next column's start, overlapping its own band, is that band's.
  const gap = -overlap;
  return 0.5 + (gap / width) * 100;
}

/** Per header (the scan assigns every line of a table against one columns array). */
const timedDates = new WeakMap<Column[], boolean>();
function holdsTimeInDate(columns: Column[]): boolean {
  let known = timedDates.get(columns);
  if (known === undefined) {
    known = columns.some((c) => c.role === "date" && TIME_LABEL.test(c.label)) && !columns.some((c) => c.role === "time");
    timedDates.set(columns, known);
  }
  return known;
}

export interface Assigned {
  /** Cells per column index, in x order. */
  byColumn: Cell[][];
  /** Cells that fit no column (a stray mark, a second amount where one is allowed): left out, never guessed. */
  dropped: Cell[];
  /** Total cost of the placement. */
  cost: number;
}

/** Cost of leaving a cell out; above any plausible placement, below a forbidden one. */
const DROP = 12;

/**
 * The dynamic programme's tables, kept for the thread's life and grown when a line needs more:
 * assignCells runs on every line of every table (several hundred thousand cells on a long
 * statement), and two new typed arrays per cell were most of the table scan's garbage.
 */
let costRows = new Float64Array(64);
let backTable = new Int32Array(1024);
let lowestAt = new Int32Array(32);

/**
 * States are "columns 0..s-1 may no longer take a new cell" (s = last used column + 1; 0 = none yet).
 * Each cell is placed in a column at or right of the state, or dropped at cost DROP. O(n * m).
 */
export function assignCells(line: Line, columns: Column[], distanceWeight = 1): Assigned {
  const n = line.cells.length;
  const m = columns.length;
  const byColumn: Cell[][] = columns.map(() => []);
  if (n === 0 || m === 0) return { byColumn, dropped: [...line.cells], cost: n * DROP };
  const width = line.pageWidth || 1;
  const states = m + 1;
  if (costRows.length < 2 * states) costRows = new Float64Array(2 * states);
  if (backTable.length < n * states) backTable = new Int32Array(Math.max(n * states, 2 * backTable.length));
  if (lowestAt.length < states) lowestAt = new Int32Array(states);
  const cost = costRows;
  const back = backTable;
  // cost[prev + s]: best total after the cells so far ending in state s (prev and cur swap halves of
  // one array); back[i * states + s]: the state before cell i, or -1 - state when cell i was dropped.
  let prev = 0;
  let cur = states;
  cost.fill(Infinity, prev, prev + states);
  cost[prev] = 0;
  // A date heading that names a time (`Transaction Date Time`) with no time column beside it holds
  // the row's time too, though printed as a cell of its own a few spaces after the date.
  const timedDate = holdsTimeInDate(columns);
  for (let i = 0; i < n; i++) {
    const cell = line.cells[i]!;
    const bk = i * states;
    cost.fill(Infinity, cur, cur + states);
    back.fill(0, bk, bk + states);
    for (let s = 0; s < states; s++) {
      const dropCost = cost[prev + s]! + DROP;
      if (dropCost < cost[cur + s]!) {
        cost[cur + s] = dropCost;
        back[bk + s] = -1 - s;
      }
    }
    // The first state with the lowest cost among states 0..k, for every k (-1: none reachable).
    let lowest = Infinity;
    let lowestState = -1;
    for (let p = 0; p < states; p++) {
      if (cost[prev + p]! < lowest) {
        lowest = cost[prev + p]!;
        lowestState = p;
      }
      lowestAt[p] = lowestState;
    }
    for (let j = 0; j < m; j++) {
      const col = columns[j]!;
      // A dash inside a text column's band is that text's punctuation ("ENTERPRISES" / "- UCHENNA"
      // wrapped in a name cell), not the placeholder of an amount column beside it.
      const own = cell.kind === "empty" && TEXTUAL.has(col.role) && Math.min(cell.x1, col.x1) > Math.max(cell.x0, col.x0) ? 0 : typeCost(cell.kind, col.role, cell.text);
      if (own >= FORBIDDEN) continue;
      const total = own + distanceWeight * distanceCost(cell, col, width);
      // From states whose last column is left of j, or j itself when it may hold several cells.
      const maxState = SINGLE.has(col.role) && !(timedDate && cell.kind === "time" && col.role === "date") ? j : j + 1;
      const arg = lowestAt[maxState]!;
      const best = arg >= 0 ? cost[prev + arg]! : Infinity;
      if (arg >= 0 && best + total < cost[cur + j + 1]!) {
        cost[cur + j + 1] = best + total;
        back[bk + j + 1] = arg;
      }
    }
    const done = cur;
    cur = prev;
    prev = done;
  }
  let s = 0;
  for (let k = 1; k < states; k++) if (cost[prev + k]! < cost[prev + s]!) s = k;
  const total = cost[prev + s]!;
  const dropped: Cell[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const b = back[i * states + s]!;
    if (b < 0) {
      dropped.unshift(line.cells[i]!);
      s = -1 - b;
    } else {
      byColumn[s - 1]!.unshift(line.cells[i]!);
      s = b;
    }
  }
  return { byColumn, dropped, cost: total };
}


/** Numbers in one column share a right (or left) edge within this many points (sheets: columns). */
const ALIGN_TOLERANCE = 1.5;
/** A group of aligned numbers is column evidence when it has at least this many members. */
const MIN_ALIGNED = 2;

/** A cluster of left-aligned text is column evidence when at least this share of the date lines has a cell in it. */
const MIN_TEXT_SUPPORT = 0.1;

/**
 * Text columns whose label is centred (or offset) over the column: the left edges of the text
 * printed on date lines cluster at the column's real left edge. A cluster whose extent holds the
 * label's centre moves the column's left edge there.
 */
/** Fewer dated lines than this under a header: the producer broke its dates, so rows are told by their amounts. */
const MIN_DATED_LINES = 3;

/**
 * The body lines that are surely table rows: those with a date, or in a table keyed by time
 * (layout/day-headings.ts: its dates stand alone on heading lines) those with a time. When a
 * producer breaks every date over two lines ("01/10/202" over "4", as word processors wrap a
 * narrow cell), none has one and the lines with amounts stand in.
 */
function anchorLines(body: Line[], keyedByTime: boolean): Line[] {
  const key = keyedByTime ? "time" : "date";
  const dated = body.filter((l) => l.cells.some((c) => c.kind === key));
  if (dated.length >= MIN_DATED_LINES) return dated;
  return body.filter((l) => l.cells.some((c) => c.kind === "money"));
}

/**
 * Moves text columns' left edges to where their text starts (see above), learnt from `lines`;
 * `support` is the number of lines a cluster is measured against. Only the columns in `only`
 * when given. Returns the text columns no cluster placed.
 */
function learnTextBands(out: Column[], lines: Line[], tol: number, support: number, only?: ReadonlySet<number>): Set<number> {
  const unplaced = new Set<number>();
  const cells: Cell[] = [];
  for (const line of lines) {
    for (const c of line.cells) if (c.kind === "text" || c.kind === "integer") cells.push(c);
  }
  const { ids, sizes } = clusterIds(cells.map((c) => c.x0), tol);
  const extent = sizes.map(() => ({ x0: Infinity, x1: -Infinity }));
  cells.forEach((c, i) => {
    const e = extent[ids[i]!]!;
    e.x0 = Math.min(e.x0, c.x0);
    e.x1 = Math.max(e.x1, c.x1);
  });
  const minSupport = Math.max(MIN_ALIGNED, MIN_TEXT_SUPPORT * support);
  out.forEach((col, j) => {
    if (!TEXTUAL.has(col.role) || (only && !only.has(j))) return;
    const centre = (col.x0 + col.x1) / 2;
    let best = -1;
    let bestD = Infinity;
    extent.forEach((e, k) => {
      if (sizes[k]! < minSupport || e.x0 > centre || e.x1 < centre) return;
      const d = Math.abs(e.x0 - col.x0);
      if (d < bestD) {
        bestD = d;
        best = k;
      }
    });
    if (best < 0) {
      unplaced.add(j);
      return;
    }
    const e = extent[best]!;
    const prev = out[j - 1];
    // Never reach back over the previous column's own label.
    if (!prev || e.x0 >= prev.x1) col.x0 = Math.min(col.x0, e.x0);
  });
  return unplaced;
}

/**
 * A date column whose label is centred over it: its dates start left of the label, and so do the
 * parts of a date wrapped onto the lines below ("2026," / "PM"), which must lie in the band to
 * continue their row. The band starts at the leftmost date under the label, or left-aligned short
 * of it (a short date under a label centred over a wide cell: DomPDF), never back over the previous
 * column's own label, when enough dated lines agree. In a table keyed by time the time column is
 * the rows' key and is placed the same way by its times ("10:05" / "PM").
 */
function learnDateBands(out: Column[], anchors: Line[], keyedByTime: boolean): void {
  const minSupport = Math.max(MIN_ALIGNED, MIN_TEXT_SUPPORT * anchors.length);
  const kind = keyedByTime ? "time" : "date";
  out.forEach((col, j) => {
    if (keyedByTime ? col.role !== "time" : col.role !== "date" && col.role !== "value_date") return;
    const prev = out[j - 1];
    let x0 = Infinity;
    let support = 0;
    for (const line of anchors) {
      for (const c of line.cells) {
        if (c.kind !== kind) continue;
        // Under the label, or left-aligned short of a label centred over a wider cell (between
        // the previous column's end and the label's start).
        const under = Math.min(c.x1, col.x1) > Math.max(c.x0, col.x0);
        const shortOfLabel = c.x1 <= col.x0 && c.x0 >= (prev?.x1 ?? -Infinity);
        if (!under && !shortOfLabel) continue;
        x0 = Math.min(x0, c.x0);
        support++;
      }
    }
    if (support >= minSupport && (!prev || x0 >= prev.x1)) col.x0 = Math.min(col.x0, x0);
  });
}

/**
 * Share of the dated lines whose runs must show a word starting at one x for that x to be a column
 * edge, and at least this many lines: on a page of three or four rows, words of short narrations
 * line up by chance.
 */
const MIN_GLUED_SUPPORT = 0.5;
const MIN_GLUED_LINES = 5;
/** Share of the runs crossing a column edge that must have a word starting at it. */
const GLUED_EDGE_SHARE = 0.9;

/**
 * A text column printed so close to the one before it that every row's two values come out as one
 * run ("E-CHANNELS SALARY JAN 2024" under Originating Branch and Remarks): the second column's
 * left edge is where a word inside those runs (runs reaching under its heading) starts at the same
 * x on many rows (a left-aligned column; words of free text do not line up). The edge closest to
 * the column's own heading, right of the previous heading's start and left of this heading's
 * centre, moves the column's left edge there, so cutAtColumnEdges parts the runs and the branch
 * stays out of the narration.
 */
function learnGluedEdges(out: Column[], header: Column[], anchors: Line[], tol: number): void {
  if (anchors[0]?.source === "sheet") return;
  out.forEach((col, j) => {
    const prev = header[j - 1];
    if (!prev || !TEXTUAL.has(col.role) || !TEXTUAL.has(prev.role)) return;
    const centre = (header[j]!.x0 + header[j]!.x1) / 2;
    const runs: Cell[] = [];
    const starts: number[] = [];
    for (const line of anchors) {
      for (const c of line.cells) {
        // Evidence of glue is a run that starts before this column's heading and reaches under it:
        // the previous column's own text, however its words line up (every "NIP TRANSFER ..." and
        // "POS PURCHASE ..." has its second word at one x), says nothing of where this one starts.
        if (c.kind !== "text" || !c.words || c.x0 >= header[j]!.x0 || c.x1 <= header[j]!.x0) continue;
        runs.push(c);
        for (const w of c.words.slice(1)) if (w.x0 > prev.x0 + tol && w.x0 <= centre) starts.push(w.x0);
      }
    }
    if (starts.length === 0) return;
    const { ids, sizes } = clusterIds(starts, tol);
    const need = Math.max(MIN_GLUED_LINES, MIN_GLUED_SUPPORT * anchors.length);
    // Each strong cluster's left end; the one nearest the heading is the column's edge.
    const lefts = new Map<number, number>();
    starts.forEach((x, i) => {
      const id = ids[i]!;
      if (sizes[id]! >= need) lefts.set(id, Math.min(lefts.get(id) ?? Infinity, x));
    });
    // A column edge parts every run that crosses it at a word start; a word that recurs only in
    // narrations of one template ("NIP TRANSFER", "POS PURCHASE @") is crossed mid-word by the rest.
    const edges = [...lefts.values()].filter((x) => {
      const crossing = runs.filter((c) => c.x0 < x - tol && c.x1 > x + tol);
      const parted = crossing.filter((c) => c.words!.some((w) => Math.abs(w.x0 - x) <= tol));
      return crossing.length > 0 && parted.length >= GLUED_EDGE_SHARE * crossing.length;
    });
    if (edges.length === 0) return;
    const edge = Math.max(...edges);
    if (edge >= col.x0) return;
    col.x0 = edge;
    const before = out[j - 1]!;
    // Ending the previous band short of the edge: a cell starting at the edge then belongs here, not there.
    before.x1 = Math.min(before.x1, edge - tol);
    if (before.x1 < before.x0) before.x1 = before.x0;
  });
}

/** Gap left between a text band and the next column, in average label character widths. */
const TEXT_BAND_MARGIN = 1;

export interface Group {
  x0: number;
  x1: number;
  count: number;
}

/** Clusters values that lie within ALIGN_TOLERANCE of their neighbour; returns a cluster id per input. */
export function clusterIds(values: number[], tol: number): { ids: number[]; sizes: number[] } {
  // This runs on every page's cells (three times per repeated header): the values are sorted as
  // numbers, natively, and each input finds its cluster by binary search. Equal values always
  // share a cluster, so this gives what sorting the inputs themselves gives.
  const sorted = Float64Array.from(values).sort();
  // NaN and infinities (never seen in practice) take the general path, which orders them its own way.
  if (sorted.length === 0 || !(tol >= 0) || !Number.isFinite(sorted[0]!) || !Number.isFinite(sorted[sorted.length - 1]!)) return clusterIdsBySort(values, tol);
  const clusterAt = new Int32Array(sorted.length);
  const sizes: number[] = [];
  let id = -1;
  let prev = -Infinity;
  for (let k = 0; k < sorted.length; k++) {
    const v = sorted[k]!;
    if (v - prev > tol) {
      id++;
      sizes.push(0);
    }
    clusterAt[k] = id;
    sizes[id]!++;
    prev = v;
  }
  const ids = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    ids[i] = clusterAt[lo]!;
  }
  return { ids, sizes };
}

function clusterIdsBySort(values: number[], tol: number): { ids: number[]; sizes: number[] } {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ids = new Array<number>(values.length).fill(0);
  const sizes: number[] = [];
  let id = -1;
  let prev = -Infinity;
  for (const [v, i] of order) {
    if (v - prev > tol) {
      id++;
      sizes.push(0);
    }
    ids[i] = id;
    sizes[id]!++;
    prev = v;
  }
  return { ids, sizes };
}

/**
 * Widens the amount columns to the extents of the numbers printed under them. Headers are often
 * left-aligned while numbers are right-aligned to the cell's far edge (Zenith), so header extents
 * alone misplace numbers; numbers of one column share an edge, which finds the real bands.
 */
/** Horizontal tolerance for aligned edges: points on a page, a fifth of a column in a sheet. */
export const alignTolerance = (line: Line | undefined) => (line?.source === "sheet" ? 0.2 : ALIGN_TOLERANCE);

/**
 * Groups of amounts printed in one column: each cell joins the larger of its right-edge and
 * left-edge clusters, and groups that overlap (one column seen through both edges) merge.
 */
export function alignedGroups(cells: Cell[], tol: number): Group[] {
  const right = clusterIds(cells.map((c) => c.x1), tol);
  const left = clusterIds(cells.map((c) => c.x0), tol);
  // Keyed by cluster: right-edge cluster r as 2r, left-edge cluster l as 2l + 1.
  const groups = new Map<number, Group>();
  cells.forEach((c, i) => {
    const r = right.ids[i]!;
    const l = left.ids[i]!;
    const key = right.sizes[r]! >= left.sizes[l]! ? 2 * r : 2 * l + 1;
    const g = groups.get(key);
    if (g) {
      g.x0 = Math.min(g.x0, c.x0);
      g.x1 = Math.max(g.x1, c.x1);
      g.count++;
    } else groups.set(key, { x0: c.x0, x1: c.x1, count: 1 });
  });
  const list = [...groups.values()].filter((g) => g.count >= MIN_ALIGNED).sort((a, b) => a.x0 - b.x0);
  const merged: Group[] = [];
  for (const g of list) {
    const last = merged[merged.length - 1];
    if (last && Math.min(last.x1, g.x1) - Math.max(last.x0, g.x0) > 0.5 * Math.min(last.x1 - last.x0, g.x1 - g.x0)) {
      last.x0 = Math.min(last.x0, g.x0);
      last.x1 = Math.max(last.x1, g.x1);
      last.count += g.count;
    } else merged.push({ ...g });
  }
  return merged;
}

/**
 * A table with debit and credit columns and a separate amount column, each with its own column of
 * figures (wide app exports: transaction amount, charge, settlement debit, settlement credit):
 * the debit and credit are the movement; the amount is the gross figure before charges, read but
 * not used. (An "Amount" heading without figures of its own is a group heading over the two.)
 */
function settleOnSides(columns: Column[]): void {
  if (!mayHaveGrossAmount(columns)) return;
  for (const c of columns) if (c.role === "amount") c.role = "extra_amount";
}

/**
 * In a sheet every heading is a cell of its own column; a group heading over debit and credit is a
 * merged cell shown in the first column it covers. An amount heading in a column that is neither
 * the debit's nor the credit's heads a column of its own.
 */
function amountInOwnCell(columns: Column[]): boolean {
  const overlaps = (a: Column, b: Column) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0;
  const sides = columns.filter((c) => c.role === "debit" || c.role === "credit");
  return columns.some((c) => c.role === "amount" && sides.every((s) => !overlaps(c, s)));
}

/**
 * The amount, debit and credit headings each stand over a column of figures of their own (three
 * different aligned groups): the amount is a figure beside the movement (a Transaction Amount
 * beside Settlement Debit and Settlement Credit), never a group heading over the two. It is settled
 * on the sides whatever the total count of groups (charge and fee columns of zeros, and placeholders,
 * make that count unreliable on wide exports).
 */
function eachSideHasFigures(columns: Column[], groups: Group[]): boolean {
  const under = (role: ColumnRole) => {
    const col = columns.find((c) => c.role === role);
    return col ? groups.flatMap((g, k) => (Math.min(g.x1, col.x1) - Math.max(g.x0, col.x0) > 0 ? [k] : [])) : [];
  };
  const [amount, debit, credit] = [under("amount"), under("debit"), under("credit")];
  return amount.some((a) => debit.some((d) => d !== a && credit.some((c) => c !== a && c !== d)));
}

/** Debit, credit and amount columns all present: the only case settleOnSides changes anything (checked before counting the figures' groups, once per repeated header). */
const mayHaveGrossAmount = (columns: Column[]): boolean =>
  columns.some((c) => c.role === "debit") && columns.some((c) => c.role === "credit") && columns.some((c) => c.role === "amount");

/**
 * A "Debit/Credit" heading over a column of figures, in a table without another movement column:
 * the column holds signed amounts (+/-), not DR/CR markers.
 */
function signedSideColumn(columns: Column[], groups: Group[]): void {
  if (columns.some((c) => c.role === "amount" || c.role === "debit" || c.role === "credit")) return;
  const side = columns.find((c) => c.role === "drcr" && groups.some((g) => Math.min(g.x1, c.x1) - Math.max(g.x0, c.x0) > 0));
  if (side) side.role = "amount";
}

/**
 * A heading run that reads as one money heading and as several (header.ts `merged`) is several
 * when as many columns of figures (or of placeholders for none) stand under it: the body, not the
 * wording, tells "Amount(₦) Closing Balance" over two columns from "Debit Amount" over one. The
 * parts keep the run's own proportional extents; widenColumns then places each on its figures. A repeated header's run is
 * split as the first page's (`first`) was: a last page of a row or two shows too few figures.
 */
export function splitMergedHeadings(columns: Column[], body: Line[], first: readonly Column[] | null = null): Column[] {
  if (!columns.some((c) => c.merged)) return columns;
  // Placeholders for no amount (`-`) stand in a money column too: a page of debits alone shows its
  // credit column only as a column of dashes.
  const figures = anchorLines(body, timeKeyed(columns)).flatMap((l) => l.cells.filter((c) => c.kind === "money" || (c.kind === "empty" && c.text.trim() !== "")));
  const groups = alignedGroups(figures, alignTolerance(body[0]));
  const tol = RUN_EDGE_TOLERANCE * (body[0]?.h ?? 0);
  return columns.flatMap(({ merged, ...c }) => {
    if (!merged) return [c];
    const again = first ? cutAsBefore(c, first, tol) : null;
    if (again) return again;
    // As many columns of figures as the run names money headings (its other headings have none).
    const under = groups.filter((g) => Math.min(g.x1, c.x1) > Math.max(g.x0, c.x0));
    return under.length >= merged.filter((p) => MONEY.has(p.role)).length ? merged : [c];
  });
}

/** Cells of the body that must start where a heading's word does before it counts as two headings. */
const RUN_EDGE_CELLS = 3;
/** A word's start may lie this many glyph heights from the body's cell edges and still be on them. */
const RUN_EDGE_TOLERANCE = 0.5;
/** How far (in tolerances) an estimated start may lie from the body's cell edges. */
const RUN_ESTIMATE = 2;

/**
 * A heading run that holds two headings one word space apart (`Description Tag`, `Channel Status`
 * in a fixed-width font): the body shows it when cells of words start right where a later word of
 * the run does and no cell runs across that point. The run is cut there; each part takes the role
 * its words name, unless another column holds that role already. A repeated header's run is cut as
 * the first page's (`first`) was.
 */
export function splitRunTogetherHeadings(columns: Column[], body: Line[], first: readonly Column[] | null = null): Column[] {
  // A footer sentence printed across the table runs over every column edge.
  const cells = body.filter((l) => l.source === "pdf" && !proseAcross(columns, l)).flatMap((l) => l.cells);
  if (cells.length === 0) return columns;
  const tol = RUN_EDGE_TOLERANCE * body[0]!.h;
  const proportional = !body[0]!.fixedWidth;
  const out = columns.flatMap((c) => {
    // Money headings over two columns of figures are splitMergedHeadings'.
    if (c.merged || !/\s/.test(c.label)) return [c];
    // A repeated header is cut as the first page's was: a last page of one row shows no edge.
    const again = first ? cutAsBefore(c, first, tol) : null;
    if (again) return again;
    const run = { text: c.label, x0: c.x0, x1: c.x1, kind: "text" as const };
    const inside = cells.filter((u) => Math.min(u.x1, c.x1) > Math.max(u.x0, c.x0));
    const starts = wordStartXs(run, proportional);
    const edges = starts.filter((x) => {
      // Words, not figures: figures right-aligned to one width all start at one point, no edge.
      // The word's start and some cells' are estimated from a run's character widths (a bold
      // heading; a balance and the narration after it drawn as one string): cells starting within
      // RUN_ESTIMATE tolerances of it start there, when no other word of the run (nor its start)
      // is nearer, and only a cell reaching further both ways crosses it.
      const near = (u: Cell) => Math.abs(u.x0 - x) <= RUN_ESTIMATE * tol && [run.x0, ...starts].every((w) => w === x || Math.abs(u.x0 - x) <= Math.abs(u.x0 - w));
      // Times count as words (`Transaction Date Time` over a date and a time cell apart).
      const starting = inside.filter((u) => (u.kind === "text" || u.kind === "time") && near(u)).length;
      // A body cell may run across the point only where it is itself two cells one word space apart.
      const across = inside.filter((u) => u.x0 < x - RUN_ESTIMATE * tol && u.x1 > x + RUN_ESTIMATE * tol && !wordStartXs(u).some((w) => Math.abs(w - x) <= tol));
      return starting >= RUN_EDGE_CELLS && across.length === 0;
    });
    const parts = cutRun(run, edges, tol, proportional).map((p) => ({ role: labelRole(p.text) ?? ("other" as const), label: p.text, x0: p.x0, x1: p.x1 }));
    const taken = (role: ColumnRole) => role !== "other" && columns.some((o) => o !== c && o.role === role && !adopted(o));
    return parts.length > 1 && !parts.some((p) => taken(p.role)) ? parts : [c];
  });
  // A narration heading found inside a run outranks the one adoptNarration chose for want of it.
  const named = out.some((c) => c.role === "narration" && !adopted(c));
  return named && out.length > columns.length ? out.map((c) => (adopted(c) ? { ...c, role: "other" as const } : c)) : out;
}

/** A narration column so called only because no heading named one (header.ts adoptNarration). */
const adopted = (c: Column): boolean => c.role === "narration" && labelRole(c.label) === null;

/**
 * The first header's columns that a run of this header starts in and spells out, in order, or
 * null. The run starts where the first header's heading did, or inside that column's band: the
 * band may have been widened to the left over figures wider than their heading.
 */
function cutAsBefore(c: Column, first: readonly Column[], tol: number): Column[] | null {
  const k = first.findIndex((f) => c.x0 >= f.x0 - tol && c.x0 <= Math.max(f.x0 + tol, Math.min(f.x1, c.x1)) && c.label.startsWith(`${f.label} `));
  if (k < 0) return null;
  let label = first[k]!.label;
  for (let n = k + 1; n < first.length; n++) {
    label = `${label} ${first[n]!.label}`;
    if (label === c.label) return first.slice(k, n + 1).map((f) => ({ ...f }));
    if (!c.label.startsWith(`${label} `)) return null;
  }
  return null;
}

export function widenColumns(columns: Column[], body: Line[]): Column[] {
  const keyedByTime = timeKeyed(columns);
  // A footer sentence's date (on every page, under the date column) is no column's evidence.
  const anchors = anchorLines(body.filter((l) => l.source !== "pdf" || !proseAcross(columns, l)), keyedByTime);
  const cells: Cell[] = [];
  for (const line of anchors) {
    for (const c of line.cells) if (c.kind === "money" || c.kind === "empty") cells.push(c);
  }
  const t = alignTolerance(body[0]);
  const merged = alignedGroups(cells, t);
  const out = columns.map((c) => ({ ...c }));
  signedSideColumn(out, merged);
  const moneyIdx = out.map((c, i) => (MONEY.has(c.role) ? i : -1)).filter((i) => i >= 0);
  const widen = (j: number, g: Group) => {
    const col = out[j]!;
    col.x0 = Math.min(col.x0, g.x0);
    col.x1 = Math.max(col.x1, g.x1);
  };
  if (merged.length === moneyIdx.length) {
    merged.forEach((g, k) => widen(moneyIdx[k]!, g));
  } else {
    for (const g of merged) {
      if (inNarrationSlot(g, columns)) continue;
      let best = -1;
      let bestD = Infinity;
      for (const j of moneyIdx) {
        const col = columns[j]!;
        const d = Math.max(0, Math.max(col.x0, g.x0) - Math.min(col.x1, g.x1));
        if (d < bestD) {
          bestD = d;
          best = j;
        }
      }
      if (best >= 0) widen(best, g);
    }
  }
  // Placeholders alone ("-" under a terminal id) do not make a column of figures.
  // Every line's figures count here: a centred row may print its date on a line of its own.
  if (mayHaveGrossAmount(out)) {
    const figures = body.flatMap((l) => l.cells.filter((c) => c.kind === "money"));
    const groups = alignedGroups(figures, t);
    const sheet = body[0]?.source === "sheet";
    if (groups.length === moneyIdx.length || (sheet ? amountInOwnCell(columns) : eachSideHasFigures(columns, groups))) settleOnSides(out);
  }
  const unplaced = learnTextBands(out, anchors, t, anchors.length);
  // A narration wrapped around a centred row's middle may print nothing on the date line: its own
  // lines then place the column.
  if (unplaced.size > 0) learnTextBands(out, body, t, anchors.length, unplaced);
  learnDateBands(out, anchors, keyedByTime);
  // Text and date columns are left-aligned under their label and run up to the next column.
  for (let j = 0; j + 1 < out.length; j++) {
    const col = out[j]!;
    if (MONEY.has(col.role)) continue;
    col.x1 = Math.max(col.x1, out[j + 1]!.x0 - TEXT_BAND_MARGIN * (col.x1 - col.x0) / Math.max(col.label.length, 1));
  }
  // The last column, when it holds text, runs to the page edge.
  const lastCol = out[out.length - 1];
  const pageWidth = body[0]?.pageWidth;
  if (lastCol && !MONEY.has(lastCol.role) && pageWidth !== undefined && body[0]?.source === "pdf") lastCol.x1 = Math.max(lastCol.x1, pageWidth);
  // A widened band never reaches into a neighbour's own header label.
  for (let j = 0; j < out.length; j++) {
    const col = out[j]!;
    const prev = columns[j - 1];
    const next = columns[j + 1];
    if (prev) col.x0 = Math.max(col.x0, prev.x1);
    if (next) col.x1 = Math.min(col.x1, next.x0);
    if (col.x1 < col.x0) col.x1 = col.x0;
  }
  // After that: the edge is read from the rows themselves, which outweighs a heading printed wider than its column.
  learnGluedEdges(out, columns, anchors, t);
  return out;
}

/**
 * Figures from a narration's slot (its heading's start to the next heading's): a narration that
 * prints an amount (`POS ... SHOPRITE NGN 19,326.61`) makes a group of its own, which widening
 * the nearest money column to it would stretch over the narration.
 */
function inNarrationSlot(g: Group, columns: Column[]): boolean {
  return columns.some((c, j) => WORD_ROLES.has(c.role) && c.x0 <= g.x0 && j + 1 < columns.length && g.x1 <= columns[j + 1]!.x0);
}

/** A word starting this close before a column's left edge (share of the glyph height) still starts that column. */
const EDGE_TOLERANCE = 0.3;

/**
 * Cuts text cells that run across the left edge of a text column: a narration printed one space
 * before its reference ("... BALOGUN UBA 000015245662929323") arrives as one run of text, and one
 * that fills its cell before a Type column (`... expenses 92 Debit`) likewise.
 */
export function cutAtColumnEdges(line: Line, columns: Column[]): Line {
  const edges = columns.filter((c, j) => j > 0 && (TEXTUAL.has(c.role) || c.role === "drcr" || c.role === "currency")).map((c) => c.x0);
  // Placeholders stand on a row's line of figures: on a line of text alone a `-` is the text's.
  const placeholderEnds = line.cells.some((c) => c.kind === "text" && c.words !== undefined && isEmptyAmount(c.words[c.words.length - 1]!.text));
  const moneyEdges = placeholderEnds && line.cells.some((c) => c.kind === "money") ? columns.filter((c, j) => j > 0 && MONEY.has(c.role)).map((c) => c.x0) : [];
  if ((edges.length === 0 && moneyEdges.length === 0) || line.source === "sheet") return line;
  // A word is cut off where it starts a text column, or where a placeholder for no amount (`-`)
  // ending the cell starts a money column on a line of figures: a left-aligned empty debit printed
  // one space after a reference that fills its cell.
  const cuts = (start: number, prev: Token, w: Token, last: boolean) =>
    cutsBefore(start, prev, w, edges, line.h) || (last && isEmptyAmount(w.text) && startsPast(start, w, moneyEdges, line.h));
  // Nearly every line has nothing to cut: it is answered before any cell is rebuilt.
  if (!line.cells.some((cell) => crossesEdge(cell, cuts))) return line;
  let changed = false;
  const cells: Cell[] = [];
  for (const cell of line.cells) {
    const words = cell.words;
    if (cell.kind !== "text" || !words || words.length < 2) {
      cells.push(cell);
      continue;
    }
    let piece: typeof words = [words[0]!];
    const flush = () => {
      const text = piece.map((w) => w.text).join(" ");
      // A piece cut off at a Type column's edge may be its DR/CR marker, typed as one (and a
      // money column's placeholder as no amount).
      const kind = cellKind(text);
      cells.push({ text, x0: piece[0]!.x0, x1: piece[piece.length - 1]!.x1, kind: kind === "drcr" || kind === "empty" ? kind : "text", words: piece });
    };
    for (let k = 1; k < words.length; k++) {
      const w = words[k]!;
      if (cuts(piece[0]!.x0, words[k - 1]!, w, k === words.length - 1)) {
        flush();
        piece = [w];
        changed = true;
      } else piece.push(w);
    }
    flush();
  }
  return changed ? { ...line, cells } : line;
}

/** Some word of a text cell after its first starts a column its first word is before (the cut test above). */
function crossesEdge(cell: Cell, cuts: (start: number, prev: Token, w: Token, last: boolean) => boolean): boolean {
  const words = cell.words;
  if (cell.kind !== "text" || !words || words.length < 2) return false;
  for (let k = 1; k < words.length; k++) if (cuts(words[0]!.x0, words[k - 1]!, words[k]!, k === words.length - 1)) return true;
  return false;
}

/** A word starts at or past an edge its run starts before (no leeway for estimated places). */
function startsPast(start: number, w: Token, edges: number[], h: number): boolean {
  const tol = EDGE_TOLERANCE * h;
  return edges.some((e) => start < e - tol && w.x0 >= e - tol);
}

/** A gap between two words wider than this share of the glyph height is more than a word space (~0.25). */
const CELL_GAP = 0.4;
/** A cell's text starts at most this many glyph heights before its heading's start (padding differs a little). */
const NEAR_EDGE = 0.75;
/** How far before an edge a word placed by estimate (Token.guessed) may start and still be the column's first word. */
const GUESSED_EDGE = 0.6;

/**
 * Whether a run that starts at `start` is cut before word `w`: the word starts at or past a text
 * column's left edge, or just before it and lies mostly past it, after a gap wider than a word
 * space, the word before it ending before the edge (a cell left-aligned a little inside its
 * heading's start: `TRX… Inflow` under Reference and Tag). A narration's last word that overflows
 * into the next column starts well before its edge, and stays. A word whose place was estimated
 * inside one drawn string (`… LAGOS NG Successful` under Narration and Status, a spreadsheet's
 * cells printed a space apart) may be off by a point or so: it starts the column when it starts
 * a little before the edge and lies mostly past it.
 */
function cutsBefore(start: number, prev: Token, w: Token, edges: number[], h: number): boolean {
  const tol = EDGE_TOLERANCE * h;
  for (const e of edges) {
    if (start >= e - tol) continue;
    if (w.x0 >= e - tol) return true;
    if (w.guessed && w.x0 >= e - GUESSED_EDGE * h && (w.x0 + w.x1) / 2 >= e) return true;
    if (prev.x1 <= e && w.x0 >= e - NEAR_EDGE * h && (w.x0 + w.x1) / 2 >= e && w.x0 - prev.x1 >= CELL_GAP * h) return true;
  }
  return false;
}
