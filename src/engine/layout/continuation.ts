import { scanDate, TIME_ONLY } from "../dates.ts";
import { CONTINUATION_GAP, type Pending, type RoleTexts, type RowDraft, type TextPiece } from "./draft.ts";
import { type ColumnRole, TEXT_ROLES } from "./header.ts";
import type { Line } from "./lines.ts";

/** Two gaps count as equal (no visible row separation) when they differ by less than this share. */
const GAP_TIE = 0.2;

interface Block {
  prev: number;
  next: number;
  lines: Pending[];
  /** Index in `lines` of the first line that goes to the next row (lines before it go to the previous row). */
  split: number;
  /** The split was a tie between gaps; the document's majority decides it. */
  tie: boolean;
  /** Top-of-page lines that end the last row of the page before (vertically centred documents). */
  carried: number;
  /** Points a line may lie from the one before it and still continue its row (see lineReach). */
  reach: number;
  /** The widest gap stands out from every other (DECISIVE_GAP): it, not the rows' centring, splits the block. */
  decisive: boolean;
  /** Lines from `split` on head the next page's first row (see footSplit). */
  toNextPage?: boolean;
}

/**
 * The gaps of a block between two rows (gaps[t] lies before lines[t]; gaps[k], before the next
 * row's date line), from the row above's last line on. Each is measured from the lowest line
 * above it: a line printed above the row's last (a value date centred in its own cell, or the
 * rest of a date wrapped down past it) opens no gap.
 */
function blockGaps(b: Block, rows: RowDraft[]): number[] {
  const ys = [...b.lines.map((p) => p.line.y), rows[b.next]!.y];
  let lowest = rows[b.prev]!.lastY;
  return ys.map((y) => {
    const gap = y - lowest;
    lowest = Math.max(lowest, y);
    return gap;
  });
}

/**
 * Attaches undated text lines to rows. The lines between two date lines form a block; the widest
 * vertical gap in the block separates the rows, so lines before it continue the row above (top-
 * aligned cells) and lines after it belong to the row below (bottom-aligned or vertically centred
 * cells, as PalmPay and some bank exports print). Where no gap stands out, the document's clear
 * blocks decide, and below wins when the document has none.
 */
export function attachContinuations(rows: RowDraft[], pendings: Pending[], outside: Line[]): void {
  attachPendings(rows, pendings, outside);
  orderPieces(rows);
}

function attachPendings(rows: RowDraft[], pendings: Pending[], outside: Line[]): void {
  if (pendings.length === 0) return;
  const blocks: Block[] = [];
  for (const p of pendings) {
    const last = blocks[blocks.length - 1];
    if (last && last.prev === p.prevRow && (p.prevRow >= 0 || last.lines[0]!.line.page === p.line.page)) last.lines.push(p);
    else blocks.push({ prev: p.prevRow, next: -1, lines: [p], split: 0, tie: false, carried: 0, reach: 0, decisive: false });
  }
  let above = 0;
  let below = 0;
  for (const b of blocks) {
    const first = b.lines[0]!.line;
    // Rows are in reading order, so the row after a pending line is the next one pushed after it.
    const n = b.prev >= 0 ? b.prev + 1 : b.lines[0]!.nextRow;
    const r = n >= 0 ? rows[n] : undefined;
    b.next = r && r.page === first.page && r.y > first.y ? n : -1;
    const k = b.lines.length;
    if (b.prev < 0) b.split = 0;
    else if (b.next < 0) b.split = k;
    else {
      // gaps[t]: the gap before lines[t] (t = k: before the next row's date line).
      const gaps = blockGaps(b, rows);
      let best = k;
      for (let t = k - 1; t >= 0; t--) if (gaps[t]! > gaps[best]! * (1 + GAP_TIE)) best = t;
      b.tie = gaps.some((g, t) => t !== best && g * (1 + GAP_TIE) >= gaps[best]!);
      b.decisive = gaps.every((g, t) => t === best || g * DECISIVE_GAP <= gaps[best]!);
      b.split = best;
      if (!b.tie) {
        if (best < k) above++;
        else below++;
      }
    }
  }
  // No block tells (every line as far from the row above as from the row below): the table's own
  // ends do. Lines under the header before the first row can only be that row's, so its cells
  // print above their date line; lines right after the last row continue it downwards.
  const preferAbove = above > below || (above === 0 && below === 0 && tableEndsSayAbove(blocks, rows));
  // Cells centred on their row: each row takes as many lines below it as it has above, which
  // holds where gaps do not (rows whose text spills into a small fee row squeezed between them).
  // Tried only where some block clearly puts lines above their row: with uniform spacing, a
  // top-aligned table looks centred too.
  const separation = rowSeparation(blocks, rows);
  const centred = above > 0 && above >= below && !textAllAbove(blocks) ? centredSplits(blocks, rows, separation) : null;
  if (centred) {
    blocks.forEach((b, i) => {
      // A row whose cells are not all centred (a time wrapped onto a second line) still shows its
      // end by the gap before the next row, when that gap stands out: lines that hug the row above
      // stay with it. (Lines nearer the row below are left to the centring, which knows better
      // where a short row squeezed between long ones ends.)
      if (b.decisive && b.split > centred[i]!.split) return;
      b.split = centred[i]!.split;
      b.carried = centred[i]!.carried;
      b.toNextPage = centred[i]!.toNextPage;
      b.tie = false;
    });
  }
  const titles = runningTitles(blocks);
  for (const b of blocks) {
    if (b.tie && preferAbove && b.next >= 0) b.split = 0;
    // Rows that print text above their date line, at the top of a page: lines before a gap that
    // stands out end the row cut by the page break (as centredSplits does for centred rows).
    if (!centred && preferAbove && b.prev < 0 && b.next >= 0 && b.lines[0]!.carryRow >= 0) {
      b.carried = carriedTail(b, rows, separation);
      b.split = b.carried;
    }
    b.reach = lineReach(b, rows);
    if (b.next < 0 && b.prev >= 0 && (centred || preferAbove)) footSplit(b, rows);
    if (b.carried > 0) {
      const row = rows[b.lines[0]!.carryRow]!;
      for (let t = 0; t < b.carried; t++) appendParts(row, b.lines[t]!.parts, "after", b.lines[t]!.line);
    }
    // Lines at the top of a page, before its first date line, in a document whose cells are
    // top-aligned: the end of the last row of the page before, split by the page break.
    const carry = b.lines[0]!.carryRow;
    // On a page with no row of its own (the last page holds only the end of the last row, or a
    // page between two others the end of a row whose text ran over the page foot), lines under
    // its repeated headings can only be that end, whichever way the rows align; so can lines on a
    // page without headings that hold words only where a row's text wraps, below no row at all (a
    // date alone there is the page's own, a print date, not a row's end).
    const rowless = carry >= 0 && (carry === rows.length - 1 || rows[carry + 1]!.page !== b.lines[0]!.line.page);
    const tailPage = b.next < 0 && (b.lines[0]!.underHeader === true || (rowless && ((wrapsOnly(b, titles) && undated(b)) || timeLeftOver(b, rows[carry]!))));
    // A row whose date ran over the page end goes on here, whichever way the rows align (unless
    // the centring already gave it its end).
    const dateRunsOn = carry >= 0 && b.carried === 0 && rows[carry]!.continuedOn?.page === b.lines[0]!.line.page;
    if (b.prev < 0 && carry >= 0 && (!preferAbove || tailPage || dateRunsOn) && (tailPage || b.lines[0]!.underHeader || touchesTable(b, rows) || runsOnFromCarried(b, rows[carry]!) || apartAsRows(b, rows, separation, titles) || timeLeftOver(b, rows[carry]!))) {
      const row = rows[carry]!;
      const own = tailPage ? closeRun(b) : Math.max(b.lines.length - interleavedWithNext(b, rows, separation), besideDateEnd(b, row));
      for (let t = 0; t < own; t++) appendParts(row, b.lines[t]!.parts, "after", b.lines[t]!.line);
      if (tailPage) for (let t = own; t < b.lines.length; t++) outside.push(b.lines[t]!.line);
      else for (let t = b.lines.length - 1; t >= own; t--) appendParts(rows[b.next]!, b.lines[t]!.parts, "before", b.lines[t]!.line);
      continue;
    }
    // Lines going up to the next row: attach from the date line upwards while each is close.
    if (b.next >= 0) {
      const row = rows[b.next]!;
      let edge = row.y;
      for (let t = b.lines.length - 1; t >= b.split; t--) {
        const p = b.lines[t]!;
        if (edge - p.line.y <= Math.max(CONTINUATION_GAP * p.line.h, b.reach)) {
          appendParts(row, p.parts, "before", p.line);
          edge = p.line.y;
        } else {
          for (let u = t; u >= b.split; u--) outside.push(b.lines[u]!.line);
          break;
        }
      }
    } else if (b.toNextPage) {
      const row = rows[b.prev + 1]!;
      for (let t = b.lines.length - 1; t >= b.split; t--) appendParts(row, b.lines[t]!.parts, "before", b.lines[t]!.line);
    } else {
      for (let t = b.split; t < b.lines.length; t++) outside.push(b.lines[t]!.line);
    }
    // Lines going down from the previous row, while each is close to the one before.
    if (b.prev >= 0) {
      const row = rows[b.prev]!;
      for (let t = 0; t < b.split; t++) {
        const p = b.lines[t]!;
        if (p.line.y - row.lastY <= Math.max(CONTINUATION_GAP * p.line.h, b.reach)) {
          appendParts(row, p.parts, "after", p.line);
          // A line above the row's amount line (read first, on a centred row) must not pull its end back up.
          row.lastY = Math.max(row.lastY, p.line.y);
        } else {
          for (let u = t; u < b.split; u++) outside.push(b.lines[u]!.line);
          break;
        }
      }
    } else {
      for (let t = b.carried; t < b.split; t++) outside.push(b.lines[t]!.line);
    }
  }
}

/**
 * A page's first row whose top heads the page may print its lines above its middle closer than
 * its pitch (WebKit starts a row cut after its top padding at the page's top, still centred on the
 * whole row): it keeps as many lines below its middle as it has above (`above`, those at the page
 * before's foot too), while they run on at a line's pitch.
 */
function squeezedShare(ys: readonly number[], middle: number, above: number, h: number): number {
  let n = 0;
  for (let last = middle; n < Math.min(above, ys.length) && ys[n]! - last <= CONTINUATION_GAP * h; n++) last = ys[n]!;
  return n;
}

/**
 * Of the lines under a page's last row (a foot block), how many are the row's own in a centred
 * document: those within as far below its middle as its top (`top`, its topmost line) lies above
 * it. The rest begin the next page's first row, cut by the page break (its figures there), when
 * they stand as far from the row's last line as rows stand apart (`separation`) and follow each
 * other at a line's pitch; otherwise (a row whose own cut left its top part here, its figures on
 * its first line; a footer) the block is the row's as before. All of them when the next row does
 * not start the next page.
 */
function footOfCut(b: Block, rows: RowDraft[], top: number | undefined, h: number, separation: number | undefined): number {
  const all = b.lines.length;
  const row = rows[b.prev]!;
  const next = rows[b.prev + 1];
  const page = b.lines[0]!.line.page;
  if (separation === undefined || !next || next.page !== page + 1 || row.page !== page) return all;
  const middle = rowMiddle(row);
  const reach = middle - (top ?? row.y) + CENTRED_TOLERANCE * h;
  let split = 0;
  while (split < all && b.lines[split]!.line.y - middle <= reach) split++;
  if (split === all) return all;
  const ys = [split > 0 ? b.lines[split - 1]!.line.y : Math.max(row.lastY, middle), ...b.lines.slice(split).map((p) => p.line.y)];
  const apart = ys[1]! - ys[0]! >= separation / (1 + FOOT_TIE);
  const run = ys.slice(2).every((y, k) => y - ys[k + 1]! <= CONTINUATION_GAP * h);
  return apart && run ? split : all;
}

/** How close to the rows' separation the gap before a cut row's top lines must come (a tighter tie than GAP_TIE). */
const FOOT_TIE = 0.1;

/** How many of a block's lines follow each other from its first, each within CONTINUATION_GAP of the one above (a footer further down stands apart). */
function closeRun(b: Block): number {
  let n = 1;
  while (n < b.lines.length && b.lines[n]!.line.y - b.lines[n - 1]!.line.y <= CONTINUATION_GAP * b.lines[n]!.line.h) n++;
  return n;
}

/**
 * Whether the table's ends put row text above the date line: lines under the header before the
 * first row (no row before them, so they are its own) and no line right after the last row. A
 * line is "right after" when it lies within CONTINUATION_GAP glyph heights (a footer stands apart).
 */
function tableEndsSayAbove(blocks: Block[], rows: RowDraft[]): boolean {
  const head = blocks.find((b) => b.prev < 0 && b.next === 0 && b.lines[0]!.carryRow < 0);
  const last = head?.lines[head.lines.length - 1];
  if (!head || !last?.underHeader || rows[0]!.y - last.line.y > CONTINUATION_GAP * last.line.h) return false;
  const tail = blocks.find((b) => b.prev === rows.length - 1 && b.next < 0);
  const after = tail?.lines[0];
  return !after || after.line.y - rows[tail.prev]!.lastY > CONTINUATION_GAP * after.line.h;
}

/**
 * Whether every block a clear gap splits gives all its lines to the row below: rows that print
 * their text above the date line (bottom-aligned cells), not centred ones, whose blocks hold lines
 * of both rows. Read as centred, such rows of two lines would hand every other row's first line to
 * the row above (Apache FOP, fixtures/wild/fop-bottom-aligned-details).
 */
function textAllAbove(blocks: Block[]): boolean {
  const clear = blocks.filter((b) => b.prev >= 0 && b.next >= 0 && !b.tie);
  return clear.length >= CENTRED_MIN_ROWS && clear.every((b) => b.split === 0);
}

/** The widest gap of a block splits it, even in a centred document, when it is at least this many times every other gap. */
const DECISIVE_GAP = 2.5;

/**
 * Lines at the foot of a page after its last row, in a document whose rows print text above their
 * date line: those after the widest gap, when it stands out, are the top of the next page's first
 * row (a tall row cut by the page break); those before it end the last row, at the same pitch as
 * between two rows.
 */
function footSplit(b: Block, rows: RowDraft[]): void {
  const last = rows[b.prev]!;
  const next = rows[b.prev + 1];
  const page = b.lines[0]!.line.page;
  if (!next || next.page !== page + 1 || last.page !== page) return;
  const ys = [last.lastY, ...b.lines.map((p) => p.line.y)];
  const gaps = ys.slice(1).map((y, i) => y - ys[i]!);
  let widest = 0;
  for (let t = 1; t < gaps.length; t++) if (gaps[t]! > gaps[widest]!) widest = t;
  if (gaps[widest]! <= CONTINUATION_GAP * b.lines[widest]!.line.h) return;
  if (!gaps.every((g, t) => t === widest || g * (1 + GAP_TIE) < gaps[widest]!)) return;
  b.split = widest;
  b.reach = Math.min(WIDE_CONTINUATION_GAP * b.lines[0]!.line.h, gaps[widest]! / (1 + GAP_TIE));
  b.toNextPage = true;
}

/** A row's own lines may lie up to this many glyph heights apart (a taller font's line pitch), never more. */
const WIDE_CONTINUATION_GAP = 3;

/**
 * How far apart a block's lines may lie and still belong to their rows: the continuation gap, or,
 * between two rows whose separation is clear, up to a gap clearly narrower than that separation
 * (a description printed in a taller fallback font wraps at a wider pitch than the other cells).
 */
function lineReach(b: Block, rows: RowDraft[]): number {
  if (b.prev < 0 || b.next < 0 || b.tie) return 0;
  const separation = blockGaps(b, rows)[b.split]!;
  return Math.min(WIDE_CONTINUATION_GAP * b.lines[0]!.line.h, separation / (1 + GAP_TIE));
}

/** A row's text is centred on its date line when the middle of its lines is this close to it (glyph heights). */
const CENTRED_TOLERANCE = 0.35;
/**
 * The row's line stands for cells whose baselines differ by up to this share of the glyph height
 * (lines.ts BASELINE_TOLERANCE): ReportLab centres a one-line cell's baseline a point or two above
 * the middle line of a wrapped Paragraph beside it, so the row's middle may lie that much lower.
 */
const ROW_LINE_SPREAD = 0.35;
/** Share of rows with continuation lines that must be centred for the document to count as centred. */
const CENTRED_SHARE = 0.8;
/** Rows with continuation lines needed before the document's alignment is judged. */
const CENTRED_MIN_ROWS = 3;

/**
 * Splits of a document whose cells are vertically centred on the row (its date line, or its
 * figures' line, in the middle of its narration lines), or null when the rows are not centred.
 * Going down the page, a block between two rows gives the row above the lines that lie as far
 * below its middle (rowMiddle) as its top lies above it; the rest go to the row below. At the top
 * of a page, lines before a clear gap end the row cut by the page break, unless they hug the
 * first row (carriedTail).
 */
function centredSplits(blocks: Block[], rows: RowDraft[], separation: number | undefined): { split: number; carried: number; toNextPage?: boolean }[] | null {
  const h = glyphHeight(blocks);
  /** The topmost line of each row so far (its date line, or a line a block gave it from above). */
  const topOf = new Map<number, number>();
  const own = new Map<number, number[]>();
  const give = (row: number, ys: number[]) => own.set(row, [...(own.get(row) ?? []), ...ys]);
  /** Rows whose top line heads their page (nothing of an earlier row above them there). */
  const pageTop = new Set<number>();
  /** Lines a page's first row has at the page before's foot (footOfCut), above its middle. */
  const cutAbove = new Map<number, number>();
  const out = blocks.map((b) => {
    const ys = b.lines.map((p) => p.line.y);
    if (b.prev >= 0 && b.next >= 0) {
      // The row above reaches as far below its middle as its top lies above it, in points, not
      // lines: by count, a row whose date cell has two lines (date over time, the date line above
      // the middle) would lose its last line.
      const middle = rowMiddle(rows[b.prev]!);
      const top = topOf.get(b.prev) ?? rows[b.prev]!.y;
      // A row with lines above its own is a wrapped cell centred on the row: its middle line may
      // sit below the row's line (ROW_LINE_SPREAD). A row without is a one-line row (a fee row
      // squeezed between long ones), whose middle is its line.
      const reach = middle - top + (CENTRED_TOLERANCE + (top < rows[b.prev]!.y ? ROW_LINE_SPREAD : 0)) * h;
      let split = 0;
      while (split < ys.length && ys[split]! - middle <= reach) split++;
      if (pageTop.has(b.prev)) split = Math.max(split, squeezedShare(ys, middle, (own.get(b.prev) ?? []).filter((y) => y < middle).length + (cutAbove.get(b.prev) ?? 0), h));
      split = clearGapSplit(b, rows, separation, split);
      topOf.set(b.next, ys[split] ?? rows[b.next]!.y);
      give(b.prev, ys.slice(0, split));
      give(b.next, ys.slice(split));
      return { split, carried: 0 };
    }
    if (b.prev < 0 && b.next >= 0) {
      const carry = b.lines[0]!.carryRow;
      let carried = carry >= 0 ? carriedTail(b, rows, separation) : 0;
      // Lines that stand as far above the first row as rows stand apart are no line of it: a
      // centred row's lines above its date line lie at its own pitch.
      const apart = b.lines.length - interleavedWithNext(b, rows, separation);
      if (carry >= 0 && carried === 0) carried = separation === undefined ? Math.min(linesShortBelow(rows[carry]!, own.get(carry) ?? [], h), apart) : apart;
      topOf.set(b.next, ys[carried] ?? rows[b.next]!.y);
      if (carried === 0) pageTop.add(b.next);
      give(b.next, ys.slice(carried));
      return { split: carried, carried };
    }
    if (b.prev >= 0) {
      // At a page's foot, the last row reaches as far below its middle as its top lies above it;
      // lines further down begin the next page's first row, cut by the page break.
      const split = footOfCut(b, rows, topOf.get(b.prev), h, separation);
      give(b.prev, ys.slice(0, split));
      if (split < ys.length) cutAbove.set(b.prev + 1, ys.length - split);
      return { split, carried: 0, toNextPage: split < ys.length };
    }
    return { split: b.split, carried: 0 };
  });
  let judged = 0;
  let centred = 0;
  for (const [i, ys] of own) {
    if (ys.length === 0) continue;
    const row = rows[i]!;
    const lo = Math.min(row.y, ...ys);
    const hi = Math.max(row.y, ...ys);
    judged++;
    if (Math.abs((lo + hi) / 2 - rowMiddle(row)) <= CENTRED_TOLERANCE * h) centred++;
  }
  return judged >= CENTRED_MIN_ROWS && centred >= CENTRED_SHARE * judged ? out : null;
}

/**
 * How many lines a centred row lacks below its middle: its lines above it (`ys`, the lines blocks
 * gave it) outnumber those below when the page break cut it after its date line. The first lines
 * at the top of the next page are then its end, a single one included, which carriedTail cannot
 * tell from the gaps alone (it needs two gaps to compare).
 */
function linesShortBelow(row: RowDraft, ys: readonly number[], h: number): number {
  const middle = rowMiddle(row);
  const above = ys.filter((y) => y < middle - CENTRED_TOLERANCE * h).length;
  const below = ys.filter((y) => y > middle + CENTRED_TOLERANCE * h).length;
  return Math.max(0, above - below);
}

/**
 * The centring's cut of a block between two rows, unless the block's widest gap says otherwise: a
 * gap that stands out (no tie) and is as wide as the document's rows lie apart, where the
 * centring cuts in a gap clearly narrower than that, between two lines of one cell. A row whose
 * text starts on its date line instead of around it (WebKit prints a row pushed to a new page by
 * `page-break-inside: avoid` top-aligned, wkhtmltopdf) has no reach below its middle by the
 * centring, which would hand its own lines to the next row and shift every row after it on the
 * page; its rows' padding still shows where it ends.
 */
function clearGapSplit(b: Block, rows: RowDraft[], separation: number | undefined, split: number): number {
  if (b.tie || separation === undefined || b.split === split) return split;
  const gaps = blockGaps(b, rows);
  return gaps[b.split]! * (1 + GAP_TIE) >= separation && gaps[split]! * (1 + GAP_TIE) < separation ? b.split : split;
}

/**
 * Where a centred row's middle is: its figures, single-line cells printed at the middle, when
 * they sit on a line of their own (a date cell of two lines, date over time, puts the date line
 * above the middle); else its date line.
 */
function rowMiddle(row: RowDraft): number {
  for (const role of ["balance", "amount", "debit", "credit"] as const) {
    const piece = row.pieces?.[role]?.find((p) => p.page === row.page);
    if (piece) return piece.y;
  }
  return row.y;
}

/** The glyph height of the continuation lines (they share the table's font). */
function glyphHeight(blocks: Block[]): number {
  return blocks[0]?.lines[0]?.line.h ?? 1;
}

/**
 * How many of the lines at the top of a page (baselines `ys`, then the first row's date line at
 * `rowY`) end the row cut by the page break: those before a gap clearly wider than every other.
 */
function pageBreakTail(ys: number[], rowY: number): number {
  if (ys.length < 2) return 0;
  const all = [...ys, rowY];
  const gaps = all.slice(1).map((y, i) => y - all[i]!);
  let best = 0;
  for (let t = 1; t < gaps.length; t++) if (gaps[t]! > gaps[best]!) best = t;
  const clear = gaps.every((g, t) => t === best || g * (1 + GAP_TIE) < gaps[best]!);
  return clear ? best + 1 : 0;
}

/**
 * Lines at the top of a page, above its first row, that end the row the page break cut: those
 * before a gap clearly wider than every other (pageBreakTail), short of the lines that hug the
 * first row closer than rows lie to each other (interleavedWithNext).
 */
function carriedTail(b: Block, rows: RowDraft[], separation: number | undefined): number {
  const tail = pageBreakTail(b.lines.map((p) => p.line.y), rows[b.next]!.y);
  return Math.min(tail, b.lines.length - interleavedWithNext(b, rows, separation));
}

/**
 * How many lines at the end of a block sit closer to the next row's first line, each to the one
 * below it, than rows are to each other (the document's usual separation between two rows, or a
 * glyph's height when it has none to show): such lines are that row's own (a cell centred on a row
 * whose date cell is shorter starts above the date line), not the end of the row before.
 */
function interleavedWithNext(b: Block, rows: RowDraft[], separation: number | undefined): number {
  const next = b.next >= 0 ? rows[b.next] : undefined;
  if (!next) return 0;
  let edge = next.y;
  let n = 0;
  for (let t = b.lines.length - 1; t >= 0; t--) {
    const line = b.lines[t]!.line;
    const apart = separation === undefined ? line.h : Math.max(line.h, separation / (1 + GAP_TIE));
    if (line.page !== next.page || edge - line.y >= apart) break;
    edge = line.y;
    n++;
  }
  return n;
}

/** Blocks needed before their gaps tell how far apart the document's rows are. */
const SEPARATION_MIN_BLOCKS = 3;

/** The median gap that splits a block between two rows of a page (undefined without enough of them). */
function rowSeparation(blocks: Block[], rows: RowDraft[]): number | undefined {
  const gaps: number[] = [];
  for (const b of blocks) {
    if (b.prev < 0 || b.next < 0 || b.tie) continue;
    gaps.push(blockGaps(b, rows)[b.split]!);
  }
  if (gaps.length < SEPARATION_MIN_BLOCKS) return undefined;
  gaps.sort((p, q) => p - q);
  return gaps[gaps.length >> 1];
}

/**
 * Lines at the top of a page without its own header continue the last row only when they run
 * into the page's first row, each within the continuation gap of the next: a page title floating
 * above the rows, or text on a page without rows, is letterhead.
 */
function touchesTable(b: Block, rows: RowDraft[]): boolean {
  const next = b.next >= 0 ? rows[b.next] : undefined;
  if (!next) return false;
  const ys = [...b.lines.map((p) => p.line.y), next.y];
  return ys.every((y, k) => k === 0 || y - ys[k - 1]! <= CONTINUATION_GAP * b.lines[Math.min(k, b.lines.length - 1)]!.line.h);
}


/**
 * Lines at the top of a page without its own header continue the last row when they lie above the
 * page's first row as far as rows lie apart in this document (a bordered or padded table sets its
 * rows further apart than a row's own lines), run on from each other within the continuation gap,
 * hold text only in the columns a row's text wraps in, and print at no other page's top: a title
 * floating above the rows is set apart by its own gap, prints where no cell wraps, or runs on
 * every page.
 */
function apartAsRows(b: Block, rows: RowDraft[], separation: number | undefined, titles: ReadonlySet<string>): boolean {
  const next = b.next >= 0 ? rows[b.next] : undefined;
  if (!next || separation === undefined) return false;
  const ys = b.lines.map((p) => p.line.y);
  if (next.y - ys[ys.length - 1]! > separation * (1 + GAP_TIE)) return false;
  if (ys.some((y, k) => k > 0 && y - ys[k - 1]! > CONTINUATION_GAP * b.lines[k]!.line.h)) return false;
  return wrapsOnly(b, titles);
}

/**
 * The block is one line holding a time alone in the date or time column, with at most the end of
 * the row's text beside it in the columns a row's text wraps in, and the row cut by the page
 * break has no time yet: the time printed under its date went over the page (pdfmake and
 * LibreOffice Writer break a row between its lines: `05:56:58  52786663 LAGOS NG`). A page's own
 * print time comes with its date, so a time alone is no running chrome.
 */
function timeLeftOver(b: Block, row: RowDraft): boolean {
  const [only] = b.lines;
  if (b.lines.length !== 1) return false;
  const cells = only!.line.cells;
  if (!cells.some((c) => c.kind === "time") || !cells.every((c) => c.kind === "time" || c.kind === "text" || c.kind === "integer")) return false;
  const roles = Object.keys(only!.parts) as ColumnRole[];
  const timed = roles.filter((r) => r === "date" || r === "time");
  if (timed.length === 0 || !roles.every((r) => r === "date" || r === "time" || TEXT_ROLES.has(r))) return false;
  if (!timed.every((r) => TIME_ONLY.test((only!.parts[r] ?? "").trim()))) return false;
  return !CLOCK.test(`${row.cells.date ?? ""} ${row.cells.time ?? ""}`);
}

const CLOCK = /\d:\d\d/;

/** No line of the block holds a date or a time. */
const undated = (b: Block): boolean => b.lines.every((p) => p.line.cells.every((c) => c.kind !== "date" && c.kind !== "time"));

/** Every line holds text only in the columns a row's text wraps in, and is no running title (runningTitles). */
function wrapsOnly(b: Block, titles: ReadonlySet<string>): boolean {
  return b.lines.every((p) => {
    const roles = Object.keys(p.parts) as ColumnRole[];
    return roles.length > 0 && roles.every((r) => TEXT_ROLES.has(r)) && !titles.has(p.line.text);
  });
}

/**
 * Texts a page top (the lines above a page's first row) prints on most pages: a running title
 * repeats on (nearly) every page, where the end of a row cut by the page break ("rent and", the
 * same words on some rows) tops only a few.
 */
function runningTitles(blocks: Block[]): Set<string> {
  const tops = blocks.filter((b) => b.prev < 0);
  // A title tops the page, under the titles above it if any: a line counts with every line above
  // it in its block. Row ends the break left ("TERMINAL 28870409" over "LAGOS NG", the last words
  // of many POS narrations) differ somewhere above their repeated words.
  const count = new Map<string, { text: string; n: number }>();
  for (const b of tops) {
    let prefix = "";
    for (const p of b.lines) {
      prefix += `\n${p.line.text}`;
      const seen = count.get(prefix) ?? { text: p.line.text, n: 0 };
      seen.n++;
      count.set(prefix, seen);
    }
  }
  return new Set([...count.values()].filter(({ n }) => n >= 2 && n * 2 > tops.length).map(({ text }) => text));
}

/**
 * The row cut by the page break already has a line on this page (its figures, or the end of its
 * date, at the top of the page) and these lines run on from it, each within the continuation gap
 * of the one above.
 */
function runsOnFromCarried(b: Block, row: RowDraft): boolean {
  const page = b.lines[0]!.line.page;
  const here = Object.values(row.pieces ?? {}).flatMap((list) => (list ?? []).filter((p) => p.page === page).map((p) => p.y));
  if (row.continuedOn?.page === page) here.push(row.continuedOn.y);
  if (here.length === 0) return false;
  let edge = Math.max(...here);
  for (const p of b.lines) {
    if (p.line.y > edge && p.line.y - edge > CONTINUATION_GAP * p.line.h) return false;
    edge = Math.max(edge, p.line.y);
  }
  return true;
}

/** A line this share of the glyph height below another still prints beside it. */
const BASELINE_SLACK = 0.35;

/** Lines at the top of a page up to the one that ends the carried row's date (printed beside that end, they are its own). */
function besideDateEnd(b: Block, row: RowDraft): number {
  const end = row.continuedOn;
  if (!end) return 0;
  let n = 0;
  while (n < b.lines.length && b.lines[n]!.line.page === end.page && b.lines[n]!.line.y <= end.y + BASELINE_SLACK * b.lines[n]!.line.h) n++;
  return n;
}

/**
 * Adds a line's texts to a row, before or after what it has. `at` is the line the texts come from:
 * the pieces are remembered with their place so orderPieces can put a cell's lines back in reading
 * order when they were attached out of it (a vertically centred row's amount line is read before
 * the text lines above it).
 */
export function appendParts(row: RowDraft, parts: RoleTexts, where: "before" | "after", at?: { page: number; y: number }): void {
  for (const [role, text] of Object.entries(parts) as [ColumnRole, string][]) {
    const have = row.cells[role];
    // The line the new one follows, where the row remembers its lines (else all it holds so far).
    let above = have;
    if (at) {
      row.pieces ??= {};
      const list = (row.pieces[role] ??= have ? [{ page: row.page, y: row.y, text: have }] : []);
      const piece = { page: at.page, y: at.y, text };
      above = list[list.length - 1]?.text;
      if (where === "after") list.push(piece);
      else list.unshift(piece);
    }
    if (!have) {
      row.cells[role] = text;
      continue;
    }
    row.cells[role] = where === "after" ? joinPieces(role, have, text, above) : joinPieces(role, text, have);
  }
}

/**
 * Two lines of one cell joined: references wrap mid-token, narrations between words, before or
 * after a "/" that joins two parts of one token (`AIRTIME/08031985328/` / `MTN/25296.91`: line
 * breakers break after a solidus), or after a hyphen inside a token (`INV-` / `3002`: line
 * breakers break after a hyphen, and a hyphen with a space before it is a separator, kept apart),
 * or inside a number too long for the column, alone on its line (a 30-digit NIP session id cut
 * as `5876231121271686525198` over `26688085 January 3, 2026`).
 */
function joinPieces(role: ColumnRole, first: string, second: string, firstLine: string = first): string {
  const glued =
    (role === "reference" && /\w$/.test(first) && /^\w/.test(second)) ||
    (role === "narration" && CUT_NUMBER.test(firstLine.trim()) && numberGoesOn(second)) ||
    (role === "narration" && /\S$/.test(first) && /^\/\S/.test(second)) ||
    (role === "narration" && /\S\/$/.test(first) && /^\S/.test(second)) ||
    ((role === "narration" || role === "reference") && /[^\s-]-$/.test(first) && /^[\p{L}\d]/u.test(second));
  return glued ? `${first}${second}` : `${first} ${second}`;
}

/** A line of ten digits or more and nothing else: a number cut where its column ends, when the next line goes on with digits. */
const CUT_NUMBER = /^\d{10,}$/;

/** The line opens with three digits or more that start no date (`26688085 ...`, not `16 Jan 2026` or `2026 SALARY`). */
function numberGoesOn(text: string): boolean {
  const words = text.trim().split(/\s+/);
  if (!/^\d{3,}$/.test(words[0] ?? "") || /^(?:19|20)\d\d$/.test(words[0]!)) return false;
  for (let n = 2; n <= Math.min(4, words.length); n++) if (scanDate(words.slice(0, n).join(" "))) return false;
  return true;
}

/**
 * Puts each cell's lines in reading order (page, then top to bottom) where they were attached out
 * of it. Only cells built entirely from remembered pieces are rebuilt; anything else stays as is.
 */
export function orderPieces(rows: RowDraft[]): void {
  for (const row of rows) {
    if (!row.pieces) continue;
    for (const [role, list] of Object.entries(row.pieces) as [ColumnRole, TextPiece[]][]) {
      if (list.length < 2 || list.reduce((t, p, i) => joinPieces(role, t, p.text, i > 0 ? list[i - 1]!.text : t), "").trim() !== row.cells[role]?.trim()) continue;
      const sorted = list.map((p, i) => ({ p, i })).sort((a, b) => a.p.page - b.p.page || a.p.y - b.p.y || a.i - b.i);
      if (sorted.every((s, i) => s.i === i)) continue;
      row.cells[role] = sorted.map((s) => s.p.text).reduce((t, x, i) => joinPieces(role, t, x, sorted[i - 1]!.p.text));
    }
  }
}
