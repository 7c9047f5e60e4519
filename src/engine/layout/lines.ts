import type { PageText, SheetTable, TextItem } from "../types.ts";
import { isWeekdayWord, scanDate } from "../dates.ts";
import { isCurrencyMark, isSignedCurrencyMark } from "../money.ts";
import { type Cell, splitTyped, tokensOf } from "./cells.ts";
import { squeezeSpaces } from "../whitespace.ts";

/**
 * A visual line of a page (or a row of a sheet): typed cells in x order. `y` is the baseline in
 * points from the top of the page (sheets: the row index), `h` the tallest glyph height.
 */
export interface Line {
  page: number;
  y: number;
  h: number;
  cells: Cell[];
  /** Plain text of the line, cells joined by a space (for vocabulary and label matching). */
  text: string;
  /** Page width in points (sheets: the column count); scales horizontal distances. */
  pageWidth: number;
  /** Sheet rows keep every cell apart; PDF lines are runs of positioned text. */
  source: "pdf" | "sheet";
  /** The page is set in a fixed-width font (monospacePitch): a run's characters are evenly spaced. */
  fixedWidth?: true;
  /** Baseline of the lowest line a date broken over lines reached before it was put back together (layout/stitch.ts). */
  bottom?: number;
  /** The date's last piece when the date ran over the page end: the row goes on at the top of that page. */
  continuedOn?: { page: number; y: number };
}

/** The line with its cells replaced, its text remade from them. */
export const withCells = (line: Line, cells: Cell[]): Line => ({ ...line, cells, text: cells.map((c) => c.text).join(" ") });

/**
 * A line of rules drawn in characters (`-----  ------`, `=====`, `+-----+----+`), as a text report
 * underlines or boxes its headings, one rule across the page or one under each heading: no
 * heading's line, no row's text.
 */
export const isRuleLine = (line: Line): boolean => line.cells.length > 0 && line.cells.every((c) => /^(?:[-=_~+]{3,} ?)+$/.test(c.text));

/** Two items share a line when their baselines differ by less than this share of the glyph height. */
const BASELINE_TOLERANCE = 0.35;
/** Items closer than this share of the glyph height are one run of text (a normal space is ~0.25). */
const RUN_GAP = 0.45;
/** On a fixed-width page, items further apart than this many character advances are separate runs (a word space is one advance, a column gap two or more). */
const FIXED_RUN_GAP = 1.25;

/**
 * A statement line is a few hundred characters; text beyond these caps (a crafted one-line
 * megabyte) is cut before any pattern runs over it, so every regex sees bounded input.
 */
export const MAX_ITEM_CHARS = 2_000;
export const MAX_LINE_CHARS = 8_000;

/** An item cut to MAX_ITEM_CHARS, its width cut in proportion. */
function capItem(it: TextItem): TextItem {
  if (it.str.length <= MAX_ITEM_CHARS) return it;
  return { ...it, str: it.str.slice(0, MAX_ITEM_CHARS), width: (it.width * MAX_ITEM_CHARS) / it.str.length };
}

/** Groups a page's items into lines by baseline, left to right, with typed cells. O(n log n). */
export function pageLines(page: PageText): Line[] {
  const items = page.items
    .map((raw) => {
      const it = capItem(raw);
      return { it, base: it.y + it.height };
    })
    .sort((a, b) => a.base - b.base || a.it.x - b.it.x);
  const groups: { base: number; h: number; items: TextItem[]; chars: number }[] = [];
  for (const { it, base } of items) {
    const g = groups[groups.length - 1];
    const h = Math.max(it.height, 1);
    // The smaller glyph height sets the tolerance, so one large title cannot swallow nearby lines.
    if (g && Math.abs(base - g.base) <= BASELINE_TOLERANCE * Math.min(h, g.h)) {
      g.chars += it.str.length;
      // Past the line cap the rest of the line is not read (see MAX_LINE_CHARS).
      if (g.chars <= MAX_LINE_CHARS) g.items.push(it);
      g.h = Math.max(g.h, h);
    } else {
      groups.push({ base, h, items: [it], chars: it.str.length });
    }
  }
  const pitch = monospacePitch(page.items);
  if (pitch !== null) blankVerticalRules(groups);
  return groups.map((g) => buildLine(page.number, g.base, g.h, pitch === null ? g.items : splitAtDoubleSpaces(g.items), page.width, pitch));
}

/** Lines a page needs with `|` at one character column before that column is a drawn rule. */
const MIN_RULED_LINES = 3;
/** Share of the lines holding any `|` that hold one at a rule's column (and of the lines they span that hold a `|`). */
const RULED_SHARE = 0.6;
/** Rules a boxed table draws at least: its two sides and one between cells. */
const MIN_RULES = 3;

/**
 * A fixed-width report boxed in characters (`| 02-01-2026 | Transfer ... | 1,000.00 |`, as a
 * console or a database client prints a table): the `|` at a character column that most lines
 * holding any `|` share is a drawn rule between cells, and is read as a column gap (a space, so
 * the cells either side part as at two spaces). A `|` inside a narration (`ADA OBI | Access Bank`)
 * stands where its words put it, a column few lines share, and stays.
 */
function blankVerticalRules(groups: { items: TextItem[] }[]): void {
  const at = (it: TextItem, k: number) => Math.round((it.x + (k * it.width) / it.str.length) * 2);
  const linesAt = new Map<number, number>();
  let ruled = 0;
  let first = -1;
  let last = -1;
  groups.forEach((g, i) => {
    const seen = new Set<number>();
    for (const it of g.items) for (let k = it.str.indexOf("|"); k >= 0; k = it.str.indexOf("|", k + 1)) seen.add(at(it, k));
    if (seen.size === 0) return;
    ruled++;
    if (first < 0) first = i;
    last = i;
    for (const x of seen) linesAt.set(x, (linesAt.get(x) ?? 0) + 1);
  });
  // A boxed table rules most of the lines it spans, with a rule at both ends and between cells.
  if (ruled < MIN_RULED_LINES || ruled < RULED_SHARE * (last - first + 1)) return;
  const rules = new Set([...linesAt].filter(([, n]) => n >= RULED_SHARE * ruled).map(([x]) => x));
  if (rules.size < MIN_RULES) return;
  for (const g of groups) {
    g.items = g.items.flatMap((it) => {
      if (!it.str.includes("|")) return [it];
      let str = "";
      for (let k = 0; k < it.str.length; k++) str += it.str[k] === "|" && rules.has(at(it, k)) ? " " : it.str[k];
      if (str === it.str) return [it];
      // The item keeps the extent of what is left, so a cell a rule set apart stands apart.
      const per = it.width / it.str.length;
      const lead = str.length - str.trimStart().length;
      const text = str.trim();
      return text === "" ? [] : [{ ...it, str: text, x: it.x + lead * per, width: text.length * per }];
    });
  }
}

/** Items with at least this many characters measure a page's pitch. */
const MIN_MEASURED = 3;
/**
 * Only ASCII text measures the pitch: a sign the font lacks (the naira sign, printed as a missing
 * glyph) or a wide script's character spans another advance, and a row of figures each carrying
 * one would hide a fixed-width page.
 */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
/** Measured items a page needs to be judged fixed-width by their agreement alone. */
const MIN_PAGE_ITEMS = 20;
/** Fewer, down to this many, when they agree on FIXED_WIDTH_PITCH. */
const MIN_SHORT_PAGE_ITEMS = 5;
/** The advance of Courier, Liberation Mono and DejaVu Sans Mono, as a share of the font size. */
const FIXED_WIDTH_PITCH = 0.6;
/** Share of measured items whose pitch must agree for the page to be fixed-width. */
const MONOSPACE_SHARE = 0.9;
/** Relative spread of pitches still counted as one. */
const MONOSPACE_SPREAD = 0.04;

/**
 * The pitch of a fixed-width page (a report printed in Courier with columns of spaces): its
 * character advance as a share of the glyph height, or null for proportional text. On such a page
 * a single space separates words and two or more separate columns, whatever the glyph height. A
 * share, not points: a page's title, labels and table print the one font at several sizes, and
 * every size keeps the same proportion (0.6 for Courier and Liberation Mono).
 */
function monospacePitch(items: TextItem[]): number | null {
  const pitches: number[] = [];
  for (const it of items) {
    const n = it.str.length;
    if (n >= MIN_MEASURED && it.width > 0 && it.height > 0 && PRINTABLE_ASCII.test(it.str)) pitches.push(it.width / n / it.height);
  }
  if (pitches.length < MIN_SHORT_PAGE_ITEMS) return null;
  pitches.sort((a, b) => a - b);
  const median = pitches[pitches.length >> 1]!;
  // A short page (a statement's last, with a row or two) counts only at a fixed-width font's own
  // pitch: a few figures of a proportional font agree among themselves too.
  if (pitches.length < MIN_PAGE_ITEMS && Math.abs(median - FIXED_WIDTH_PITCH) > MONOSPACE_SPREAD * FIXED_WIDTH_PITCH) return null;
  const agree = pitches.filter((a) => Math.abs(a - median) <= MONOSPACE_SPREAD * median).length;
  return agree >= MONOSPACE_SHARE * pitches.length ? median : null;
}

/** Runs of two or more spaces inside one fixed-width string are column gaps: the string is cut there. */
function splitAtDoubleSpaces(items: TextItem[]): TextItem[] {
  const out: TextItem[] = [];
  for (const it of items) {
    if (!/\S {2,}\S/.test(it.str)) {
      out.push(it);
      continue;
    }
    const per = it.width / Math.max(it.str.length, 1);
    const re = /\S+(?: \S+)*/g;
    for (let m = re.exec(it.str); m; m = re.exec(it.str)) out.push({ ...it, str: m[0], x: it.x + m.index * per, width: m[0].length * per });
  }
  return out;
}

/** The same string drawn again within this share of the glyph height is one string (simulated bold). */
const OVERPRINT = 0.25;

/** Drops overprinted copies: producers fake bold by drawing a string twice a fraction of a point apart. */
function dropOverprints(items: TextItem[], h: number): TextItem[] {
  const kept: TextItem[] = [];
  for (const it of items) {
    let dup = false;
    // Copies sit next to each other in x order; a short look-back suffices.
    for (let k = kept.length - 1; k >= 0 && k >= kept.length - 4; k--) {
      const o = kept[k]!;
      if (o.str === it.str && Math.abs(o.x - it.x) <= OVERPRINT * h && Math.abs(o.y - it.y) <= OVERPRINT * h) {
        dup = true;
        break;
      }
    }
    if (!dup) kept.push(it);
  }
  return kept;
}

function buildLine(page: number, y: number, h: number, all: TextItem[], pageWidth: number, pitch: number | null = null): Line {
  all.sort((a, b) => a.x - b.x);
  const items = dropOverprints(all, h);
  // Merge items into runs separated by visible gaps, then split runs into typed cells.
  const cells: Cell[] = [];
  let run: { text: string; x0: number; x1: number }[] = [];
  let runEnd = -Infinity;
  const flush = () => {
    if (run.length === 0) return;
    const tokens = run.flatMap((r) => tokensOf(r.text, r.x0, r.x1, pitch === null));
    cells.push(...splitTyped(tokens));
    run = [];
  };
  for (const it of items) {
    const x1 = it.x + Math.max(it.width, 0);
    const gap = it.x - runEnd;
    // Fixed-width text: one space (one advance) joins words, two or more part columns.
    const runGap = pitch === null ? RUN_GAP * Math.max(h, it.height) : FIXED_RUN_GAP * pitch * Math.max(it.height, 1);
    if (gap > runGap) flush();
    // No visible gap at all: the fragment continues the previous word ("Debit" + "(₦)").
    const last = run[run.length - 1];
    if (last && gap < 0.08 * h && !/\s$/.test(last.text) && !/^\s/.test(it.str)) {
      last.text += it.str;
      last.x1 = Math.max(last.x1, x1);
    } else {
      run.push({ text: it.str, x0: it.x, x1 });
    }
    runEnd = Math.max(runEnd, x1);
  }
  flush();
  dropAccountingSigns(cells);
  joinDrCrMarkers(cells, h);
  joinSignedCurrency(cells, h);
  joinWeekday(cells, h);
  joinDateAndTime(cells, h);
  const line: Line = { page, y, h, cells, text: cells.map((c) => c.text).join(" "), pageWidth, source: "pdf" };
  if (pitch !== null) line.fixedWidth = true;
  return line;
}

/**
 * A spreadsheet's accounting format prints each amount cell's currency sign at the cell's left
 * edge and the figure (or a dash for zero) at its right (`₦      13,581.63   ₦      -`): when at
 * least two figures or dashes of a line have a sign of their own right before them, those signs
 * are dropped, so each figure is read where it stands. A single sign (a currency column beside the
 * amounts) stays.
 */
function dropAccountingSigns(cells: Cell[]): void {
  let signed = 0;
  cells.forEach((c, k) => {
    if (c.kind !== "money" && c.kind !== "empty") return;
    const before = cells[k - 1];
    if (before && before.kind === "text" && isCurrencyMark(before.text)) signed++;
  });
  if (signed < 2) return;
  for (let k = cells.length - 2; k >= 0; k--) {
    const next = cells[k + 1]!;
    if ((next.kind === "money" || next.kind === "empty") && cells[k]!.kind === "text" && isCurrencyMark(cells[k]!.text)) cells.splice(k, 1);
  }
}

/**
 * Joins neighbouring cells of a line drawn as separate strings: from the end of the line, each
 * pair no further apart than `maxGap` that `merge` accepts is replaced by the cells it returns.
 */
function joinAdjacent(cells: Cell[], maxGap: number, merge: (a: Cell, b: Cell) => Cell[] | null): void {
  for (let k = cells.length - 2; k >= 0; k--) {
    const a = cells[k]!;
    const b = cells[k + 1]!;
    if (b.x0 - a.x1 > maxGap) continue;
    const merged = merge(a, b);
    if (merged) cells.splice(k, 2, ...merged);
  }
}

/** Two cells as one, of `kind`, their texts joined with `sep`. */
const fused = (a: Cell, b: Cell, kind: Cell["kind"], sep: string): Cell => ({ text: `${a.text}${sep}${b.text}`, x0: a.x0, x1: b.x1, kind });

/** A DR/CR marker drawn apart from its amount, closer than this many glyph heights, belongs to it. */
const MARKER_GAP = 1.5;

/**
 * "1,234.56" "CR" drawn as two strings is one signed amount; a marker farther away is its own
 * column. So is a marker run into the text after it (`DR POS PURCHASE`: an amount column right
 * before the narration, the cells tight), when the amount has no marker of its own.
 */
function joinDrCrMarkers(cells: Cell[], h: number): void {
  joinAdjacent(cells, MARKER_GAP * h, (a, b) => {
    if (a.kind !== "money") return null;
    if (b.kind === "drcr" && /^(?:DR|CR)\.?$/i.test(b.text)) return [fused(a, b, "money", " ")];
    const words = b.kind === "text" ? b.words : undefined;
    if (!words || words.length < 2 || !/^(?:DR|CR)$/.test(words[0]!.text) || /(?:DR|CR)\)?$/i.test(a.text)) return null;
    const rest = words.slice(1);
    const text: Cell = { text: rest.map((w) => w.text).join(" "), x0: rest[0]!.x0, x1: b.x1, kind: "text" };
    if (rest.length > 1) text.words = rest;
    return [{ text: `${a.text} ${words[0]!.text}`, x0: a.x0, x1: words[0]!.x1, kind: "money" }, text];
  });
}

/** "-NGN" "20,542.34" drawn as two strings is one signed amount, as when drawn as one (a signed mark is a cell no column holds on its own). */
function joinSignedCurrency(cells: Cell[], h: number): void {
  joinAdjacent(cells, MARKER_GAP * h, (a, b) =>
    a.kind === "text" && isSignedCurrencyMark(a.text) && b.kind === "money" && /^\d/.test(b.text) ? [fused(a, b, "money", "")] : null,
  );
}

/** "Sun," "04 Jan 2026" drawn as two strings is one date, as when drawn as one. */
function joinWeekday(cells: Cell[], h: number): void {
  joinAdjacent(cells, MARKER_GAP * h, (a, b) => (a.kind === "text" && isWeekdayWord(a.text) && b.kind === "date" ? [fused(a, b, "date", " ")] : null));
}

/** A time drawn apart from its date, closer than this many glyph heights, completes it. */
const TIME_GAP = 3;

/** "02 May 2023" "08:21:07" drawn as two strings is one date-time (unless a Time column takes it: see header). */
function joinDateAndTime(cells: Cell[], h: number): void {
  joinAdjacent(cells, TIME_GAP * h, (a, b) => (a.kind === "date" && b.kind === "time" && scanDate(`${a.text} ${b.text}`) ? [fused(a, b, "date", " ")] : null));
}

/** A sheet row's "glyph height" in row units: the next row (1 below) is within the continuation and header gaps. */
const SHEET_ROW_HEIGHT = 0.8;

/** A sheet row as a line: each non-empty cell is a cell spanning its column index. */
export function sheetLines(sheet: SheetTable, sheetIndex: number): Line[] {
  const width = sheet.rows.reduce((m, r) => Math.max(m, r.length), 0);
  const lines: Line[] = [];
  sheet.rows.forEach((row, r) => {
    const cells: Cell[] = [];
    row.forEach((raw, c) => {
      const text = squeezeSpaces((raw ?? "").slice(0, MAX_ITEM_CHARS));
      if (text === "") return;
      const typed = splitTyped(tokensOf(text, c, c + 1));
      // A sheet cell is one column: keep it whole unless it is plainly "amount DR" or the like.
      if (typed.length === 1) cells.push({ ...typed[0]!, x0: c + 0.05, x1: c + 0.95 });
      else cells.push({ text, x0: c + 0.05, x1: c + 0.95, kind: "text" });
    });
    lines.push({ page: sheetIndex + 1, y: r, h: SHEET_ROW_HEIGHT, cells, text: cells.map((c) => c.text).join(" "), pageWidth: Math.max(width, 1), source: "sheet" });
  });
  return lines;
}

