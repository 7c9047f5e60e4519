import type { Cell } from "./cells.ts";
import { assignCells, cutAtColumnEdges, widenColumns } from "./columns.ts";
import { type Column, type ColumnRole, type Header, headerAt } from "./header.ts";
import type { Line } from "./lines.ts";

/**
 * Walks a document's lines and assembles table rows. A row starts at a line with a date in the
 * row-date column; lines without a date extend the narration/reference of the row they belong to
 * (below it, or above it when the producer centres multi-line cells vertically, as PalmPay does).
 * Repeated headers, page footers, opening-balance and totals lines are recognised and kept apart.
 */

/** Text of each role of one row, continuation lines included. */
export type RoleTexts = Partial<Record<ColumnRole, string>>;

export interface RowDraft {
  page: number;
  y: number;
  cells: RoleTexts;
  /** Baseline of the row's last line so far. */
  lastY: number;
  /** The date cell of the row's own line (continuations may add to the date column). */
  dateText: string;
  /** Text on the row's line that fit no column (reported in the checks notes, never guessed into a field). */
  dropped: string[];
}

/** An undated line with amounts: an opening-balance line before the rows, a totals/closing line after. */
export interface AmountLine {
  cells: RoleTexts;
  text: string;
  /** Index of the next row at the time the line was seen (0 = before any row). */
  rowIndex: number;
}

export interface TableScan {
  rows: RowDraft[];
  amountLines: AmountLine[];
  /** Lines outside any table (metadata blocks, footers): used for metadata and bank detection. */
  outside: Line[];
  /** Header labels seen, for bank detection. */
  headerText: string;
  /** The columns of the first header, or null when no table header was found. */
  columns: Column[] | null;
}

/** A continuation line belongs to a row when it lies within this many glyph heights of the row's last line. */
const CONTINUATION_GAP = 2.6;
/** A line above a row's date line counts as part of that row when closer than this share of the glyph height. */
const HUG_DISTANCE = 0.85;
/** Totals/closing lines are looked for within this many glyph heights after the previous table line. */
const TRAILER_GAP = 6;
/** Weight of horizontal distance when the columns come from a header on another page (layout may shift). */
const FOREIGN_HEADER_DISTANCE_WEIGHT = 0.25;
/** Sheet cells sit exactly in their column: distance outweighs every type preference. */
const SHEET_DISTANCE_WEIGHT = 10;

const PAGE_FOOTER = /^(?:page\s*\d+(?:\s*(?:of|\/)\s*\d+)?|\d+\s*(?:of|\/)\s*\d+|\d{1,4}|continued.*|.*(?:page)\s+\d+\s+of\s+\d+.*)$/i;

interface Pending {
  line: Line;
  parts: RoleTexts;
  /** Index in rows of the row above on the same page, or -1. */
  prevRow: number;
}

export function scanTable(lines: Line[]): TableScan {
  const rows: RowDraft[] = [];
  const amountLines: AmountLine[] = [];
  const outside: Line[] = [];
  const pendings: Pending[] = [];
  let header: Header | null = null;
  let firstColumns: Column[] | null = null;
  let headerPage = -1;
  let headerText = "";
  let lastTableY = -Infinity;
  let lastTablePage = -1;
  // Index of the first row on the current page; rows before it belong to earlier pages.
  let pageFirstRow = 0;
  let page = -1;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.page !== page) {
      page = line.page;
      pageFirstRow = rows.length;
    }
    if (line.cells.length === 0) continue;
    const h = headerAt(lines, i);
    if (h) {
      const body: Line[] = [];
      for (let j = i + h.lineCount; j < lines.length && lines[j]!.page === line.page; j++) body.push(lines[j]!);
      header = { ...h, columns: widenColumns(h.columns, body) };
      firstColumns ??= header.columns;
      headerPage = line.page;
      headerText += ` ${h.columns.map((c) => c.label).join(" ")}`;
      const lastLine = lines[i + h.lineCount - 1]!;
      lastTableY = lastLine.y;
      lastTablePage = line.page;
      i += h.lineCount - 1;
      continue;
    }
    if (!header) {
      outside.push(line);
      continue;
    }
    const columns = header.columns;
    const weight = line.source === "sheet" ? SHEET_DISTANCE_WEIGHT : headerPage === line.page ? 1 : FOREIGN_HEADER_DISTANCE_WEIGHT;
    const assigned = assignCells(cutAtColumnEdges(line, columns), columns, weight);
    // A line most of whose cells fit no column is not part of the table.
    if (assigned.dropped.length * 2 > line.cells.length) {
      outside.push(line);
      continue;
    }
    const parts = textsByRole(columns, assigned.byColumn);
    const dateIdx = columns.findIndex((c) => c.role === "date");
    const dateCell = dateIdx >= 0 ? assigned.byColumn[dateIdx]![0] : undefined;
    const hasMoney = columns.some((c, j) => isMoneyRole(c.role) && assigned.byColumn[j]!.some((x) => x.kind === "money"));
    const near = line.page === lastTablePage && line.y - lastTableY <= TRAILER_GAP * line.h;

    if (dateCell?.kind === "date") {
      rows.push({ page: line.page, y: line.y, cells: parts, lastY: line.y, dateText: dateCell.text, dropped: assigned.dropped.map((c) => c.text) });
      lastTableY = line.y;
      lastTablePage = line.page;
      continue;
    }
    if (hasMoney) {
      const sameTable = near || OPENING_LABEL.test(line.text) || CLOSING_LABEL.test(line.text);
      if (sameTable) {
        amountLines.push({ cells: parts, text: line.text, rowIndex: rows.length });
        lastTableY = line.y;
        lastTablePage = line.page;
      } else {
        outside.push(line);
      }
      continue;
    }
    if (PAGE_FOOTER.test(line.text.trim())) {
      outside.push(line);
      continue;
    }
    // Text that runs across the table (a disclaimer between rows) is not part of any row.
    if (!withinBands(columns, assigned.byColumn)) {
      outside.push(line);
      continue;
    }
    const prevRow = rows.length > pageFirstRow ? rows.length - 1 : -1;
    pendings.push({ line, parts, prevRow });
  }

  attachContinuations(rows, pendings, outside);
  outside.sort((a, b) => a.page - b.page || a.y - b.y);
  return { rows, amountLines, outside, headerText, columns: firstColumns };
}

const isMoneyRole = (r: ColumnRole) => r === "debit" || r === "credit" || r === "amount" || r === "balance";

export const OPENING_LABEL = /opening\s*bal|bal(?:ance)?\.?\s*b\/?f|brought\s*f(?:or)?w(?:ar)?d|balance\s+brought|previous\s+balance|beginning\s+balance|balance\s+forward|start(?:ing)?\s+balance/i;
export const CLOSING_LABEL = /closing\s*bal|bal(?:ance)?\.?\s*c\/?f|carried\s*f(?:or)?w(?:ar)?d|\btotals?\b|ending\s+balance|final\s+balance/i;

/** A continuation cell must lie mostly inside its column's band (share of its own width). */
const MIN_BAND_SHARE = 0.6;

function withinBands(columns: Column[], byColumn: Cell[][]): boolean {
  return columns.every((col, j) =>
    byColumn[j]!.every((c) => {
      const w = c.x1 - c.x0;
      if (w <= 0) return true;
      return (Math.min(c.x1, col.x1) - Math.max(c.x0, col.x0)) / w >= MIN_BAND_SHARE;
    }),
  );
}

function textsByRole(columns: Column[], byColumn: Cell[][]): RoleTexts {
  const out: RoleTexts = {};
  columns.forEach((c, j) => {
    const cells = byColumn[j]!;
    if (cells.length === 0) return;
    const text = cells.map((x) => x.text).join(" ");
    out[c.role] = out[c.role] ? `${out[c.role]} ${text}` : text;
  });
  return out;
}

/**
 * Attaches undated text lines to rows. When some line sits tight above a row's date line (closer
 * than HUG_DISTANCE glyph heights), the producer centres cells vertically and every line goes to
 * the nearer row; otherwise lines continue the row above them.
 */
function attachContinuations(rows: RowDraft[], pendings: Pending[], outside: Line[]): void {
  if (pendings.length === 0) return;
  const nextRowOf = (p: Pending) => {
    const n = p.prevRow + 1;
    const r = rows[n];
    // rows pushed after the pending line on the same page follow it.
    if (p.prevRow === -1) {
      const idx = rows.findIndex((x) => x.page === p.line.page && x.y > p.line.y);
      return idx;
    }
    return r && r.page === p.line.page && r.y > p.line.y ? n : -1;
  };
  const hugs = (p: Pending, next: number) => {
    const r = rows[next];
    if (!r) return false;
    const dNext = r.y - p.line.y;
    const prev = p.prevRow >= 0 ? rows[p.prevRow] : undefined;
    const dPrev = prev ? p.line.y - prev.y : Infinity;
    return dNext < HUG_DISTANCE * p.line.h && dNext < dPrev;
  };
  const centred = pendings.some((p) => {
    const next = nextRowOf(p);
    return next >= 0 && hugs(p, next);
  });

  // Lines above a row are prepended in order; collect them first so several stack correctly.
  const above = new Map<number, Pending[]>();
  for (const p of pendings) {
    const next = nextRowOf(p);
    const prev = p.prevRow >= 0 ? rows[p.prevRow] : undefined;
    const dPrev = prev ? p.line.y - prev.lastY : Infinity;
    const dNext = next >= 0 ? rows[next]!.y - p.line.y : Infinity;
    const limit = CONTINUATION_GAP * p.line.h;
    if (centred && next >= 0 && dNext < dPrev && dNext <= limit) {
      const list = above.get(next) ?? [];
      list.push(p);
      above.set(next, list);
    } else if (prev && dPrev <= limit) {
      appendParts(prev, p.parts, "after");
      prev.lastY = p.line.y;
    } else {
      outside.push(p.line);
    }
  }
  for (const [idx, list] of above) {
    const row = rows[idx]!;
    for (const p of list.reverse()) appendParts(row, p.parts, "before");
  }
}

function appendParts(row: RowDraft, parts: RoleTexts, where: "before" | "after"): void {
  for (const [role, text] of Object.entries(parts) as [ColumnRole, string][]) {
    const have = row.cells[role];
    if (!have) {
      row.cells[role] = text;
      continue;
    }
    // References wrap mid-token; narrations wrap between words.
    const sep = role === "reference" && /\w$/.test(where === "after" ? have : text) && /^\w/.test(where === "after" ? text : have) ? "" : " ";
    row.cells[role] = where === "after" ? `${have}${sep}${text}` : `${text}${sep}${have}`;
  }
}
