import { hasClockTime, isWeekdayWord, scanDate, TIME_ONLY, withoutWeekday } from "../dates.ts";
import { stitchBrokenFigures } from "./broken-figures.ts";
import { type Cell, cellKind } from "./cells.ts";
import { headerAt } from "./header.ts";
import { type Line, withCells } from "./lines.ts";
import { sentenceLine } from "./prose.ts";
import { cutRun, wordStartXs } from "./run-words.ts";

/**
 * Word processors and report writers wrap a too-narrow date cell wherever the line runs out, even
 * mid-number: "01/10/202" over "4", "03 Jan 20" over "24", or an ISO timestamp over four lines
 * ("2025-" / "08-" / "13T19:" / "47:36"). This pass puts such a date back together on its first
 * line, before any column or row is inferred, so the row starts where its date does.
 * Pure: lines that change are copied.
 */

/** Each further piece starts (or ends) within this share of the glyph height of the first's left (right) edge. */
const SAME_EDGE = 0.6;
/** Each further piece lies within this many glyph heights below the piece above it. */
const NEXT_LINE = 2.2;
/** Pieces longer than this are not parts of a date. */
const MAX_PIECE = 12;
/** A date is wrapped over at most this many lines (an ISO timestamp in a very narrow column takes four). */
const MAX_PIECES = 4;
/** Lines looked at below the head, a skipped page footer aside: the pieces and the next page's banner and repeated headings (those on the head's edge). */
const LOOK_AHEAD = MAX_PIECES + 4;

/** The first piece: digits with separators (no thousands comma, which would make it an amount), or an ordinal day alone or with its month ("2nd" over "Jan" over "2026", "3rd Feb" over "2026"); either may follow a weekday ("Fri, 02" over "Jan 2026"). */
const HEAD = /^(?:\d{1,4}(?:[-/. ][\dA-Za-z]{0,9}){0,2}[-/., ]?|\d{1,2}(?:st|nd|rd|th)(?: [a-z]{3,9}\.?)?)$/i;
/** A month's name, short or in full. */
const MONTH_NAME = "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
/**
 * Or a month's name alone: a month-first date wrapped after its month ("Jan" over "03," over
 * "2026", WebKit in a narrow centred cell).
 */
const MONTH_HEAD = new RegExp(`^${MONTH_NAME}\\.?$`, "i");
/** A later piece: the rest of a day, month, year or time ("4", "24", "08-", "13T19:", "47:36", ":08", "03,", a month-first date's "2, 2026" under its "January"). */
const PIECE = /^[-/.:]?[\dA-Za-z]{1,9}(?:(?:, ?|[-/.: ])?[\dA-Za-z]{1,4}){0,3}[-/.:T,]?$/;

/** Two pieces joined: digits and separators without a space, words with one. */
function glue(a: string, b: string): string {
  if (MONTH_HEAD.test(a)) return `${a} ${b}`;
  if (/[-/.:T]$/.test(a) || /^[-/.:]/.test(b)) return `${a}${b}`;
  // A whole time (24-hour or 12-hour) under a date that ends in its year ("Jan 2026" over
  // "10:00:22", "5:18PM") is the row's time.
  if (/\d$/.test(a) && /^\d/.test(b) && !TIME_ONLY.test(b)) return `${a}${b}`;
  return `${a} ${b}`;
}

/** Amount-typed pieces qualify only without a thousands comma ("2025-" reads as a signed number). */
const noComma = (c: Cell) => c.kind !== "money" || !c.text.includes(",");

/**
 * A date that reads with a two-digit year may be a four-digit year cut after its century
 * ("02/01/20" over "26"): it is a head only for that rest (stitchFrom).
 */
const CUT_YEAR = /[-/. ]\d{2}$/;
/** The rest of a year cut after its century. */
const YEAR_REST = /^\d{2}$/;

/** Or a month-first date without its year ("Jan 10," over "2026 6:11" over "AM"); a weekday alone ("Sun," over "11 Jan" over "2026") starts one too. */
const MONTH_DAY_HEAD = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},?$/i;

function isHead(c: Cell): boolean {
  if (MONTH_HEAD.test(c.text) || MONTH_DAY_HEAD.test(c.text) || isWeekdayWord(c.text)) return true;
  return noComma(c) && c.text.length <= MAX_PIECE && HEAD.test(withoutWeekday(c.text)) && (!scanDate(c.text) || CUT_YEAR.test(c.text));
}

/** A piece without a figure is a month's name or a meridiem ("Jan-" over "2026", "5:40" over "PM"), never other words (a footer's "Generated on"). */
const WORD_PIECE = new RegExp(`^${MONTH_NAME}\\.?[-/,]?$|^[ap]\\.?m\\.?$`, "i");

/** Five digits or more in a row: a reference or an account number, no part of a date (`01-02` before `328831602752` in one fixed-width run). */
const LONG_NUMBER = /\d{5}/;

function isPiece(c: Cell): boolean {
  return noComma(c) && c.text.length <= MAX_PIECE && PIECE.test(c.text) && !LONG_NUMBER.test(c.text) && (/\d/.test(c.text) || WORD_PIECE.test(c.text));
}

/**
 * The pieces a cell on the date's edge offers: the cell, and the first word of a run whose other
 * words are the next column's (a fixed-width font prints a date's `February` a word space before
 * the narration's `for rent`, or `02-05` before `TUNDE`, as one run).
 */
function piecesIn(c: Cell): { part: Cell; rest?: Cell }[] {
  const out: { part: Cell; rest?: Cell }[] = isPiece(c) ? [{ part: c }] : [];
  const [part, rest] = cutRun(c, wordStartXs(c).slice(0, 1), 0.01);
  // The rest must be no date's material itself (`02 Dec` is one date, not `02` before a column).
  if (part && rest && isPiece(part) && !isPiece(rest)) out.push({ part: { ...part, kind: cellKind(part.text) }, rest: { ...rest, kind: cellKind(rest.text) } });
  return out;
}

interface Found {
  line: number;
  cell: number;
  /** The piece is the first word of the cell, whose other words stay on their line as this cell. */
  rest?: Cell;
  /** That first word. */
  part?: Cell;
}

export function stitchBrokenDates(lines: Line[]): Line[] {
  // Figures cut inside their decimals are put back first: every caller of this repair pass (the
  // whole document's, a parallel part's, a tail scan's check) gets them too.
  const out = stitchMeridiems(stitchBrokenTimes(stitchBrokenFigures(lines)));
  const pageStarts = firstLineOfEachPage(out);
  for (let i = 0; i < out.length; i++) {
    if (out[i]!.source !== "pdf") continue;
    // A row may wrap two dates (a transaction date and a value date, side by side): each is put back.
    let first = true;
    for (let k = 0; k < out[i]!.cells.length; k++) {
      const line = out[i]!;
      const head = line.cells[k]!;
      if (!isHead(head)) continue;
      const stitched = stitchFrom(out, pageStarts, i, head);
      if (!stitched) continue;
      const last = stitched.pieces[stitched.pieces.length - 1]!;
      const date: Cell = { text: stitched.text, x0: head.x0, x1: Math.max(head.x1, ...stitched.pieces.map((p) => (p.part ?? out[p.line]!.cells[p.cell]!).x1)), kind: "date" };
      const host = rowLineWithin(out, i, last.line, date);
      if (host >= 0) {
        // Centred on the row's line of figures and its other date: the date is that line's.
        out[i] = withCells(line, line.cells.filter((_, n) => n !== k));
        k--;
        const row = out[host]!;
        out[host] = reachingDown(withCells(row, [...row.cells, date].sort((p, q) => p.x0 - q.x0)), out[last.line]!, row.bottom === undefined);
      } else {
        const cells = line.cells.slice();
        cells[k] = date;
        out[i] = reachingDown(withCells(line, cells), out[last.line]!, first);
        first = false;
      }
      takePieces(out, stitched.pieces);
    }
  }
  return out;
}

/** Removes the pieces put back on a date from their lines; a piece cut from a run leaves the run's rest. */
function takePieces(out: Line[], pieces: readonly Found[]): void {
  for (const n of new Set(pieces.map((p) => p.line))) {
    const taken = new Map(pieces.filter((p) => p.line === n).map((p) => [p.cell, p.rest]));
    out[n] = withCells(out[n]!, out[n]!.cells.flatMap((c, ci) => (taken.has(ci) ? (taken.get(ci) ? [taken.get(ci)!] : []) : [c])));
  }
}

/**
 * A line between a wrapped date's first and last (same page) that prints a row's figures and a
 * date of its own in another column, with nothing where the wrapped date stands: the row's line,
 * which a second date (a value date) wrapped around it, centred in its cell, belongs to. On its
 * first line that date would stand as a dated line of its own above the row. Or -1.
 */
function rowLineWithin(lines: Line[], from: number, to: number, date: Cell): number {
  for (let n = from + 1; n < to; n++) {
    const l = lines[n]!;
    if (l.page !== lines[from]!.page) return -1;
    const free = !l.cells.some((c) => Math.min(c.x1, date.x1) > Math.max(c.x0, date.x0));
    if (free && l.cells.some((c) => c.kind === "date") && l.cells.some((c) => c.kind === "money")) return n;
  }
  return -1;
}

/** A date's lines lie at one pitch: a further piece at most this many times the last step below. */
const SAME_PITCH = 1.1;
/** A page footer is at most this many lines. */
const FOOTER_LINES = 4;

const onEdge = (c: Cell, head: Cell, tol: number): boolean => Math.abs(c.x0 - head.x0) <= tol || Math.abs(c.x1 - head.x1) <= tol;

/**
 * Lines from..to (the next page's first) are a page's last few, and none starts a date on the
 * head's edge: no row begins there. A date in a sentence without figures ("Generated on" /
 * "27 Nov 2026" / "at 10:14 AM. Questions? Call ...") is the footer's own.
 */
function footerFrom(lines: Line[], from: number, to: number, head: Cell, tol: number): boolean {
  if (to - from > FOOTER_LINES) return false;
  for (let n = from; n < to; n++) {
    const line = lines[n]!;
    if (sentenceLine(line)) continue;
    if (line.cells.some((c) => onEdge(c, head, tol) && (isHead(c) || scanDate(c.text) !== null))) return false;
  }
  return true;
}

/** Index of each page's first line (lines come in page order). */
function firstLineOfEachPage(lines: Line[]): Map<number, number> {
  const starts = new Map<number, number>();
  lines.forEach((l, n) => {
    if (!starts.has(l.page)) starts.set(l.page, n);
  });
  return starts;
}

/**
 * The row still reaches down to where its date ended (same page), for its continuation lines, or
 * goes on at the top of the next page; a second date of the row keeps the further reach.
 */
function reachingDown(line: Line, lastLine: Line, first: boolean): Line {
  const samePage = lastLine.page === line.page;
  const bottom = samePage ? lastLine.y : line.y;
  if (first) return { ...line, bottom, ...(samePage ? {} : { continuedOn: { page: lastLine.page, y: lastLine.y } }) };
  if (line.continuedOn) return line;
  if (!samePage) return { ...line, continuedOn: { page: lastLine.page, y: lastLine.y } };
  return { ...line, bottom: Math.max(line.bottom ?? line.y, bottom) };
}

/**
 * The pieces below `head` that complete it: each on one of the next lines, on the edge the head
 * is aligned to, until the joined text reads as a date. A piece that keeps it a date (a time
 * after the day) is taken too; the longest reading wins.
 */
function stitchFrom(lines: Line[], pageStarts: ReadonlyMap<number, number>, i: number, head: Cell): { text: string; pieces: Found[] } | null {
  const line = lines[i]!;
  const tol = SAME_EDGE * line.h;
  let text = head.text;
  const readsAlready = scanDate(head.text) !== null;
  let best: { text: string; pieces: Found[] } | null = null;
  const pieces: Found[] = [];
  let prev = line;
  let examined = 0;
  let timeOnly = false;
  let pitch = Infinity;
  for (let j = i + 1; j < lines.length && pieces.length < MAX_PIECES - 1; j++) {
    const below = lines[j]!;
    if (below.cells.length === 0) continue;
    // A row split by a page break continues on the next page, under its repeated header.
    if (below.page !== prev.page && below.page !== prev.page + 1) break;
    // Left-aligned cells share the left edge, right-aligned ones (figures boxes) the right.
    // A whole date after words on a line of prose ("Generated on" / "27 Nov 2026" on the date's
    // edge) is the sentence's, no piece.
    const m = below.cells.findIndex((c, k) => onEdge(c, head, tol) && !(k > 0 && sentenceLine(below) && scanDate(c.text) !== null));
    // Once a date reads, a further piece (its time) lies at the pitch of the date's own lines: a
    // line below a wider gap (a footer's time) is past the date.
    const gap = below.y - prev.y;
    const far = below.page === prev.page && (gap > NEXT_LINE * line.h || (best !== null && gap > SAME_PITCH * pitch));
    // The offer that makes the date read, else the first (a date may need more pieces).
    // A run's first word is a piece only on the head's left edge: a run that merely ends on the
    // head's right edge (`12 January 2026 13:02:00`, a narration's own date) offers no word of it.
    const offers = m >= 0 ? piecesIn(below.cells[m]!).filter((o) => !o.rest || Math.abs(o.part.x0 - head.x0) <= tol) : [];
    const offered = offers.find((o) => scanDate(glue(text, o.part.text)) !== null) ?? offers[0] ?? null;
    if (far || (below.page === prev.page && m >= 0 && !offered)) {
      // A date that does not read yet goes on somewhere: where its page ends in a footer (a gap,
      // or words on its edge, and no other date below), at the next page's top. So may the time
      // printed under a date that reads without one, and only that.
      const next = pageStarts.get(prev.page + 1);
      if ((best && hasClockTime(best.text)) || next === undefined || next <= j || !footerFrom(lines, j, next, head, tol)) break;
      timeOnly = best !== null;
      j = next - 1;
      continue;
    }
    // On the next page only lines on the date's edge count: a banner and headings broken over
    // several lines put more lines than that before the date's rest, few of them on its edge.
    if ((below.page === line.page || m >= 0) && ++examined > LOOK_AHEAD) break;
    if (m < 0) continue;
    const piece = offered?.part ?? below.cells[m]!;
    // On the next page the repeated headings come first (`Txn` over `Date` on the date's edge): the
    // date goes on with the first piece that has a figure (its year, day or time) or is a month's
    // name, which no heading is ("Sat, 17" at a page's foot, "Jan" over "2026" at the next's top).
    if (below.page !== prev.page && !/\d/.test(piece.text) && !WORD_PIECE.test(piece.text)) continue;
    if (timeOnly && !TIME_ONLY.test(piece.text)) break;
    if (!offered) break;
    // A head that reads already takes only the rest of its year, and only where that still reads.
    if (readsAlready && pieces.length === 0 && !YEAR_REST.test(piece.text)) break;
    const joined = glue(text, piece.text);
    const readable = scanDate(joined) !== null;
    if (readsAlready && pieces.length === 0 && !readable) break;
    // Once a date reads, only a piece that keeps it a date belongs to it.
    if (best && !readable) break;
    text = joined;
    pieces.push(offered.rest ? { line: j, cell: m, part: piece, rest: offered.rest } : { line: j, cell: m });
    // The time printed after the date on the same line of its cell, set apart by a wider space
    // ("02 Jan," over "2026" and "12:51" over "PM"), is the date's.
    const time = readable && !offered.rest ? timeBeside(below, m, nextColumnStart(line, head)) : -1;
    if (time >= 0 && scanDate(`${text} ${below.cells[time]!.text}`) !== null) {
      text = `${text} ${below.cells[time]!.text}`;
      pieces.push({ line: j, cell: time });
    }
    pitch = below.page === prev.page ? below.y - prev.y : Infinity;
    prev = below;
    if (readable) best = { text, pieces: pieces.slice() };
  }
  return best;
}

/**
 * The time of day right after cell m of a line (within TIME_GAP glyph heights), or -1. A time
 * starting where the head's line starts its next cell is in the next column: a narration that
 * prints a time (`... 11-01-2026` over `02:03:04`), wrapped beside a date's last piece.
 */
function timeBeside(line: Line, m: number, nextColumn: number): number {
  const next = cellRightAfter(line, m);
  return next && TIME_ONLY.test(next.text) && next.x0 < nextColumn - SAME_EDGE * line.h ? m + 1 : -1;
}

/** Where the cell after the head starts on the head's line (Infinity: none follows it). */
function nextColumnStart(line: Line, head: Cell): number {
  return line.cells.find((c) => c.x0 >= head.x1)?.x0 ?? Infinity;
}

/** The cell after cell k of a line when it starts within TIME_GAP glyph heights of it (a date's time, set a wider space apart). */
function cellRightAfter(line: Line, k: number): Cell | null {
  const next = line.cells[k + 1];
  return next && next.x0 - line.cells[k]!.x1 <= TIME_GAP * line.h ? next : null;
}

/**
 * A timestamp cell too narrow for its time wraps after a colon: "2025 Aug 03 07:45:" over "31",
 * or "2025 May 20 08:" over "36:39". The rest sits on a later line of the same row, on the date's
 * left edge (a vertically centred row prints its amounts on the line between), or on the next
 * page's first lines when the row runs over the page end. The pieces are put back on the date.
 */

/** A time cut after a colon: "07:45:" or "08:". */
const PARTIAL_TIME = /^\d{1,2}:(?:\d{2}:)?$/;
/** The rest of a cut time: "31" or "36:39". */
const TIME_REST = /^\d{2}(?::\d{2})?$/;
const WHOLE_TIME = /^\d{1,2}:\d{2}(?::\d{2})?$/;
/** The rest lies within this many glyph heights below the date (three lines of a row). */
const TIME_DROP = 3.5;
/** Lines searched below the date (the row's own lines, or the first lines of the next page). */
const TIME_LINES = 4;
/** The cut time starts within this many glyph heights right of the date. */
const TIME_GAP = 1.5;

function stitchBrokenTimes(lines: Line[]): Line[] {
  const out = lines.slice();
  for (let i = 0; i < out.length; i++) {
    const line = out[i]!;
    if (line.source !== "pdf") continue;
    const k = line.cells.findIndex((c, n) => c.kind === "date" && cutTimeAfter(line, n) !== null);
    if (k < 0) continue;
    const date = line.cells[k]!;
    const cut = cutTimeAfter(line, k)!;
    const rest = timeRestBelow(out, i, date, cut.text);
    if (!rest) continue;
    const below = out[rest.line]!;
    const piece = below.cells[rest.cell]!;
    const cells = line.cells.slice();
    cells[k] = { text: `${date.text} ${cut.text}${piece.text}`, x0: date.x0, x1: Math.max(date.x1, cut.x1), kind: "date" };
    cells.splice(k + 1, 1);
    out[i] = { ...withCells(line, cells), bottom: below.page === line.page ? below.y : line.y };
    out[rest.line] = withCells(below, below.cells.filter((_, n) => n !== rest.cell));
  }
  return out;
}

/** A 12-hour time at a cell's end, its meridiem not printed there ("2026-01-17 4:04"). */
const BARE_CLOCK = /(?:^|\s)(?:0?[1-9]|1[0-2]):\d{2}(?::\d{2})?$/;
/** A meridiem alone in its cell. */
const MERIDIEM = /^[ap]\.?m\.?$/i;

/**
 * A 12-hour time whose meridiem its narrow cell wrapped onto a line below ("2026-01-17 4:04" over
 * the row's figures over "PM", the cell centred on its row): the first cell on the time's cell's
 * left edge or centre below it, on its page and within TIME_DROP glyph heights, is that meridiem,
 * and it goes back after the time. Any other cell there (the next row's date) ends the search.
 */
function stitchMeridiems(lines: Line[]): Line[] {
  const out = lines.slice();
  for (let i = 0; i < out.length; i++) {
    const line = out[i]!;
    if (line.source !== "pdf") continue;
    for (let k = 0; k < line.cells.length; k++) {
      const c = out[i]!.cells[k]!;
      if ((c.kind !== "date" && c.kind !== "time") || !BARE_CLOCK.test(c.text)) continue;
      const found = meridiemBelow(out, i, c);
      if (!found) continue;
      const below = out[found.line]!;
      const cells = out[i]!.cells.slice();
      cells[k] = { ...c, text: `${c.text} ${below.cells[found.cell]!.text}` };
      out[i] = withCells(out[i]!, cells);
      out[found.line] = withCells(below, below.cells.filter((_, n) => n !== found.cell));
    }
  }
  return out;
}

/** The meridiem under the time's cell `c` of line i (its line and cell), or null. */
function meridiemBelow(lines: Line[], i: number, c: Cell): Found | null {
  const line = lines[i]!;
  const tol = SAME_EDGE * line.h;
  const centre = (u: Cell) => (u.x0 + u.x1) / 2;
  for (let j = i + 1, seen = 0; j < lines.length && seen < TIME_LINES; j++) {
    const below = lines[j]!;
    if (below.page !== line.page || below.y - line.y > TIME_DROP * line.h) return null;
    if (below.cells.length === 0) continue;
    seen++;
    const m = below.cells.findIndex((u) => Math.abs(u.x0 - c.x0) <= tol || (u.x1 - u.x0 < c.x1 - c.x0 && Math.abs(centre(u) - centre(c)) <= tol));
    if (m < 0) continue;
    return MERIDIEM.test(below.cells[m]!.text) ? { line: j, cell: m } : null;
  }
  return null;
}

/** The cut time printed right after the date cell k on its line, if any. */
function cutTimeAfter(line: Line, k: number): Cell | null {
  const next = cellRightAfter(line, k);
  if (!next || !PARTIAL_TIME.test(next.text)) return null;
  // A date that already prints a time is whole.
  return /\d:\d/.test(line.cells[k]!.text) ? null : next;
}

/** The first cell on the date's left edge below it: the time's rest when it completes the time. */
function timeRestBelow(lines: Line[], i: number, date: Cell, cut: string): Found | null {
  const line = lines[i]!;
  const tol = SAME_EDGE * line.h;
  for (let j = i + 1, seen = 0; j < lines.length && seen < TIME_LINES; j++) {
    const below = lines[j]!;
    if (below.cells.length === 0) continue;
    seen++;
    // Over a page end, the row's lines carry on at the top of the next page, under its header if it repeats one.
    if (below.page === line.page ? below.y - line.y > TIME_DROP * line.h : below.page !== line.page + 1) return null;
    const header = below.page !== line.page ? headerAt(lines, j) : null;
    if (header) {
      j += header.lineCount - 1;
      continue;
    }
    const m = below.cells.findIndex((c) => Math.abs(c.x0 - date.x0) <= tol);
    if (m < 0) continue;
    const piece = below.cells[m]!;
    const time = `${cut}${piece.text}`;
    const read = TIME_REST.test(piece.text) && WHOLE_TIME.test(time) ? scanDate(`${date.text} ${time}`) : null;
    const readable = read !== null && read.hour === Number(time.split(":")[0]) && read.minute === Number(time.split(":")[1]);
    return readable ? { line: j, cell: m } : null;
  }
  return null;
}
