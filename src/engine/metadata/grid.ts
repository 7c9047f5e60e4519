/**
 * Label/value geometry: a value beside its label on the same line (after a colon, a detached
 * colon cell, or a gap), in a right-hand column on a slightly offset baseline, under its label
 * (summary boxes), or a period's end on the line below its start. The first accepted value of
 * each fact wins, so a second account section does not overwrite the first.
 */
import { scanDate, scanPeriod } from "../dates.ts";
import type { Cell } from "../layout/cells.ts";
import { type Line, withCells } from "../layout/lines.ts";
import { type Field, isLabel, labelField, splitAtLabels, startsPair } from "./labels.ts";
import { openRange, PERIOD_JOINER } from "./period.ts";
import { acceptable } from "./values.ts";

/** Value cells after a label: the first cell, then neighbours closer than this many glyph heights. */
const VALUE_RUN_GAP = 2;
/** A value under its label is looked for within this many glyph heights below. */
const VALUE_BELOW = 3.6;
/** A value in a right-hand column may sit this many glyph heights off the label's baseline. */
const VALUE_BESIDE_SHIFT = 0.9;
/** The second half of a label (or value) wrapped in a narrow box cell starts within this share of the glyph height of the first. */
const WRAP_EDGE = 0.6;
/** ... on a line at most this many glyph heights below. */
const WRAP_BELOW = 1.8;

/** Cells of one value at most ("01 May 2024" "-" "31 May 2024" is three). */
const MAX_VALUE_CELLS = 12;
/** Cells in a line read for labels at most. */
const MAX_HEADER_CELLS = 200;
/** Largest gap between cells of one value: sheet cells never join, PDF runs join when close. */
const runGap = (line: Line) => (line.source === "sheet" ? 0 : VALUE_RUN_GAP * line.h);

/** A detached colon ("ACCOUNT NUMBER      : 0123456789") is neither label nor value. */
const stripColon = (v: string) => v.replace(/^:\s*/, "").trim();

/**
 * The labelled values of lines, by fact: the first one printed. `every` (optional) receives every
 * acceptable value of each fact in print order, repeats included (a whole-customer summary on the
 * first page, then the section's own).
 */
export function readLabelledValues(all: Line[], every?: Map<Field, string[]>): Map<Field, string> {
  // A header line holds a few label/value pairs; a line of hundreds of cells is no header, and
  // skipping it keeps the neighbour searches below linear on hostile input.
  const lines = all.map(splitLabelledRuns).filter((l) => l.cells.length <= MAX_HEADER_CELLS);
  const raw = new Map<Field, string>();
  const put = (field: Field, v: string): boolean => {
    const value = stripColon(v);
    // "From 01-Jan-2024 To 31-Jan-2024": a start label followed by the whole period.
    const f = (field === "periodStart" || field === "periodEnd") && scanPeriod(value) ? "period" : field;
    if (every && value !== "" && acceptable(f, value)) every.set(f, [...(every.get(f) ?? []), value]);
    if (value === "" || raw.has(f) || !acceptable(f, value)) return false;
    raw.set(f, value);
    return true;
  };
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!;
    const cells = line.cells;
    for (let ci = 0; ci < cells.length; ci++) {
      const cell = cells[ci]!;
      const inline = splitInline(joinFrom(cells, ci, runGap(line)));
      // Label and value in one run ("ACCOUNT No.: 1234", "Period: a TO b"), unless the run is a
      // label wrapped in its cell ("Name of" over "Account", its value beside them: not "of").
      if (inline && !labelField(cell.text) && !wrappedLabel(lines, li, cell)) {
        if (!put(inline[0], inline[1]) && inline[0] === "period" && openRange(stripColon(inline[1]))) putRangeEnd(lines, li, cell, inline[1], put);
        continue;
      }
      // A label drawn as two words ("ACCOUNT" "NO:") wins over its first word alone.
      const pair = ci + 1 < cells.length ? labelField(cells.slice(ci, ci + 2).map((c) => c.text).join(" ")) : null;
      const field = pair ?? labelField(cell.text) ?? wrappedLabel(lines, li, cell);
      // A label wrapped around its value's line (`Beginning` / `Balance`, the figure between) is
      // read only with the value found there.
      const around = () => (pair ? null : labelAroundValue(lines, li, cell));
      if (!field) {
        const found = around();
        if (found) put(found.field, found.value);
        continue;
      }
      const labelSpan = pair ? 2 : 1;
      const valueCells = valueRun(cells, ci + labelSpan, runGap(line));
      const sameLine = stripColon(valueCells.map((c) => c.text).join(" "));
      if (valueCells.length > 0 && acceptable(field, sameLine)) {
        put(field, sameLine);
        ci += labelSpan - 1 + valueCells.length;
        continue;
      }
      const found = around();
      if (found && put(found.field, found.value)) continue;
      const label = cells.slice(ci, ci + labelSpan);
      // A value wrapped in its cell: its last words on the next line, under its start.
      const wrapped = valueCells.length > 0 ? wrappedValue(lines, li, valueCells[0]!, sameLine) : null;
      if (wrapped !== null && acceptable(field, wrapped)) {
        put(field, wrapped);
        ci += labelSpan - 1 + valueCells.length;
        continue;
      }
      // A period whose end is printed on the next line, under its start.
      if (valueCells.length > 0 && (field === "period" || field === "periodStart") && openRange(sameLine)) {
        if (putRangeEnd(lines, li, valueCells[0]!, sameLine, put)) {
          ci += labelSpan - 1 + valueCells.length;
          continue;
        }
      }
      if (valueCells.length === 0) {
        const beside = valueBeside(lines, li, label[label.length - 1]!);
        const taken =
          beside !== null &&
          (acceptable(field, beside.text)
            ? put(field, beside.text)
            : (field === "period" || field === "periodStart") && openRange(beside.text) && putRangeEnd(lines, beside.li, beside.first, beside.text, put));
        if (taken) {
          ci += labelSpan - 1;
          continue;
        }
      }
      const below = valueBelow(lines, li, label[0]!.x0, label[label.length - 1]!.x1, (v) => acceptable(field, stripColon(v)));
      if (below !== null) put(field, below);
      ci += labelSpan - 1;
    }
  }
  return raw;
}

/** Cells of a value starting at index k: the first, then close neighbours up to the next label. */
function valueRun(cells: Cell[], k: number, gap: number): Cell[] {
  const run: Cell[] = [];
  for (; k < cells.length; k++) {
    const c = cells[k]!;
    const prev = run[run.length - 1];
    if (prev && c.x0 - prev.x1 > gap) break;
    // A label word inside a value run ("01-Jan-2024 To 31-Mar-2024") is part of the value.
    if (!prev && c.text.trim() !== ":" && (labelField(c.text) || splitInline(c.text) || startsPair(c.text))) break;
    if (prev && startsPair(c.text) && !(PERIOD_JOINER.test(c.text) && prev.kind === "date")) break;
    run.push(c);
  }
  return run;
}

/**
 * A value in a right-hand column whose baseline is a little off the label's (the two columns are
 * separate text blocks): the first cell right of the label on the nearest line within the shift.
 * A value wrapped in its cell around the label's line, centred on it, prints on both neighbours
 * from one left edge ("1st Jan 2026 to 31st Jan" over "Period", "2026" under it): it is both.
 */
function valueBeside(lines: Line[], li: number, label: Cell): { text: string; li: number; first: Cell } | null {
  const line = lines[li]!;
  const runs: { run: Cell[]; li: number; dy: number }[] = [];
  for (const lj of [li - 1, li + 1]) {
    const other = lines[lj];
    if (!other || other.page !== line.page) continue;
    const dy = Math.abs(other.y - line.y);
    if (dy > VALUE_BESIDE_SHIFT * Math.min(line.h, other.h)) continue;
    const run = runBesideLabel(line, other, label);
    if (run) runs.push({ run, li: lj, dy });
  }
  if (runs.length === 0) return null;
  const text = (r: Cell[]) => stripColon(r.map((c) => c.text).join(" "));
  if (runs.length === 2 && Math.abs(runs[0]!.run[0]!.x0 - runs[1]!.run[0]!.x0) <= line.h) {
    return { text: joinWrapped(text(runs[0]!.run), text(runs[1]!.run)), li: runs[1]!.li, first: runs[0]!.run[0]! };
  }
  const best = runs.reduce((a, b) => (b.dy < a.dy ? b : a));
  return { text: text(best.run), li: best.li, first: best.run[0]! };
}

/** The value run right of a label on a neighbouring line, or null when that line is a row of its own. */
function runBesideLabel(line: Line, other: Line, label: Cell): Cell[] | null {
  // Nothing on that line may sit under or left of the label: it is its own row then. Left of a
  // label in a second column of pairs (another label before it on its line) lies the first
  // pair's value, wrapped around the same middle line ("Name of" / "Account" beside a name).
  const second = line.cells.some((c) => c.x1 < label.x0);
  if (other.cells.some((c) => (second ? c.x1 > label.x0 && c.x0 < label.x1 : c.x0 < label.x1))) return null;
  const start = other.cells.findIndex((c) => c.x0 >= label.x1);
  if (start < 0) return null;
  const run = valueRun(other.cells, start, runGap(other));
  return run.length > 0 ? run : null;
}

/** The value under a label spanning x0..x1 (summary boxes), or null. */
function valueBelow(lines: Line[], li: number, x0: number, x1: number, accept: (value: string) => boolean): string | null {
  const line = lines[li]!;
  for (let lj = li + 1; lj < lines.length; lj++) {
    const below = lines[lj]!;
    if (below.page !== line.page || below.y - line.y > VALUE_BELOW * Math.max(line.h, below.h)) break;
    let run: Cell[] | null = null;
    if (below.source === "sheet") {
      // A sheet's value is in the label's own column.
      const k = below.cells.findIndex((c) => c.x1 > x0 && c.x0 < x1);
      if (k >= 0) run = runBelow(below, k);
    } else {
      // Left-aligned under the label (or a little left of it), else centred under it.
      const k = below.cells.findIndex((c) => c.x1 > x0 - line.h && c.x0 < x1 + line.h * 0.5 && c.x0 >= x0 - 3 * line.h);
      if (k >= 0) run = runBelow(below, k);
      if (!run || !accept(run.map((c) => c.text).join(" "))) {
        for (let c = 0; c < below.cells.length && c < MAX_VALUE_CELLS * 4 && below.cells[c]!.x0 < x1; c++) {
          const r = runBelow(below, c);
          if (Math.abs((r[0]!.x0 + r[r.length - 1]!.x1) / 2 - (x0 + x1) / 2) <= line.h && accept(r.map((cell) => cell.text).join(" "))) {
            run = r;
            break;
          }
        }
      }
    }
    if (!run) continue;
    if (labelField(run[0]!.text)) return null;
    return run.map((c) => c.text).join(" ");
  }
  return null;
}

/** The cells of a value starting at cell k of a line below its label, up to a gap or the next label. */
function runBelow(below: Line, k: number): Cell[] {
  const run: Cell[] = [below.cells[k]!];
  for (let j = k + 1; j < below.cells.length && run.length < MAX_VALUE_CELLS; j++) {
    const c = below.cells[j]!;
    // "to" between two dates is part of a period, not the next label.
    const periodJoin = PERIOD_JOINER.test(c.text) && scanDate(run[run.length - 1]!.text) !== null;
    if (c.x0 - run[run.length - 1]!.x1 > runGap(below) || ((isLabel(c.text) || startsPair(c.text)) && !periodJoin)) break;
    run.push(c);
  }
  return run;
}

/**
 * "Period: 01 May 2024 -" over "31 May 2024" (or "to 31 May 2024"): the end printed on the next
 * line, starting near the start date's left edge. Records the whole range when found.
 */
function putRangeEnd(lines: Line[], li: number, startCell: Cell, startText: string, put: (f: Field, v: string) => boolean): boolean {
  const line = lines[li]!;
  const below = lines[li + 1];
  if (!below || below.page !== line.page || below.y - line.y > 2 * Math.max(line.h, below.h)) return false;
  const k = below.cells.findIndex((c) => Math.abs(c.x0 - startCell.x0) <= 2 * line.h || (c.x0 >= startCell.x0 && c.x0 <= startCell.x1));
  // The end stands alone on its line: a line with its own label ("Print Date : 02/06/2024") is another fact.
  if (k !== 0) return false;
  // "to" opening the line is the joiner, not the end label.
  const first = below.cells[k]!;
  const next = below.cells[k + 1];
  const end = PERIOD_JOINER.test(first.text) && next ? `${first.text} ${next.text}` : first.text;
  const start = stripColon(startText).replace(/\s{0,20}(?:-|–|—|to:?|through|till|until)$/i, "");
  const endDate = end.replace(/^(?:-|–|—|to:?|through|till|until)\s{0,20}/i, "");
  return scanDate(endDate) !== null && put("period", `${start} - ${endDate}`);
}

/**
 * A value its cell wrapped (`Thu, 01 Jan 2026 to Sat, 28 Feb` over `2026`, a facts table's narrow
 * value column): the value with the run that starts the next line right under its first cell.
 */
function wrappedValue(lines: Line[], li: number, first: Cell, value: string): string | null {
  const line = lines[li]!;
  const below = lines[li + 1];
  if (!below || below.page !== line.page || below.y - line.y > WRAP_BELOW * Math.max(line.h, below.h)) return null;
  const start = below.cells[0];
  if (!start || Math.abs(start.x0 - first.x0) > WRAP_EDGE * line.h || labelField(start.text)) return null;
  const rest = valueRun(below.cells, 0, runGap(below));
  return rest.length === 0 ? null : joinWrapped(value, rest.map((c) => c.text).join(" "));
}

/**
 * A value's two lines as one: a date its cell wrapped right after a separator (`31-03-` over
 * `2026`) goes on without a space, any other break at a space.
 */
const joinWrapped = (first: string, rest: string): string => (/\d[-/.]$/.test(first) && /^\d/.test(rest) ? `${first}${rest}` : `${first} ${rest}`);

/** A label and value in one run: "Period: 30/06/2025 TO 28/02/2026", "Name TEST USER". */
function splitInline(raw: string): [Field, string] | null {
  // An abbreviation touching its value ("Acct. No.0123456789") is a label and a value.
  const text = raw.trim().slice(0, 400).replace(/(?<=[A-Za-z]\.)(?=\d)/, " ");
  const m = /^([^:]{2,40}):\s*(.+)$/.exec(text);
  if (m) {
    const field = labelField(m[1] ?? "");
    return field ? [field, m[2]!.trim()] : null;
  }
  // No colon: a label phrase of up to four words run together with its value ("Name TEST USER").
  const words = text.split(/\s+/, 40);
  for (let n = Math.min(4, words.length - 1); n >= 1; n--) {
    const field = labelField(words.slice(0, n).join(" "));
    const value = words.slice(n).join(" ");
    if (field && acceptable(field, value)) return [field, value];
  }
  return null;
}

/** Text of cells ci.. joined while they are close together (one visual run) and no new label starts. */
function joinFrom(cells: Cell[], ci: number, gap: number): string {
  let text = cells[ci]!.text;
  for (let k = ci + 1; k < cells.length; k++) {
    if (cells[k]!.x0 - cells[k - 1]!.x1 > gap) break;
    if (startsPair(cells[k]!.text) && !(PERIOD_JOINER.test(cells[k]!.text) && cells[k - 1]!.kind === "date")) break;
    text += ` ${cells[k]!.text}`;
  }
  return text;
}

/**
 * A label wrapped in its cell ("Statement" over "Period"): the field of the two halves joined,
 * when the second half is alone at the same left edge just below. Its value is the first half's.
 */
function wrappedLabel(lines: Line[], li: number, cell: Cell): Field | null {
  return wrappedLabelAt(lines, li, cell)?.field ?? null;
}

/**
 * wrappedLabel's field and the line its second half is on. `around`: the halves may also lie
 * around a line between them (twice as far apart), a value's line they are centred on.
 */
function wrappedLabelAt(lines: Line[], li: number, cell: Cell, around = false): { field: Field; tailLine: number } | null {
  if (cell.kind !== "text" || cell.text.length > 25) return null;
  const line = lines[li]!;
  for (let lj = li + 1; lj < lines.length; lj++) {
    const below = lines[lj]!;
    const reach = around && lj > li + 1 ? 2 * WRAP_BELOW : WRAP_BELOW;
    if (below.page !== line.page || below.y - line.y > reach * line.h) break;
    const tail = below.cells.find((c) => Math.abs(c.x0 - cell.x0) <= WRAP_EDGE * line.h);
    if (!tail) continue;
    const field = tail.kind === "text" ? labelField(`${cell.text} ${tail.text}`) : null;
    return field ? { field, tailLine: lj } : null;
  }
  return null;
}

/**
 * A label wrapped in its cell around its value's line, both centred in their row (`Account` over
 * `Number`, `0123456789` right of them on the line between): the field of the two halves and the
 * run right of the label on a line between them, when nothing on that line lies under the label
 * (cells left of it are another pair's, in a column of their own) and the run is such a field's.
 */
function labelAroundValue(lines: Line[], li: number, label: Cell): { field: Field; value: string } | null {
  const halves = wrappedLabelAt(lines, li, label, true);
  if (!halves || halves.tailLine === li + 1) return null;
  const value = valueBetweenHalves(lines, li, halves.tailLine, label);
  return value !== null && acceptable(halves.field, value) ? { field: halves.field, value } : null;
}

/** The value run right of a label on the first line between its halves that holds one and nothing under the label. */
function valueBetweenHalves(lines: Line[], li: number, tailLine: number, label: Cell): string | null {
  for (let lj = li + 1; lj < tailLine; lj++) {
    const cells = lines[lj]!.cells;
    if (cells.some((c) => c.x1 > label.x0 && c.x0 < label.x1)) continue;
    const k = cells.findIndex((c) => c.x0 >= label.x1);
    if (k < 0) continue;
    const run = valueRun(cells, k, runGap(lines[lj]!));
    if (run.length > 0) return stripColon(run.map((c) => c.text).join(" "));
  }
  return null;
}

/** Cuts runs holding several label/value pairs ("Account Name ADA OKAFOR Account Type Savings") into one cell per pair. */
function splitLabelledRuns(line: Line): Line {
  if (!line.cells.some((c) => c.kind === "text" && c.text.includes(" "))) return line;
  const cells: Cell[] = [];
  let changed = false;
  for (const c of line.cells) {
    const parts = c.kind === "text" ? splitAtLabels(c.text) : [];
    if (parts.length < 2) {
      cells.push(c);
      continue;
    }
    changed = true;
    const per = (c.x1 - c.x0) / c.text.length;
    for (const p of parts) {
      if (p.text === "") continue;
      const text = p.text;
      cells.push({ text, x0: c.x0 + p.start * per, x1: c.x0 + (p.start + text.length) * per, kind: "text" });
    }
  }
  return changed ? withCells(line, cells) : line;
}
