/**
 * The table scan of a split PDF in two parts at once: the planning task scans the first pages
 * (its own) while a helper scans the last ones (its own) from their first table header on, each
 * from the lines it has just read. The scan of the last pages starts from a guess (a fresh scan at
 * that header); it is kept only when the state the first pages' scan reaches there is one the
 * guess cannot tell apart (see joinScans), else the whole document is scanned again in one pass.
 * Either way the table is the one scanTable reads from all lines at once.
 *
 * The speculative part crosses threads as JSON text (JSON.parse of 38,000 rows took 22 ms where
 * a structured clone of them took 93-127 ms), every line it refers to as an index into the
 * helper's lines.
 * JSON keeps what the scan builds: finite numbers, strings, and row cells whose keys are either
 * absent or read as absent (no stage lists a row's cell keys).
 */
import type { Column } from "../layout/header.ts";
import { headerAt } from "../layout/header.ts";
import type { Line } from "../layout/lines.ts";
import { type AmountLine, finishScan, newScanState, releaseLetterhead, type RowDraft, type ScanOptions, type ScanState, scanRange, type TableScan } from "../layout/rows.ts";
import type { Pending } from "../layout/draft.ts";
import { stitchBrokenDates } from "../layout/stitch.ts";

const SECTION: ScanOptions = { oneAccount: true };

/** What a helper's scan of the last pages hands over. */
interface TailWire {
  /** Index, in the helper's lines, of the header the scan starts at. */
  start: number;
  /** How many lines the helper read (the planning task checks it got the same). */
  lineCount: number;
  rows: RowDraft[];
  amountLines: AmountLine[];
  outside: number[];
  pendings: (Omit<Pending, "line"> & { line: number })[];
  labelled: { line: number; rowIndex: number }[];
  headerText: string;
  firstColumns: Column[];
}

/** The first pages' scan, made while the helper scans. */
export type HeadScan = ScanState;

/** Stitching (layout/stitch.ts) changes none of the lines: they are read as they were built. */
export const stitchesNothing = (lines: Line[]): boolean => stitchBrokenDates(lines).every((l, i) => l === lines[i]);

/**
 * PURE: the helper's side. Its lines (the last pages of the document, in page order, before any
 * stitching) scanned from their first table header, as JSON text; null when stitching would change
 * them, there is no header, or the scan read a line that depends on rows before it (a
 * continuation above its first row).
 */
export function speculateTail(lines: Line[]): string | null {
  if (!stitchesNothing(lines)) return null;
  let start = -1;
  for (let i = 0; i < lines.length && start < 0; i++) if (lines[i]!.cells.length > 0 && headerAt(lines, i)) start = i;
  if (start < 0) return null;
  const st = newScanState();
  scanRange(st, lines, start, lines.length, undefined, SECTION);
  if (st.readBeforeFirstRow || !st.firstColumns || st.otherAccount) return null;
  const index = new Map<Line, number>();
  lines.forEach((l, i) => index.set(l, i));
  const at = (l: Line) => index.get(l)!;
  const wire: TailWire = {
    start,
    lineCount: lines.length,
    rows: st.rows,
    amountLines: st.amountLines,
    outside: st.outside.map(at),
    pendings: st.pendings.map((p) => ({ ...p, line: at(p.line) })),
    labelled: st.labelled.map((l) => ({ line: at(l.line), rowIndex: l.rowIndex })),
    headerText: st.headerText,
    firstColumns: st.firstColumns,
  };
  return JSON.stringify(wire);
}

/**
 * PURE: the planning task's side, while the helper scans. Its lines (the first pages, before any
 * stitching) scanned as the start of the document's section; null if stitching would change them
 * or a header ran past them.
 */
export function scanHead(lines: Line[]): HeadScan | null {
  if (!stitchesNothing(lines)) return null;
  const st = newScanState();
  if (scanRange(st, lines, 0, lines.length, undefined, SECTION) !== lines.length) return null;
  return st;
}

/**
 * The document's table from the first pages' scan (`head`, over lines[0..headCount)) and the
 * helper's (`tail`, over the rest): the lines of the helper's first page above its header are
 * scanned here, then the helper's rows are taken as they are when the state reached at its
 * header leaves nothing for a fresh scan to get wrong:
 * - no amounts waiting above for a date below them (undatedMoney), no row of this page yet;
 * - the table's first columns have the labels and roles of the helper's first header (every
 *   repeated header takes its roles from them).
 * A continuation line above the helper's first row was already refused by speculateTail. The
 * helper's row numbers are then shifted past the rows before. Null: scan in one pass instead
 * (`head` is then spent).
 */
export function joinScans(lines: Line[], head: HeadScan, headCount: number, tailJson: string): TableScan | null {
  const tail = JSON.parse(tailJson) as TailWire;
  if (tail.lineCount !== lines.length - headCount) return null;
  const start = headCount + tail.start;
  if (scanRange(head, lines, headCount, start, undefined, SECTION) !== start) return null;
  const header = lines[start]!;
  if (head.otherAccount || head.undatedMoney || (head.page === header.page && head.pageFirstRow !== head.rows.length)) return null;
  if (head.firstColumns && !sameLabelsAndRoles(head.firstColumns, tail.firstColumns)) return null;
  // What entering the helper's header does to the state before it.
  releaseLetterhead(head, header);
  head.firstColumns ??= tail.firstColumns;
  head.headerText += tail.headerText;
  const base = head.rows.length;
  const shift = (n: number) => (n >= 0 ? n + base : n);
  const line = (k: number) => lines[headCount + k]!;
  for (const r of tail.rows) head.rows.push(r);
  for (const a of tail.amountLines) head.amountLines.push({ ...a, rowIndex: a.rowIndex + base });
  for (const k of tail.outside) head.outside.push(line(k));
  for (const p of tail.pendings) head.pendings.push({ ...p, line: line(p.line), prevRow: shift(p.prevRow), carryRow: shift(p.carryRow), nextRow: p.nextRow + base });
  for (const l of tail.labelled) head.labelled.push({ line: line(l.line), rowIndex: l.rowIndex + base });
  return finishScan(head);
}

const sameLabelsAndRoles = (a: Column[], b: Column[]) => a.length === b.length && a.every((c, j) => c.label === b[j]!.label && c.role === b[j]!.role);
