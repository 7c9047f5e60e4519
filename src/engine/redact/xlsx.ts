import ExcelJS from "exceljs";
import { unsupportedFormat } from "../../errors.ts";
import { cellText } from "../xlsx/cell-text.ts";
import { buildMatchers, detectPii, emptyValues, findHits, findSpans, mergeValues, replaceSpans, type KnownPii, type Matcher, type PiiValues } from "./find.ts";
import type { PageRuns, TextRun } from "./pdf-text.ts";
import { cleanSheetExtras } from "./xlsx-extras.ts";
import { sweepWorkbook } from "./xlsx-sweep.ts";

/** What replaces personal data in a cell. */
export const REDACTED = "[REDACTED]";

// Cells are laid out as text runs on a grid so the PDF finder's label logic (value to the right of
// its label, or below it) works unchanged: column c at x = c * CELL_PITCH, row r one line lower.
const CELL_PITCH = 100;
const CELL_WIDTH = 90;
const ROW_PITCH = 10;
const ROW_HEIGHT = 8;

/** A cell's text as a run at its grid position (1-based row and column). */
export const cellRun = (str: string, row: number, col: number): TextRun => ({ str, x: col * CELL_PITCH, y: -row * ROW_PITCH, width: CELL_WIDTH, height: ROW_HEIGHT, dx: 1, dy: 0 });

interface CellRun {
  run: TextRun;
  cell: ExcelJS.Cell;
}

function sheetRuns(ws: ExcelJS.Worksheet): CellRun[] {
  const out: CellRun[] = [];
  ws.eachRow({ includeEmpty: false }, (row, r) => {
    row.eachCell({ includeEmpty: false }, (cell, c) => {
      // A merged range shows its text once, in its top-left cell.
      if (cell.isMerged && cell.master !== cell) return;
      // The whole text, uncut: a cell is written back from it.
      const str = cellText(cell.value, Number.POSITIVE_INFINITY);
      if (str.trim() === "") return;
      out.push({ cell, run: cellRun(str, r, c) });
    });
  });
  return out;
}

/** Replaces char ranges of a cell's display text; the cell becomes a plain string (formula, link and rich-text runs dropped). */
function replaceRanges(text: string, ranges: [number, number][]): string {
  let out = "";
  let pos = 0;
  for (const [s, e] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (s < pos) continue;
    out += text.slice(pos, s) + REDACTED;
    pos = e;
  }
  return out + text.slice(pos);
}

/** The text with every personal-data span replaced, or undefined when there is none. */
function redactText(text: string, matchers: Matcher[]): string | undefined {
  return replaceSpans(text, matchers, REDACTED)?.text;
}

/** Print headers and footers can carry the same data as the cells. */
function redactHeaders(ws: ExcelJS.Worksheet, matchers: Matcher[]): number {
  let n = 0;
  const hf = ws.headerFooter as Record<string, unknown> | undefined;
  for (const k of ["oddHeader", "oddFooter", "evenHeader", "evenFooter", "firstHeader", "firstFooter"]) {
    const v = hf?.[k];
    if (typeof v !== "string") continue;
    const next = redactText(v, matchers);
    if (next === undefined) continue;
    hf![k] = next;
    n++;
  }
  return n;
}

/**
 * Redacts a workbook in memory: the same personal data as in a PDF, found with the same rules,
 * replaced by "[REDACTED]" in the cells that hold it, in print headers/footers, in cell notes,
 * data-validation prompts, and links and formulas that carry it (xlsx-extras.ts); other cells are
 * not written to. The written copy is swept part by part (xlsx-sweep.ts) and refused if any of the
 * data is left. The document
 * properties that name people or organisations (creator, last modified by, company, manager) and
 * describe the file (title, subject, keywords, description) are cleared.
 */
export async function redactXlsx(bytes: Uint8Array, known?: KnownPii): Promise<{ bytes: Uint8Array; redactions: number }> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ExcelJS.Buffer);
  } catch (e) {
    throw unsupportedFormat(`The spreadsheet could not be read as XLSX (${e instanceof Error ? e.message : "unknown error"})`);
  }
  const sheets = wb.worksheets.map((ws, index) => {
    const cells = sheetRuns(ws);
    const page: PageRuns = { index, view: [0, 0, 0, 0], runs: cells.map((c) => c.run) };
    return { cells, page };
  });
  // Each sheet may carry its own header (OPay: one per account section), so labels are read on all.
  const values = emptyValues();
  for (const s of sheets) mergeValues(values, detectPii([s.page], known));

  const hits = findHits(sheets.map((s) => s.page), values);
  const byRun = new Map<TextRun, [number, number][]>();
  for (const h of hits) byRun.set(h.run, [...(byRun.get(h.run) ?? []), [h.start, h.end]]);
  for (const s of sheets) {
    for (const { run, cell } of s.cells) {
      const ranges = byRun.get(run);
      if (ranges) cell.value = replaceRanges(run.str, ranges);
    }
  }
  const matchers = buildMatchers(values);
  let extra = cleanSheetExtras(wb, matchers, REDACTED, (cell) => cellText(cell.value, Number.POSITIVE_INFINITY));
  for (const ws of wb.worksheets) extra += redactHeaders(ws, matchers);
  // Sheet names may not contain brackets, so the marker there is a plain word.
  wb.worksheets.forEach((ws) => {
    const spans = findSpans(ws.name, matchers);
    if (spans.length === 0) return;
    const taken = new Set(wb.worksheets.map((w) => w.name));
    let name = replaceRanges(ws.name, spans.map((sp) => [sp.start, sp.end])).replaceAll(REDACTED, "REDACTED").slice(0, 31);
    for (let k = 2; taken.has(name); k++) name = `${name.slice(0, 27)} (${k})`;
    ws.name = name;
    extra++;
  });
  const p = wb as unknown as Record<string, unknown>;
  for (const k of ["creator", "lastModifiedBy", "company", "manager", "title", "subject", "keywords", "description"]) {
    if (k in p) p[k] = "";
  }
  const out = new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
  sweepWorkbook(out, matchers);
  return { bytes: out, redactions: new Set(hits.map((h) => h.group)).size + extra };
}
