import { labelledAccountNumber } from "../metadata/index.ts";
import { isCurrencyMark, isSignedCurrencyMark } from "../money.ts";
import type { Cell } from "./cells.ts";
import { assignCells, cutAtColumnEdges, splitMergedHeadings, splitRunTogetherHeadings, widenColumns } from "./columns.ts";
import { redateCentredRuns } from "./centred-dates.ts";
import { attachContinuations, appendParts } from "./continuation.ts";
import { partGluedAmounts } from "./glued-amounts.ts";
import { dayHeading, timeKeyed } from "./day-headings.ts";
import { figuresUnderTwoColumns, proseAcross, wrapsProse } from "./prose.ts";
import { balanceAbove, claimAmountsAbove, continuesDay, dateBelowAmounts, figure, hasMovement, movementAbove, type UndatedMoney } from "./day-rows.ts";
import { type AmountLine, CONTINUATION_GAP, type Pending, type RoleTexts, type RowDraft, type TableScan } from "./draft.ts";
import { type Column, type ColumnRole, completeLabels, type Header, headerAt, headerColumns } from "./header.ts";
import { BALANCE_LABEL_ONLY, BARE_NUMBER, CLOSING_LABEL, NOT_POSTED, OPENING_LABEL, PAGE_FOOTER } from "./labels.ts";
import { isRuleLine, type Line } from "./lines.ts";
import { setApartWrappedLabels } from "./wrapped-labels.ts";
import { moveStrayCells, recoverSerialDates, splitRunTogetherReference, textsByRole, withinBands } from "./repairs.ts";

export type { AmountLine, RoleTexts, RowDraft, TableScan } from "./draft.ts";
export { CLOSING_LABEL, OPENING_LABEL } from "./labels.ts";

/**
 * Walks a document's lines and assembles table rows. A row starts at a line with a date in the
 * row-date column; lines without a date extend the narration/reference of the row they belong to
 * (below it, or above it when the producer centres multi-line cells vertically, as PalmPay does).
 * Repeated headers, page footers, opening-balance and totals lines are recognised and kept apart.
 */

/** Totals/closing lines are looked for within this many glyph heights after the previous table line. */
const TRAILER_GAP = 6;
/** Weight of horizontal distance when the columns come from a header on another page (layout may shift). */
const FOREIGN_HEADER_DISTANCE_WEIGHT = 0.25;
/** Sheet cells sit exactly in their column: distance outweighs every type preference. */
const SHEET_DISTANCE_WEIGHT = 10;

/** A table title sits within this many glyph heights above its header. */
const SECTION_TITLE_GAP = 3;

/** Columns read from the body when the table has no text header, active from line `start` on. */
export interface FallbackTable {
  columns: Column[];
  start: number;
}

/** Everything scanTable learns while it walks the lines (exported for a scan resumed in parts, engine/parallel/). */
export interface ScanState {
  rows: RowDraft[];
  amountLines: AmountLine[];
  outside: Line[];
  pendings: Pending[];
  /** Labelled figures under the header or after the last row: statement facts (see scanTable). */
  labelled: { line: Line; rowIndex: number }[];
  header: Header | null;
  firstColumns: Column[] | null;
  /** Page of the header in force; -1 for columns read from the body (they hold on every page). */
  headerPage: number;
  /** Baseline of that header's last line. */
  headerBottom: number;
  headerText: string;
  /** Baseline and page of the last line that belonged to the table (rows, amount lines, headers). */
  lastTableY: number;
  lastTablePage: number;
  /** Index of the first row on the current page; rows before it belong to earlier pages. */
  pageFirstRow: number;
  page: number;
  /** Under a "Pending transactions" header: lines are kept out of the rows until the next header. */
  skipping: boolean;
  /** The last undated line with amounts, for a date printed under its amounts (bottom-aligned date cell). */
  undatedMoney: UndatedMoney | null;
  /** Account number printed before the first table. */
  account: string | null;
  /** A second account's section began (different account number above a header): the rest is not read. */
  otherAccount: string | null;
  /**
   * An undated line was read before this scan's first row: it would have looked at the row above,
   * which a scan started in the middle of a document (engine/parallel/tail-scan.ts) does not have.
   */
  readBeforeFirstRow: boolean;
  /** In a table keyed by time (layout/day-headings.ts), the day heading the rows below it take their date from. */
  dayHeading: string | null;
  /** The last line read as a sentence across the table (proseAcross), whose wrapped end may follow it. */
  prose: Line | null;
}

/** One table line read against the columns in force. */
interface TableLine {
  line: Line;
  columns: Column[];
  byColumn: Cell[][];
  dropped: string[];
  parts: RoleTexts;
  /** The cell in the row-date column, if any. */
  dateCell: Cell | undefined;
  hasMoney: boolean;
}

/** `oneAccount`: the lines are one account section already (sections/split.ts), so another account number above a header is a letterhead, not a stop. */
export function scanTable(lines: Line[], fallback?: FallbackTable, opts: ScanOptions = {}): TableScan {
  const st = newScanState();
  scanRange(st, lines, 0, lines.length, fallback, opts);
  return finishScan(st);
}

export interface ScanOptions {
  oneAccount?: boolean;
}

/** The state of a scan before its first line. */
export function newScanState(): ScanState {
  return {
    rows: [],
    amountLines: [],
    outside: [],
    pendings: [],
    labelled: [],
    header: null,
    firstColumns: null,
    headerPage: -1,
    headerBottom: -Infinity,
    headerText: "",
    lastTableY: -Infinity,
    lastTablePage: -1,
    pageFirstRow: 0,
    page: -1,
    skipping: false,
    undatedMoney: null,
    account: null,
    otherAccount: null,
    readBeforeFirstRow: false,
    dayHeading: null,
    prose: null,
  };
}

/**
 * Walks lines[from] up to lines[to] (exclusive) into the state; answers the index of the first
 * line not read, which is past `to` when a header that starts before it runs on beyond it.
 */
export function scanRange(st: ScanState, lines: Line[], from: number, to: number, fallback?: FallbackTable, opts: ScanOptions = {}): number {
  let i = from;
  for (; i < to; i++) {
    const line = lines[i]!;
    if (line.page !== st.page) {
      st.page = line.page;
      st.pageFirstRow = st.rows.length;
    }
    if (line.cells.length === 0 || st.otherAccount) continue;
    if (!st.header && fallback && i >= fallback.start) {
      st.header = { columns: fallback.columns, lineCount: 0 };
      st.firstColumns = fallback.columns;
      st.headerPage = -1;
    }
    const h = repeatedAsFirst(lines, i, headerAt(lines, i), st.firstColumns);
    if (h && !opts.oneAccount && startsOtherAccount(st, line)) continue;
    if (h) {
      const tail = headingTail(lines, i, h);
      const full = { columns: tail > 0 ? completeLabels(h.columns, lines.slice(i + h.lineCount, i + h.lineCount + tail)) : h.columns, lineCount: h.lineCount + tail };
      enterHeader(st, lines, i, full);
      i += full.lineCount - 1;
      continue;
    }
    if (st.header && isFactLine(st.header.columns, line) && (factAbovePageHeader(lines, i) || factAtPageTop(st, line))) {
      st.outside.push(line);
      continue;
    }
    if (st.header && !st.skipping && onDayHeading(st, line, st.header.columns)) continue;
    const tl = st.header && !st.skipping ? readTableLine(st, line, st.header.columns) : null;
    // A dated line without amounts right above a (repeated) header is that page's letterhead (a
    // banner's print date), not a row: as a row it would stand between the last row of the page
    // before and the lines at this page's top that end it.
    if (!tl || (tl.dateCell?.kind === "date" && !tl.hasMoney && abovePageHeader(lines, i))) st.outside.push(line);
    else if (tl.dateCell?.kind === "date") onDatedLine(st, tl);
    else if (tl.hasMoney) onUndatedMoneyLine(st, tl);
    else onTextLine(st, tl);
  }
  return i;
}

/** Words of a heading broken over more lines than a header takes may stand above it ("Type" over "of" over "Transaction"). */
const STACKED_ABOVE = 1;

/** `Label : value` (a label of a few words, then a colon): a statement's fact, never a row's line. */
const FACT_LINE = /^[A-Za-z][A-Za-z.\/() ]{0,30}:\s*\S/;
/** Lines a page's facts block may take above its repeated header. */
const FACTS_ABOVE_HEADER = 12;

/**
 * A fact line (`Period : 01-01-2026 to 28-02-2026`, `Opening Balance : 25,000.00`) above the
 * header this page repeats: a report that prints its facts on every page, not a row of the table
 * the page before left open (its dates and figures would make rows of their own).
 */
function factAbovePageHeader(lines: Line[], i: number): boolean {
  const line = lines[i]!;
  for (let k = i + 1; k < lines.length && k <= i + FACTS_ABOVE_HEADER && lines[k]!.page === line.page; k++) if (headerAt(lines, k) !== null) return true;
  return false;
}

/**
 * Or a fact line at the top of a page, before its first row, in the table's first column (a
 * report whose headings print once repeats its facts on every page): a row's text wrapped over
 * the page break stands in its own column, further right.
 */
function factAtPageTop(st: ScanState, line: Line): boolean {
  const second = st.header?.columns[1];
  return st.rows.length === st.pageFirstRow && second !== undefined && (line.cells[0]?.x0 ?? Infinity) < second.x0;
}

/**
 * `Label : value`, and no row's figures: a narration printed first (`NIP: TRANSFER TO …`) begins
 * like a label, but its row has a movement and a balance under their columns.
 */
const isFactLine = (columns: Column[], line: Line): boolean => FACT_LINE.test(line.text) && !figuresUnderTwoColumns(columns, line.cells);

/** A table header starts on one of the next lines of this page, with only words (a heading's first line) before it. */
function abovePageHeader(lines: Line[], i: number): boolean {
  for (let k = i + 1; k <= i + 1 + STACKED_ABOVE; k++) {
    const next = lines[k];
    if (next === undefined || next.page !== lines[i]!.page) return false;
    if (headerAt(lines, k) !== null) return true;
    if (next.cells.some((c) => c.kind !== "text")) return false;
  }
  return false;
}

/** The scan's table once every line has been walked: continuation lines attached, statement facts set apart. */
export function finishScan(st: ScanState): TableScan {
  attachContinuations(st.rows, setApartWrappedLabels(st.pendings, st.outside, st.amountLines), st.outside);
  redateCentredRuns(st.rows);
  demoteLeadingRows(st);
  // Labelled figures before the first row or after the last ("TOTAL DEBITS: ...", "Closing
  // Balance ...") are statement facts too; carry-forward lines between pages are not.
  for (const l of st.labelled) if (l.rowIndex === 0 || l.rowIndex === st.rows.length) st.outside.push(l.line);
  st.outside.sort((a, b) => a.page - b.page || a.y - b.y);
  return { rows: st.rows, amountLines: st.amountLines, outside: st.outside, headerText: st.headerText, columns: st.firstColumns, otherAccount: st.otherAccount };
}

/**
 * Leading rows no date claimed (not the top of a centred run) are what such a line was before
 * they existed: a line of figures before the first row (an opening line without its label).
 */
function demoteLeadingRows(st: ScanState): void {
  let n = 0;
  while (n < st.rows.length && st.rows[n]!.leading !== undefined && st.rows[n]!.dateText === "") n++;
  if (n === 0) return;
  const leading = st.rows.splice(0, n);
  for (const a of st.amountLines) a.rowIndex = Math.max(0, a.rowIndex - n);
  for (const l of st.labelled) l.rowIndex = Math.max(0, l.rowIndex - n);
  st.amountLines.unshift(...leading.map((r) => ({ cells: r.cells, text: r.leading ?? "", rowIndex: 0, page: r.page, y: r.y })));
}

/**
 * One PDF may hold two accounts' statements (a current account, then a savings section). A table
 * header preceded, since the last table line, by a different account number than the one printed
 * before the first table starts another account's ledger: it and all after it are left unread
 * (assembleLines says so), since mixing two ledgers breaks both.
 */
function startsOtherAccount(st: ScanState, header: Line): boolean {
  if (!st.firstColumns) {
    st.account = labelledAccountNumber(st.outside);
    return false;
  }
  if (!st.account) return false;
  const since = st.outside.filter((l) => (l.page > st.lastTablePage || (l.page === st.lastTablePage && l.y > st.lastTableY)) && (l.page < header.page || (l.page === header.page && l.y < header.y)));
  const other = since.length > 0 ? labelledAccountNumber(since) : null;
  if (!other || other === st.account) return false;
  st.otherAccount = other;
  return true;
}

/** A heading label's last word wraps onto a line of its own within this many glyph heights under the heading. */
const HEADING_TAIL_GAP = 1.5;
/** Lines a wrapped heading label may add under the header lines. */
const MAX_HEADING_TAIL = 2;

/** The first row starts at least this many times further below a heading tail than the tail is below the heading. */
const ROW_PADDING_RATIO = 1.5;

/** A header's labels as one string without spaces: the same headings however a run was cut into columns. */
const labelText = (columns: readonly Column[]): string => columns.map((c) => c.label).join("").replace(/\s+/g, "");

/**
 * A header read over more lines than the first page's, whose own line alone is the first page's
 * header again (the same labels): the line under it is no second heading line but the end of a
 * row the page break cut (`OKAFOR | Access Bank` under `Narrative`, stacked onto the repeated
 * headings it would have been lost), so the header is that one line.
 */
function repeatedAsFirst(lines: Line[], i: number, h: Header | null, first: readonly Column[] | null): Header | null {
  if (!h || !first || h.lineCount === 1) return h;
  const want = labelText(first);
  if (labelText(h.columns) === want) return h;
  const single = headerColumns(lines[i]!);
  return single && labelText(single) === want ? { columns: single, lineCount: 1 } : h;
}

/**
 * Lines right under a header that only finish its labels ("Reference" / "Date ... Balance" /
 * "Number"): every cell is a word under a heading label, as close as the heading's own lines, and
 * the table's padding follows before the next line. Left alone they would read as a continuation
 * of the row above (the last row of the page before). A row's wrapped text under a repeated
 * header is spaced like the rows after it, so it is never taken. Such a line may read as a header
 * of its own (`Posted  Date  Details  Amount` under `Date  Value  Transaction  Debit`, labels
 * centred over three lines): it is still the labels' last words.
 */
function headingTail(lines: Line[], i: number, h: Header): number {
  let n = 0;
  let above = lines[i + h.lineCount - 1]!;
  for (let j = i + h.lineCount; j < lines.length && n < MAX_HEADING_TAIL; j++) {
    const l = lines[j]!;
    const gap = l.y - above.y;
    const close = l.page === above.page && gap <= HEADING_TAIL_GAP * Math.max(l.h, above.h);
    // Heading words hold no figure: `other expenses 61` under the repeated headings is the end of
    // a row the page break cut, whatever the padding below it.
    const underLabels = l.cells.length > 0 && !/\d/.test(l.text) && l.cells.every((c) => c.kind === "text" && h.columns.some((col) => Math.min(col.x1, c.x1) - Math.max(col.x0, c.x0) > 0));
    if (!close || !underLabels) break;
    let k = j + 1;
    while (k < lines.length && lines[k]!.cells.length === 0) k++;
    const next = lines[k];
    // With no line after it on its page nothing shows the padding: a heading word has no figures,
    // the end of a row cut by the page break (`| 0580680038`, alone on the last page) may.
    const lastOnPage = !next || next.page !== l.page;
    const padded = lastOnPage ? !/\d/.test(l.text) : next.y - l.y > ROW_PADDING_RATIO * gap;
    if (!padded) break;
    n++;
    above = l;
  }
  return n;
}

function markTable(st: ScanState, line: Line, y = line.y): void {
  st.lastTableY = y;
  st.lastTablePage = line.page;
}

/** A (repeated) table header at line i: its columns, widened by the body under it, hold from here. */
function enterHeader(st: ScanState, lines: Line[], i: number, h: Header): void {
  const line = lines[i]!;
  // A table titled as pending or held items lists what is not on the statement yet.
  const title = lines[i - 1];
  st.skipping = Boolean(
    title && title.page === line.page && line.y - title.y <= SECTION_TITLE_GAP * line.h && title.cells.every((c) => c.kind === "text") && NOT_POSTED.test(title.text),
  );
  const body: Line[] = [];
  for (let j = i + h.lineCount; j < lines.length && lines[j]!.page === line.page; j++) body.push(lines[j]!);
  releaseLetterhead(st, line);
  st.header = { ...h, columns: sameRoles(widenColumns(splitMergedHeadings(splitRunTogetherHeadings(h.columns, body, st.firstColumns), body, st.firstColumns), body), st.firstColumns) };
  st.firstColumns ??= st.header.columns;
  st.headerPage = line.page;
  st.headerBottom = lines[i + h.lineCount - 1]!.y;
  st.headerText += ` ${h.columns.map((c) => c.label).join(" ")}`;
  markTable(st, lines[i + h.lineCount - 1]!);
}

/**
 * Lines above this page's (repeated) header are its letterhead (or a heading word stacked above
 * the header's lines), not the end of the last row: they leave the pending lines, so the lines
 * under the header still carry that row's end.
 */
export function releaseLetterhead(st: ScanState, header: Line): void {
  const above = (p: Pending) => p.line.page === header.page && p.line.y < header.y;
  for (const p of st.pendings) if (above(p)) st.outside.push(p.line);
  st.pendings = st.pendings.filter((p) => !above(p));
}

/**
 * A repeated header (same labels as the first) keeps the roles read on the first page, where the
 * body had more rows to read them from (which amount columns carry figures of their own).
 */
function sameRoles(columns: Column[], first: Column[] | null): Column[] {
  if (!first || first.length !== columns.length || first.some((c, j) => c.label !== columns[j]!.label)) return columns;
  return columns.map((c, j) => (c.role === first[j]!.role ? c : { ...c, role: first[j]!.role }));
}

/** The line's cells placed in the columns, or null when most of them fit none (not a table line). */
function readTableLine(st: ScanState, line: Line, columns: Column[]): TableLine | null {
  // Columns read from the body (headerPage -1) hold for every page.
  const weight = line.source === "sheet" ? SHEET_DISTANCE_WEIGHT : st.headerPage === line.page || st.headerPage === -1 ? 1 : FOREIGN_HEADER_DISTANCE_WEIGHT;
  const assigned = assignCells(cutAtColumnEdges(partGluedAmounts(line, columns), columns), columns, weight);
  moveStrayCells(columns, assigned.byColumn);
  if (line.source === "sheet") recoverSerialDates(columns, assigned);
  // A sentence across the table is remembered even where most of its cells fit no column, so
  // its wrapped next line is known for its continuation.
  if (line.source === "pdf" && (proseAcross(columns, line) || wrapsProse(st.prose, line, columns))) {
    st.prose = line;
    return null;
  }
  if (assigned.dropped.length * 2 > line.cells.length) return null;
  if (line.source === "pdf") splitRunTogetherReference(columns, assigned.byColumn);
  const dateIdx = columns.findIndex((c) => c.role === "date");
  const parts = textsByRole(columns, assigned.byColumn);
  return {
    line,
    columns,
    byColumn: assigned.byColumn,
    dropped: assigned.dropped.map((c) => c.text),
    parts,
    dateCell: dateIdx >= 0 ? assigned.byColumn[dateIdx]![0] : headedDay(st, columns, assigned.byColumn, parts),
    hasMoney: columns.some((c, j) => isMoneyRole(c.role) && assigned.byColumn[j]!.some((x) => x.kind === "money")),
  };
}

/** A day heading of a time-keyed table: its date holds for the rows under it, and it is no row's text. */
function onDayHeading(st: ScanState, line: Line, columns: Column[]): boolean {
  if (!timeKeyed(columns)) return false;
  const day = dayHeading(line);
  if (day === null) return false;
  st.dayHeading = day;
  markTable(st, line);
  return true;
}

/**
 * In a time-keyed table, a line with a time in the time column is dated by the day heading above
 * it: the heading stands in as its date cell (and its date text). Before any heading such a line
 * depends on lines this scan has not read (a scan started mid-document, engine/parallel/).
 */
function headedDay(st: ScanState, columns: Column[], byColumn: Cell[][], parts: RoleTexts): Cell | undefined {
  const timeIdx = columns.findIndex((c) => c.role === "time");
  const time = timeIdx >= 0 ? byColumn[timeIdx]![0] : undefined;
  if (time?.kind !== "time" || !timeKeyed(columns)) return undefined;
  if (st.dayHeading === null) {
    st.readBeforeFirstRow = true;
    return undefined;
  }
  parts.date = st.dayHeading;
  return { text: st.dayHeading, x0: time.x0, x1: time.x1, kind: "date" };
}

/** A line with a date in the date column starts a row (or dates the amounts printed above it). */
function onDatedLine(st: ScanState, tl: TableLine): void {
  const { line, parts } = tl;
  const dateText = tl.dateCell!.text;
  if (!tl.hasMoney && st.undatedMoney && dateBelowAmounts(st.undatedMoney, line, st.pendings, st.rows, st.amountLines)) {
    claimAmountsAbove(st.undatedMoney, { line, parts, dateText }, st);
    st.undatedMoney = null;
    st.lastTableY = line.y;
    return;
  }
  const above = tl.hasMoney && st.undatedMoney ? balanceAbove(st.undatedMoney, line, parts, st) : null;
  if (above) {
    parts.balance = above.balance;
    undatedText(st, st.undatedMoney!.line, above.undated);
  }
  const moved = !above && tl.hasMoney && st.undatedMoney ? movementAbove(st.undatedMoney, line, parts, st) : null;
  if (moved) {
    Object.assign(parts, moved.figures);
    undatedText(st, st.undatedMoney!.line, moved.undated);
  }
  st.undatedMoney = null;
  st.rows.push({
    page: line.page,
    y: line.y,
    cells: parts,
    lastY: line.bottom ?? line.y,
    dateText,
    dropped: tl.dropped,
    ...(line.bottom !== undefined ? { dateBottom: line.bottom } : {}),
    ...(line.continuedOn ? { continuedOn: line.continuedOn } : {}),
  });
  markTable(st, line, line.bottom ?? line.y);
}

/** An undated line with amounts: the rest of the row above, a further row of its day, or an opening/totals line. */
function onUndatedMoneyLine(st: ScanState, tl: TableLine): void {
  const { line, parts } = tl;
  const rows = st.rows;
  if (rows.length === 0) st.readBeforeFirstRow = true;
  const labelledLine = OPENING_LABEL.test(line.text) || CLOSING_LABEL.test(line.text);
  // Amounts printed a line below their date (bottom-aligned cells) complete the row above.
  const last = rows[rows.length - 1];
  // Or, the first table line of a page, the figures of a row whose date cell ended the page before
  // (a tall vertically centred row cut by the page break).
  // Nothing of the table between them but this page's repeated header.
  const onlyHeaderBetween = st.lastTablePage === last?.page || (st.headerPage === line.page && st.lastTablePage === line.page && st.lastTableY === st.headerBottom);
  const cutByPageBreak = last !== undefined && rows.length === st.pageFirstRow && last.page === line.page - 1 && onlyHeaderBetween;
  // So does the figure a row still lacks, its balance or its movement, alone on a line of its own
  // (cells centred in a row where a wrapped amount cell put the other figure on the first line).
  const completes = last !== undefined && (!rowHasMoney(last) || completesFigures(last, parts));
  if (last && completes && (cutByPageBreak || (rows.length > st.pageFirstRow && line.y - last.lastY <= CONTINUATION_GAP * line.h))) {
    appendParts(last, parts, "after", line);
    // lastY stays on the row's own page, where its lines above the break still attach to it, and
    // below the end of a date wrapped down past the figures (its pieces' lines are gone).
    if (!cutByPageBreak) last.lastY = Math.max(last.lastY, line.y);
    st.lastTableY = line.y;
    return;
  }
  // A row whose date is printed only on the first row of its day inherits it.
  if (last && !labelledLine && continuesDay(last, parts)) {
    const row: RowDraft = { page: line.page, y: line.y, cells: { ...parts, date: last.cells.date, time: parts.time ?? last.cells.time }, lastY: line.y, dateText: last.dateText, dropped: tl.dropped, inherited: true, timeInherited: parts.time === undefined };
    if (last.leading !== undefined) row.leading = line.text;
    rows.push(row);
    st.undatedMoney = { line, row: rows.length - 1, amountLine: -1 };
    markTable(st, line);
    return;
  }
  // Near the table's last line: a row's, or the last line of its wrapped text (a totals line under a long last narration).
  const near = line.y - lineAbove(st, line) <= TRAILER_GAP * line.h;
  // Right under the headings, a line with one movement and a balance: a row whose date is printed
  // below it, held as a row until the scan ends (RowDraft.leading, finishScan).
  if (rows.length === 0 && near && !labelledLine && oneMovementAndBalance(parts)) {
    rows.push({ page: line.page, y: line.y, cells: parts, lastY: line.y, dateText: "", dropped: tl.dropped, inherited: true, leading: line.text });
    st.undatedMoney = { line, row: 0, amountLine: -1 };
    markTable(st, line);
    return;
  }
  if (!near && !labelledLine) {
    st.outside.push(line);
    return;
  }
  st.amountLines.push({ cells: parts, text: line.text, rowIndex: rows.length, page: line.page, y: line.y });
  st.undatedMoney = labelledLine ? null : { line, row: -1, amountLine: st.amountLines.length - 1 };
  // A labelled figure above the first row ("Opening Balance 1,000.00" under the header) is
  // also a statement fact, whichever column its number fell in.
  if (OPENING_LABEL.test(line.text) ? rows.length === 0 : CLOSING_LABEL.test(line.text)) st.labelled.push({ line, rowIndex: rows.length });
  markTable(st, line);
}

/** An undated line without amounts: a continuation of a row (attached at the end), or page furniture. */
function onTextLine(st: ScanState, tl: TableLine): void {
  const { line, parts } = tl;
  if (st.rows.length === 0) st.readBeforeFirstRow = true;
  // A bare number right under a row, or under a line of its wrapped narration, is the end of that
  // narration ("SCHOOL FEES TERM" / "2"), not a page number: page numbers stand apart.
  const bareNumberNearRow = BARE_NUMBER.test(line.text.trim()) && line.y - lineAbove(st, line) <= CONTINUATION_GAP * line.h;
  // Nor is a bare number at the top of a page, inside the table's columns, that is not the page's
  // number: the end of a reference cut by the page break ("...858531" / "6"); under the page's
  // repeated headings, only in a reference or narration column (a word processor splits a row
  // across the break: `TRX77309083938` / `5`).
  const cutEnd =
    BARE_NUMBER.test(line.text.trim()) &&
    Number(line.text.trim()) !== line.page &&
    st.rows.length === st.pageFirstRow &&
    st.rows.length > 0 &&
    (st.headerPage !== line.page || parts.reference !== undefined || parts.narration !== undefined);
  if ((PAGE_FOOTER.test(line.text.trim()) && !bareNumberNearRow && !cutEnd) || isRuleLine(line)) {
    st.outside.push(line);
    return;
  }
  // Text that runs across the table (a disclaimer between rows), or has a part that fits no
  // column (a "Label  value" pair under the table), is not part of any row.
  if (tl.dropped.length > 0 || !withinBands(tl.columns, tl.byColumn)) {
    st.outside.push(line);
    return;
  }
  // A totals or balance row whose figures wrapped under their currency marks (`TOTAL  NGN  NGN`
  // over the figures): its label is no row's text; the figures' line below is read as such a line.
  if (labelOverWrappedFigures(parts) || marksUnderAmountLine(st, line, parts)) {
    st.outside.push(line);
    return;
  }
  st.pendings.push(pendingLine(st, line, parts));
}

/**
 * Currency marks alone under a line of figures read after the last row (a totals row whose `NGN`
 * each figure's cell wrapped under it, its `TOTAL` label between): the marks are that line's, no
 * row's (added to the last row's figure, `47,746.31 NGN` became `47,746.31 NGN NGN`, read as 0).
 */
function marksUnderAmountLine(st: ScanState, line: Line, parts: RoleTexts): boolean {
  const roles = Object.keys(parts) as ColumnRole[];
  if (roles.length === 0 || !roles.every((r) => isMoneyRole(r) && markOnly(parts[r]))) return false;
  const figures = st.amountLines[st.amountLines.length - 1];
  return figures !== undefined && figures.rowIndex === st.rows.length && figures.page === line.page && figures.y !== undefined && figures.y < line.y && line.y - figures.y <= TRAILER_GAP * line.h;
}

/** Money cells holding only currency marks beside a balance or totals label and nothing else. */
function labelOverWrappedFigures(parts: RoleTexts): boolean {
  const money = MONEY_CELLS.filter((r) => parts[r] !== undefined);
  if (money.length === 0 || !money.every((r) => markOnly(parts[r]))) return false;
  const label = (Object.keys(parts) as ColumnRole[]).filter((r) => !isMoneyRole(r)).map((r) => parts[r]).join(" ").trim();
  return BALANCE_LABEL_ONLY.test(label);
}

/**
 * An undated text line of the table, between the rows read so far and the next. On a page without
 * a repeated header, lines before its first row may continue the last row too (until a header
 * turns up further down this page: see enterHeader).
 */
function pendingLine(st: ScanState, line: Line, parts: RoleTexts): Pending {
  const prevRow = st.rows.length > st.pageFirstRow ? st.rows.length - 1 : -1;
  return { line, parts, prevRow, carryRow: prevRow < 0 ? st.rows.length - 1 : -1, nextRow: st.rows.length, underHeader: st.headerPage === line.page };
}

/**
 * The text of a line whose figure went to a row below it (balanceAbove), kept among the table's
 * undated lines in print order, to join whichever row its place gives it, as any wrapped narration.
 */
function undatedText(st: ScanState, line: Line, parts: RoleTexts): void {
  if (!Object.values(parts).some((t) => t !== undefined && t.trim() !== "")) return;
  const at = st.pendings.findIndex((p) => p.line.page === line.page && p.line.y > line.y);
  st.pendings.splice(at < 0 ? st.pendings.length : at, 0, pendingLine(st, line, parts));
}

/** Baseline of the table's last line above `line` on its page (a row's or a continuation's), or -Infinity. */
function lineAbove(st: ScanState, line: Line): number {
  const last = st.pendings[st.pendings.length - 1]?.line;
  const pending = last && last.page === line.page ? last.y : -Infinity;
  return Math.max(pending, line.page === st.lastTablePage ? st.lastTableY : -Infinity);
}

const rowHasMoney = (row: RowDraft) => hasMovement(row.cells) || figure(row.cells.balance);

/** Exactly one movement and a balance: the figures of a transaction row. */
const oneMovementAndBalance = (cells: RoleTexts) => [cells.debit, cells.credit, cells.amount].filter(figure).length === 1 && figure(cells.balance);

/**
 * The line holds just the figures its row is missing, each in a money cell the row left without a
 * figure: a balance under a movement, a movement under a balance, or both (cells wrapped after
 * their currency mark: `NGN` over `18,410.13`, `(NGN` over `11,980.75)`). A row whose movement
 * cells print only zeros (`0.00` on the other side) still lacks its movement.
 */
function completesFigures(row: RowDraft, parts: RoleTexts): boolean {
  const filled = MONEY_CELLS.filter((r) => figure(parts[r]));
  if (filled.length === 0 || filled.some((r) => figure(row.cells[r]))) return false;
  const moves = filled.some((r) => r !== "balance");
  const rowMoves = MOVEMENT_CELLS.some((r) => nonZero(row.cells[r]));
  if (!moves) return hasMovement(row.cells);
  if (rowMoves) return false;
  return filled.includes("balance") || figure(row.cells.balance);
}

const MOVEMENT_CELLS = ["debit", "credit", "amount"] as const;
const MONEY_CELLS = [...MOVEMENT_CELLS, "balance"] as const;
const markOnly = (text: string | undefined) => text !== undefined && (isCurrencyMark(text) || isSignedCurrencyMark(text));
const nonZero = (text: string | undefined) => text !== undefined && /[1-9]/.test(text);

const isMoneyRole = (r: ColumnRole) => r === "debit" || r === "credit" || r === "amount" || r === "balance";

