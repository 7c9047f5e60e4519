import { extractHeaderFacts } from "../metadata/index.ts";
import { isEmptyAmount, type Kobo, parseAmount } from "../money.ts";
import type { Cell } from "./cells.ts";
import { type Assigned, assignCells, cutAtColumnEdges, widenColumns } from "./columns.ts";
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
  /** The date was taken from the row above (a date printed once per day), not printed on this row. */
  inherited?: boolean;
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
  /** Account number of a second account's section that follows the first (its rows are not read). */
  otherAccount: string | null;
}

/** A continuation line belongs to a row when it lies within this many glyph heights of the row's last line. */
const CONTINUATION_GAP = 2.6;
/** Totals/closing lines are looked for within this many glyph heights after the previous table line. */
const TRAILER_GAP = 6;
/** Weight of horizontal distance when the columns come from a header on another page (layout may shift). */
const FOREIGN_HEADER_DISTANCE_WEIGHT = 0.25;
/** Sheet cells sit exactly in their column: distance outweighs every type preference. */
const SHEET_DISTANCE_WEIGHT = 10;

/** Titles of tables whose items are not posted transactions. */
const NOT_POSTED = /\b(?:pending|not\s+yet\s+posted|unposted|uncleared|on\s+hold|holds|lien|reserved\s+amounts?|blocked\s+funds|authori[sz]ations?\s+pending)\b/i;
/** A table title sits within this many glyph heights above its header. */
const SECTION_TITLE_GAP = 3;

/** Page furniture: "Page 2 of 5", "2 / 5", a bare page number (up to 3 digits: 4 could be a year on a date's second line). */
const PAGE_FOOTER = /^(?:page\s*\d+(?:\s*(?:of|\/)\s*\d+)?|\d+\s*(?:of|\/)\s*\d+|\d{1,3}|continued.*|.*(?:page)\s+\d+\s+of\s+\d+.*)$/i;

interface Pending {
  line: Line;
  parts: RoleTexts;
  /** Index in rows of the row above on the same page, or -1. */
  prevRow: number;
  /** At the top of a page: the last row of the pages before (a row split by the page break), or -1. */
  carryRow: number;
  /** Index the next row will have (the row below, if it is on the same page). */
  nextRow: number;
  /** The line is under its own page's (repeated) header. */
  underHeader?: boolean;
}

/** Columns read from the body when the table has no text header, active from line `start` on. */
export interface FallbackTable {
  columns: Column[];
  start: number;
}

/** Everything scanTable learns while it walks the lines. */
interface ScanState {
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

export function scanTable(lines: Line[], fallback?: FallbackTable): TableScan {
  const st: ScanState = {
    rows: [],
    amountLines: [],
    outside: [],
    pendings: [],
    labelled: [],
    header: null,
    firstColumns: null,
    headerPage: -1,
    headerText: "",
    lastTableY: -Infinity,
    lastTablePage: -1,
    pageFirstRow: 0,
    page: -1,
    skipping: false,
    undatedMoney: null,
    account: null,
    otherAccount: null,
  };
  for (let i = 0; i < lines.length; i++) {
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
    const h = headerAt(lines, i);
    if (h && startsOtherAccount(st, line)) continue;
    if (h) {
      enterHeader(st, lines, i, h);
      i += h.lineCount - 1;
      continue;
    }
    const tl = st.header && !st.skipping ? readTableLine(st, line, st.header.columns) : null;
    if (!tl) st.outside.push(line);
    else if (tl.dateCell?.kind === "date") onDatedLine(st, tl);
    else if (tl.hasMoney) onUndatedMoneyLine(st, tl);
    else onTextLine(st, tl);
  }

  attachContinuations(st.rows, st.pendings, st.outside);
  // Labelled figures before the first row or after the last ("TOTAL DEBITS: ...", "Closing
  // Balance ...") are statement facts too; carry-forward lines between pages are not.
  for (const l of st.labelled) if (l.rowIndex === 0 || l.rowIndex === st.rows.length) st.outside.push(l.line);
  st.outside.sort((a, b) => a.page - b.page || a.y - b.y);
  return { rows: st.rows, amountLines: st.amountLines, outside: st.outside, headerText: st.headerText, columns: st.firstColumns, otherAccount: st.otherAccount };
}

/**
 * One PDF may hold two accounts' statements (a current account, then a savings section). A table
 * header preceded, since the last table line, by a different account number than the one printed
 * before the first table starts another account's ledger: it and all after it are left unread
 * (assembleLines says so), since mixing two ledgers breaks both.
 */
function startsOtherAccount(st: ScanState, header: Line): boolean {
  if (!st.firstColumns) {
    st.account = extractHeaderFacts(st.outside).accountNumber;
    return false;
  }
  if (!st.account) return false;
  const since = st.outside.filter((l) => (l.page > st.lastTablePage || (l.page === st.lastTablePage && l.y > st.lastTableY)) && (l.page < header.page || (l.page === header.page && l.y < header.y)));
  const other = since.length > 0 ? extractHeaderFacts(since).accountNumber : null;
  if (!other || other === st.account) return false;
  st.otherAccount = other;
  return true;
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
  // Lines above this page's (repeated) header are its letterhead, not the end of the last row.
  for (const p of st.pendings) if (p.line.page === line.page && p.line.y < line.y) p.carryRow = -1;
  st.header = { ...h, columns: widenColumns(h.columns, body) };
  st.firstColumns ??= st.header.columns;
  st.headerPage = line.page;
  st.headerText += ` ${h.columns.map((c) => c.label).join(" ")}`;
  markTable(st, lines[i + h.lineCount - 1]!);
}

/** The line's cells placed in the columns, or null when most of them fit none (not a table line). */
function readTableLine(st: ScanState, line: Line, columns: Column[]): TableLine | null {
  // Columns read from the body (headerPage -1) hold for every page.
  const weight = line.source === "sheet" ? SHEET_DISTANCE_WEIGHT : st.headerPage === line.page || st.headerPage === -1 ? 1 : FOREIGN_HEADER_DISTANCE_WEIGHT;
  const assigned = assignCells(cutAtColumnEdges(line, columns), columns, weight);
  if (weight >= 1) moveStrayDates(columns, assigned.byColumn);
  if (line.source === "sheet") recoverSerialDates(columns, assigned);
  if (assigned.dropped.length * 2 > line.cells.length) return null;
  if (line.source === "pdf") splitRunTogetherReference(columns, assigned.byColumn);
  const dateIdx = columns.findIndex((c) => c.role === "date");
  return {
    line,
    columns,
    byColumn: assigned.byColumn,
    dropped: assigned.dropped.map((c) => c.text),
    parts: textsByRole(columns, assigned.byColumn),
    dateCell: dateIdx >= 0 ? assigned.byColumn[dateIdx]![0] : undefined,
    hasMoney: columns.some((c, j) => isMoneyRole(c.role) && assigned.byColumn[j]!.some((x) => x.kind === "money")),
  };
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
  st.undatedMoney = null;
  st.rows.push({ page: line.page, y: line.y, cells: parts, lastY: line.bottom ?? line.y, dateText, dropped: tl.dropped });
  markTable(st, line, line.bottom ?? line.y);
}

/** An undated line with amounts: the rest of the row above, a further row of its day, or an opening/totals line. */
function onUndatedMoneyLine(st: ScanState, tl: TableLine): void {
  const { line, parts } = tl;
  const rows = st.rows;
  const labelledLine = OPENING_LABEL.test(line.text) || CLOSING_LABEL.test(line.text);
  // Amounts printed a line below their date (bottom-aligned cells) complete the row above.
  const last = rows[rows.length - 1];
  if (last && rows.length > st.pageFirstRow && !rowHasMoney(last) && line.y - last.lastY <= CONTINUATION_GAP * line.h) {
    appendParts(last, parts, "after");
    last.lastY = line.y;
    st.lastTableY = line.y;
    return;
  }
  // A row whose date is printed only on the first row of its day inherits it.
  if (last && !labelledLine && continuesDay(last, parts)) {
    rows.push({ page: line.page, y: line.y, cells: { ...parts, date: last.cells.date, time: parts.time ?? last.cells.time }, lastY: line.y, dateText: last.dateText, dropped: tl.dropped, inherited: true });
    st.undatedMoney = { line, row: rows.length - 1, amountLine: -1 };
    markTable(st, line);
    return;
  }
  const near = line.page === st.lastTablePage && line.y - st.lastTableY <= TRAILER_GAP * line.h;
  if (!near && !labelledLine) {
    st.outside.push(line);
    return;
  }
  st.amountLines.push({ cells: parts, text: line.text, rowIndex: rows.length });
  st.undatedMoney = labelledLine ? null : { line, row: -1, amountLine: st.amountLines.length - 1 };
  // A labelled figure above the first row ("Opening Balance 1,000.00" under the header) is
  // also a statement fact, whichever column its number fell in.
  if (OPENING_LABEL.test(line.text) ? rows.length === 0 : CLOSING_LABEL.test(line.text)) st.labelled.push({ line, rowIndex: rows.length });
  markTable(st, line);
}

/** An undated line without amounts: a continuation of a row (attached at the end), or page furniture. */
function onTextLine(st: ScanState, tl: TableLine): void {
  const { line, parts } = tl;
  // A bare number right under a row is the end of its narration ("SCHOOL FEES TERM" / "2"), not a page number.
  const bareNumberNearRow = BARE_NUMBER.test(line.text.trim()) && line.page === st.lastTablePage && line.y - st.lastTableY <= CONTINUATION_GAP * line.h;
  if (PAGE_FOOTER.test(line.text.trim()) && !bareNumberNearRow) {
    st.outside.push(line);
    return;
  }
  // Text that runs across the table (a disclaimer between rows), or has a part that fits no
  // column (a "Label  value" pair under the table), is not part of any row.
  if (tl.dropped.length > 0 || !withinBands(tl.columns, tl.byColumn)) {
    st.outside.push(line);
    return;
  }
  const prevRow = st.rows.length > st.pageFirstRow ? st.rows.length - 1 : -1;
  // On a page without a repeated header, lines before its first row may continue the last row
  // too (until a header turns up further down this page: see enterHeader).
  st.pendings.push({ line, parts, prevRow, carryRow: prevRow < 0 ? st.rows.length - 1 : -1, nextRow: st.rows.length, underHeader: st.headerPage === line.page });
}

/** An undated line with amounts: made a row of the day above (`row`), or kept as a leader/trailer (`amountLine`). */
interface UndatedMoney {
  line: Line;
  row: number;
  amountLine: number;
}

/**
 * True when a dated line without amounts closes the row whose amounts were printed above it
 * (the date cell bottom-aligned under a wrapped narration): no row began in between and every
 * line from the amounts down to the date follows the one above within the continuation gap.
 */
function dateBelowAmounts(u: UndatedMoney, line: Line, pendings: Pending[], rows: RowDraft[], amountLines: AmountLine[]): boolean {
  if (u.line.page !== line.page) return false;
  if (u.row >= 0 ? u.row !== rows.length - 1 : amountLines[u.amountLine]?.rowIndex !== rows.length) return false;
  const between = pendings.filter((p) => p.line.page === line.page && p.line.y > u.line.y && p.line.y < line.y).map((p) => p.line.y);
  const ys = [u.line.y, ...between, line.y];
  return ys.every((y, k) => k === 0 || y - ys[k - 1]! <= CONTINUATION_GAP * line.h);
}

/**
 * Makes the amounts line above the row's own: a row of the day above is re-dated, a leader line
 * becomes the row. The lines in between and the date line itself then continue that row.
 */
function claimAmountsAbove(
  u: UndatedMoney,
  date: { line: Line; parts: RoleTexts; dateText: string },
  s: { rows: RowDraft[]; amountLines: AmountLine[]; pendings: Pending[]; labelled: { line: Line; rowIndex: number }[] },
): void {
  let index = u.row;
  if (index >= 0) {
    const row = s.rows[index]!;
    row.cells.date = undefined;
    if (row.inherited) row.cells.time = undefined;
    row.dateText = date.dateText;
    row.inherited = false;
  } else {
    const a = s.amountLines.splice(u.amountLine, 1)[0]!;
    index = s.rows.length;
    s.rows.push({ page: u.line.page, y: u.line.y, cells: { ...a.cells }, lastY: u.line.y, dateText: date.dateText, dropped: [] });
    for (let k = s.labelled.length - 1; k >= 0; k--) if (s.labelled[k]!.line === u.line) s.labelled.splice(k, 1);
  }
  for (const p of s.pendings) {
    if (p.line.page !== date.line.page || p.line.y <= u.line.y || p.line.y >= date.line.y) continue;
    p.prevRow = index;
    p.carryRow = -1;
  }
  s.pendings.push({ line: date.line, parts: date.parts, prevRow: index, carryRow: -1, nextRow: index + 1 });
}

const amountOf = (t: string | undefined): Kobo | null => {
  if (!t || isEmptyAmount(t)) return null;
  const a = parseAmount(t);
  if (!a) return null;
  return a.marker === "DR" && a.kobo > 0n ? -a.kobo : a.kobo;
};

/**
 * An undated line with exactly one movement is a further row of the day above when its balance
 * follows from that row's balance (or, without a balance column, when it has a narration). Totals
 * lines, which carry both sides, and balance-only lines do not qualify.
 */
function continuesDay(last: RowDraft, parts: RoleTexts): boolean {
  const d = amountOf(parts.debit);
  const c = amountOf(parts.credit);
  const a = amountOf(parts.amount);
  const sides = [d, c, a].filter((k) => k !== null && k !== 0n);
  if (sides.length !== 1) return false;
  const bal = amountOf(parts.balance);
  const prevBal = amountOf(last.cells.balance);
  if (bal === null || prevBal === null) return parts.balance === undefined && last.cells.balance === undefined && Boolean(parts.narration);
  const abs = (k: Kobo) => (k < 0n ? -k : k);
  const forward = d !== null && d !== 0n ? prevBal - abs(d) === bal : c !== null && c !== 0n ? prevBal + abs(c) === bal : prevBal + a! === bal || prevBal - abs(a!) === bal || prevBal + abs(a!) === bal;
  if (forward) return true;
  // Newest-first listings: the row above happened after this one, so its own movement links them.
  const ld = amountOf(last.cells.debit) ?? 0n;
  const lc = amountOf(last.cells.credit) ?? 0n;
  const la = amountOf(last.cells.amount);
  const moves = la !== null ? [la, -la] : [abs(lc) - abs(ld)];
  return moves.some((m) => bal + m === prevBal);
}

const rowHasMoney = (row: RowDraft) => Boolean(row.cells.debit || row.cells.credit || row.cells.amount || row.cells.balance);

const isMoneyRole = (r: ColumnRole) => r === "debit" || r === "credit" || r === "amount" || r === "balance";

/** Opening-balance and brought-forward lines. */
export const OPENING_LABEL = /opening\s*bal|bal(?:ance)?\.?\s*b\/?f|brought\s*f(?:or)?w(?:ar)?d|balance\s+brought|previous\s+balance|beginning\s+balance|balance\s+forward|start(?:ing)?\s+balance/i;
/** Closing and totals lines; "Total" only where it leads the line or labels a figure, never "POS @ TOTAL ENERGIES". */
export const CLOSING_LABEL = /closing\s*bal|bal(?:ance)?\.?\s*c\/?f|carried\s*f(?:or)?w(?:ar)?d|^\s*(?:grand\s+|sub\s*-?\s*)?totals?\b|\btotals?\s*:|\bpage\s+totals?\b|ending\s+balance|final\s+balance/i;

const BARE_NUMBER = /^\d{1,3}$/;

/**
 * A date printed inside the narration ("SALARY ARREARS FOR" / "15/12/2023 PERIOD") lands in the
 * date column by type alone; when it does not touch the date column's band but lies in a text
 * column's, it belongs to that text column and must not start a row.
 */
function moveStrayDates(columns: Column[], byColumn: Cell[][]): void {
  columns.forEach((col, j) => {
    if (col.role !== "date" && col.role !== "value_date") return;
    const cells = byColumn[j]!;
    for (let k = cells.length - 1; k >= 0; k--) {
      const c = cells[k]!;
      if (Math.min(c.x1, col.x1) - Math.max(c.x0, col.x0) > 0) continue;
      const home = columns.findIndex((t, i) => i !== j && (t.role === "narration" || t.role === "reference" || t.role === "other") && (Math.min(c.x1, t.x1) - Math.max(c.x0, t.x0)) / Math.max(c.x1 - c.x0, 1e-6) >= 0.5);
      if (home < 0) continue;
      cells.splice(k, 1);
      byColumn[home]!.push(c);
      byColumn[home]!.sort((a, b) => a.x0 - b.x0);
    }
  });
}

/** A reference-like token: letters and digits with at least one digit, no spaces ("FT2409031000", "NIP/240903/11"). */
const REF_TOKEN = /^(?=\S*\d)[A-Z0-9][A-Z0-9/_.-]{5,}$/i;

/**
 * A reference printed one space before the narration that follows it ("FT2409031000 SALARY
 * PAYMENT" as one run) while the narration heading is centred far to the right: the run lands
 * in the reference column (or is cut only at the heading's edge). The first token is the
 * reference, the rest the narration. Only when the reference column is directly left of the
 * narration column and a plain word follows the reference-like first token.
 */
function splitRunTogetherReference(columns: Column[], byColumn: Cell[][]): void {
  const r = columns.findIndex((c) => c.role === "reference");
  if (r < 0 || columns[r + 1]?.role !== "narration" || byColumn[r]!.length !== 1) return;
  const cell = byColumn[r]![0]!;
  const words = cell.words;
  if (cell.kind !== "text" || !words || words.length < 2 || !REF_TOKEN.test(words[0]!.text) || !words.slice(1).some((w) => /^[A-Za-z]{3,}$/.test(w.text))) return;
  const [ref, ...rest] = words;
  byColumn[r] = [{ text: ref!.text, x0: ref!.x0, x1: ref!.x1, kind: "text", words: [ref!] }];
  // The run may also have been cut at the narration heading's edge: its first words go in front.
  byColumn[r + 1] = [{ text: rest.map((w) => w.text).join(" "), x0: rest[0]!.x0, x1: rest[rest.length - 1]!.x1, kind: "text", words: rest }, ...byColumn[r + 1]!];
}

/** Excel date serials of 1970-01-01 and 2099-12-31: numbers in this range under a date heading are dates. */
const SERIAL_MIN = 25569;
const SERIAL_MAX = 73050;
/** Excel day 0 (1899-12-30), in Unix milliseconds. */
const SERIAL_EPOCH_MS = Date.UTC(1899, 11, 30);

/**
 * A sheet whose date cells are not formatted as dates holds their serial numbers (45321). Under a
 * date column such a number is the date, read as Excel does (days since 1899-12-30, fraction = time).
 */
function recoverSerialDates(columns: Column[], assigned: Assigned): void {
  columns.forEach((col, j) => {
    if ((col.role !== "date" && col.role !== "value_date") || assigned.byColumn[j]!.length > 0) return;
    const k = assigned.dropped.findIndex((c) => Math.min(c.x1, col.x1) - Math.max(c.x0, col.x0) > 0);
    if (k < 0) return;
    const cell = assigned.dropped[k]!;
    const n = Number(cell.text);
    if (!/^\d{5}(?:\.\d+)?$/.test(cell.text) || n < SERIAL_MIN || n > SERIAL_MAX) return;
    const d = new Date(SERIAL_EPOCH_MS + Math.round(n * 86_400) * 1000);
    assigned.dropped.splice(k, 1);
    assigned.byColumn[j]!.push({ ...cell, text: d.toISOString().slice(0, 19), kind: "date" });
  });
}

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
}

/**
 * Attaches undated text lines to rows. The lines between two date lines form a block; the widest
 * vertical gap in the block separates the rows, so lines before it continue the row above (top-
 * aligned cells) and lines after it belong to the row below (bottom-aligned or vertically centred
 * cells, as PalmPay and some bank exports print). Where no gap stands out, the document's clear
 * blocks decide, and below wins when the document has none.
 */
function attachContinuations(rows: RowDraft[], pendings: Pending[], outside: Line[]): void {
  if (pendings.length === 0) return;
  const blocks: Block[] = [];
  for (const p of pendings) {
    const last = blocks[blocks.length - 1];
    if (last && last.prev === p.prevRow && (p.prevRow >= 0 || last.lines[0]!.line.page === p.line.page)) last.lines.push(p);
    else blocks.push({ prev: p.prevRow, next: -1, lines: [p], split: 0, tie: false });
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
      const ys = [rows[b.prev]!.lastY, ...b.lines.map((p) => p.line.y), rows[b.next]!.y];
      const gaps = ys.slice(1).map((y, i) => y - ys[i]!);
      let best = k;
      for (let t = k - 1; t >= 0; t--) if (gaps[t]! > gaps[best]! * (1 + GAP_TIE)) best = t;
      b.tie = gaps.some((g, t) => t !== best && g * (1 + GAP_TIE) >= gaps[best]!);
      b.split = best;
      if (!b.tie) {
        if (best < k) above++;
        else below++;
      }
    }
  }
  const preferAbove = above > below;
  for (const b of blocks) {
    if (b.tie && preferAbove && b.next >= 0) b.split = 0;
    // Lines at the top of a page, before its first date line, in a document whose cells are
    // top-aligned: the end of the last row of the page before, split by the page break.
    const carry = b.lines[0]!.carryRow;
    if (b.prev < 0 && carry >= 0 && !preferAbove && (b.lines[0]!.underHeader || touchesTable(b, rows))) {
      const row = rows[carry]!;
      for (const p of b.lines) appendParts(row, p.parts, "after");
      continue;
    }
    // Lines going up to the next row: attach from the date line upwards while each is close.
    if (b.next >= 0) {
      const row = rows[b.next]!;
      let edge = row.y;
      for (let t = b.lines.length - 1; t >= b.split; t--) {
        const p = b.lines[t]!;
        if (edge - p.line.y <= CONTINUATION_GAP * p.line.h) {
          appendParts(row, p.parts, "before");
          edge = p.line.y;
        } else {
          for (let u = t; u >= b.split; u--) outside.push(b.lines[u]!.line);
          break;
        }
      }
    } else {
      for (let t = b.split; t < b.lines.length; t++) outside.push(b.lines[t]!.line);
    }
    // Lines going down from the previous row, while each is close to the one before.
    if (b.prev >= 0) {
      const row = rows[b.prev]!;
      for (let t = 0; t < b.split; t++) {
        const p = b.lines[t]!;
        if (p.line.y - row.lastY <= CONTINUATION_GAP * p.line.h) {
          appendParts(row, p.parts, "after");
          row.lastY = p.line.y;
        } else {
          for (let u = t; u < b.split; u++) outside.push(b.lines[u]!.line);
          break;
        }
      }
    } else {
      for (let t = 0; t < b.split; t++) outside.push(b.lines[t]!.line);
    }
  }
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
