import type { RowDraft } from "./draft.ts";

/**
 * A date printed once for a run of rows and centred beside them: a date cell merged down over a
 * day's rows and centred in it (an HTML `rowspan`, whose cells are centred by default; iText's
 * rowspan). The scan reads a date printed once per day as heading its day's rows, and a date on a
 * line of its own as the date of the row above (a bottom-aligned date cell), so such a run's rows
 * above its date take the day before. A centred date lies at the middle of its run: half way
 * between the first line of the run's first row and the last line of its last row.
 *
 * Top-aligned runs (each date on its run's first row) can fit the same construction by chance, so
 * the reading is taken only when the table shows what top-aligned dates never do: dates printed
 * below a row's amounts (between two rows, or beside a row's wrapped text), enough of them
 * (MIN_OFF_ROW_DATES, MIN_OFF_ROW_SHARE). Then, page by page, each date's run is built from where
 * the last one ended down to the row whose last line lies as far below the date as the run's first
 * line lies above it. When every date of the page fits, every date printed on a row's own line falls in its
 * own run, and the runs cover the page's rows, each run's rows take its date. A run the page break
 * cut (the page's last date, the next page starting with rows that print no date) ends at the
 * page's last row, and its rows at the top of the next page come before that page's first date
 * and take it, as do all the rows of a page with no date. A page where any date does not fit keeps
 * the scan's dates.
 */

/**
 * Dates printed off their rows' first lines a table needs before its dates are read as centred,
 * in number and as a share of its dates (runs of an even number of rows put their date between
 * two rows: about half of them).
 */
const MIN_OFF_ROW_DATES = 2;
const MIN_OFF_ROW_SHARE = 0.2;
/** How far a date may lie from its run's middle, as a share of the page's usual row pitch. */
const MIDDLE_TOLERANCE = 0.4;

/** A printed date: where it is, and the row that holds it (on its own line, or claimed from a line below). */
interface Mark {
  y: number;
  row: number;
  /** Printed on its row's own line: that row is surely of this date. */
  own: boolean;
}

/** A page's dates and rows as runsFrom reads them; `continues`: the next page starts with rows that print no date. */
interface Geometry {
  marks: Mark[];
  top: number[];
  bottom: number[];
  tolerance: number;
  continues: boolean;
}

interface Run {
  first: number;
  last: number;
  mark: Mark;
}

/** The row's date was claimed from a line below its own (layout/day-rows.ts), not printed on it. */
const dateBelow = (r: RowDraft): boolean => r.dateY !== undefined && r.dateY !== r.y;

/** The scan's rows re-dated run by run where the table's dates are centred on their runs (see above). */
export function redateCentredRuns(rows: RowDraft[]): void {
  const dated = rows.filter((r) => !r.inherited).length;
  const offRow = rows.filter(dateBelow).length;
  if (offRow < Math.max(MIN_OFF_ROW_DATES, MIN_OFF_ROW_SHARE * dated)) return;
  // The date of the previous page's last run, for the rows of it the page break carried over.
  let carried: RunDate | null = null;
  for (let from = 0; from < rows.length; ) {
    let to = from;
    while (to < rows.length && rows[to]!.page === rows[from]!.page) to++;
    const page = rows.slice(from, to);
    from = to;
    if (!page.some((r) => !r.inherited)) {
      // No date on the page: a run longer than the page, carried on from the page before.
      if (carried) for (const r of page) setDate(r, carried);
      continue;
    }
    const runs = page.some((r) => r.inherited) ? pageRuns(page, rows[to]?.inherited === true) : null;
    carried = runs ? redate(page, runs, carried) : null;
  }
}

/**
 * The page's rows as runs around its dates, or null when they are not centred runs. The rows
 * before the page's first date may end a run the page break cut: the page's first run then
 * starts after them.
 */
function pageRuns(page: RowDraft[], continues: boolean): Run[] | null {
  const marks: Mark[] = [];
  page.forEach((r, row) => {
    if (r.inherited) return;
    // A date wrapped in its narrow cell (`03 Jan` over `2026`) is centred as a block: its middle
    // lies half way down to the line its last part was printed on.
    const own = !dateBelow(r);
    const y = own ? r.y : r.dateY!;
    marks.push({ y: (y + (r.dateBottom ?? y)) / 2, row, own });
  });
  marks.sort((a, b) => a.y - b.y);
  const extents = page.map(extent);
  const top = extents.map((e) => e[0]);
  const bottom = extents.map((e) => e[1]);
  const tolerance = MIDDLE_TOLERANCE * medianPitch(top);
  const geometry: Geometry = { marks, top, bottom, tolerance, continues };
  for (let start = 0; start < page.length && (marks.length === 0 || top[start]! <= marks[0]!.y); start++) {
    const runs = runsFrom(geometry, start);
    if (runs) return runs;
  }
  return null;
}

/** The runs when the first starts at row `start` and each next one where the last ended; null when a date does not fit. */
function runsFrom({ marks, top, bottom, tolerance, continues }: Geometry, start: number): Run[] | null {
  const runs: Run[] = [];
  const rowCount = top.length;
  let first = start;
  for (const [k, mark] of marks.entries()) {
    if (first >= rowCount || top[first]! > mark.y) return null;
    const end = 2 * mark.y - top[first]!;
    // The run's last row: its last line nearest `end`, among the rows that start above the next date.
    const next = marks[k + 1]?.y ?? Infinity;
    let last = first;
    for (let r = first + 1; r < rowCount && top[r]! < next; r++) if (Math.abs(bottom[r]! - end) < Math.abs(bottom[last]! - end)) last = r;
    if (Math.abs(bottom[last]! - end) > tolerance) {
      // The page's last date, when the next page starts with rows of no date of their own, may
      // head a run the page break cut, its date placed on the part here as the producer chose
      // (centred on that part, or at its top): its run is the rest of the page.
      if (!continues || k !== marks.length - 1) return null;
      last = rowCount - 1;
    }
    runs.push({ first, last, mark });
    first = last + 1;
  }
  // Rows after the page's last run, the next page starting with rows of no date: that run was cut
  // by the page break after its date (which producers print on a cut cell's first part).
  const lastRun = runs[runs.length - 1];
  if (first < rowCount && continues && lastRun) {
    lastRun.last = rowCount - 1;
    first = rowCount;
  }
  if (first !== rowCount) return null;
  // A date printed on a row's own line is that row's; every run starting at its date's row is top-aligned, nothing to change.
  if (runs.some((r) => r.mark.own && (r.mark.row < r.first || r.mark.row > r.last))) return null;
  if (runs.every((r) => r.mark.own && r.mark.row === r.first)) return null;
  return runs;
}

/** A run's date: the date text and date cell of the row that holds it. */
interface RunDate {
  dateText: string;
  cell: string | undefined;
}

/**
 * Each run's rows take its date, as rows of a date printed once per day take the date above them,
 * and the rows before the page's first run the previous page's last run's date when that page was
 * read so. A row that claimed a date from the line below it may belong to another run: the dates
 * are read before any row changes. Answers the page's last run's date.
 */
function redate(page: RowDraft[], runs: Run[], carried: RunDate | null): RunDate {
  const dates: RunDate[] = runs.map((r) => runDate(page[r.mark.row]!));
  if (carried) for (let k = 0; k < runs[0]!.first; k++) setDate(page[k]!, carried);
  runs.forEach((run, i) => {
    for (let k = run.first; k <= run.last; k++) {
      if (k === run.mark.row && run.mark.own) continue;
      setDate(page[k]!, dates[i]!);
      page[k]!.inherited = k !== run.mark.row;
    }
  });
  return dates[dates.length - 1]!;
}

/**
 * The date of the row holding a run's date: its date text, and its date cell when that cell is the
 * same date (a wrapped date's last part, `2026`, may have gone to a neighbouring row's cell, leaving
 * this one the part of another date): else the date text alone.
 */
function runDate(holder: RowDraft): RunDate {
  const cell = holder.cells.date;
  return { dateText: holder.dateText, cell: cell !== undefined && cell.startsWith(holder.dateText) ? cell : holder.dateText };
}

function setDate(row: RowDraft, d: RunDate): void {
  row.dateText = d.dateText;
  row.cells.date = d.cell;
}

/** The first and last baselines of a row's own lines on its page (a date it claimed from a line below is not its text). */
function extent(row: RowDraft): [number, number] {
  let lo = row.y;
  let hi = Math.max(row.y, row.lastY);
  for (const [role, list] of Object.entries(row.pieces ?? {})) {
    if (role === "date") continue;
    for (const p of list ?? []) {
      if (p.page !== row.page) continue;
      lo = Math.min(lo, p.y);
      hi = Math.max(hi, p.y);
    }
  }
  return [lo, hi];
}

/** The median distance between consecutive rows' first lines. */
function medianPitch(tops: number[]): number {
  const gaps = tops.slice(1).map((t, i) => t - tops[i]!).sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 0;
}
