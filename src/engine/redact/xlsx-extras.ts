import type ExcelJS from "exceljs";
import { replaceSpans, textContainsPii, type Matcher } from "./find.ts";
import { percentDecoded } from "./percent.ts";

/**
 * The parts of a worksheet that are not cell text but carry it just as well: cell notes, hyperlink
 * targets and tooltips, formulas (a HYPERLINK("mailto:…") or a string constant), and data-validation
 * prompts and messages. Each is read with percent-encoding decoded, so "%32%30…" hides nothing.
 */

const hasPii = (text: string, matchers: Matcher[]) => textContainsPii(percentDecoded(text), matchers);

/** A note's text, whether exceljs holds it as a string or as rich-text runs. */
function noteText(note: ExcelJS.Comment | string): string {
  if (typeof note === "string") return note;
  return (note.texts ?? []).map((t) => t.text).join("");
}

/**
 * A cell's note, link and formula: a note with personal data keeps its text with the data
 * replaced; a link or formula with personal data (in its target, tooltip or formula text) leaves
 * the cell as its displayed text, `redactText` applied. Returns how many were changed.
 */
function cleanCell(cell: ExcelJS.Cell, matchers: Matcher[], replacement: string, displayed: (c: ExcelJS.Cell) => string): number {
  let n = 0;
  const note = cell.note as ExcelJS.Comment | string | undefined;
  if (note !== undefined) {
    const text = percentDecoded(noteText(note));
    const next = replaceSpans(text, matchers, replacement);
    if (next) {
      cell.note = next.text;
      n++;
    }
  }
  const v = cell.value;
  if (v && typeof v === "object" && !(v instanceof Date)) {
    const parts: string[] = [];
    if ("hyperlink" in v) parts.push(v.hyperlink ?? "", v.tooltip ?? "");
    if ("formula" in v && typeof v.formula === "string") parts.push(v.formula);
    if ("sharedFormula" in v && typeof v.sharedFormula === "string") parts.push(v.sharedFormula);
    if (parts.some((p) => hasPii(p, matchers))) {
      const text = displayed(cell);
      cell.value = replaceSpans(text, matchers, replacement)?.text ?? text;
      n++;
    }
  }
  return n;
}

interface ValidationModel {
  formulae?: unknown[];
  prompt?: string;
  promptTitle?: string;
  error?: string;
  errorTitle?: string;
}

/** Data-validation prompts, titles, messages and list formulae with personal data replaced. */
function cleanValidations(ws: ExcelJS.Worksheet, matchers: Matcher[], replacement: string): number {
  let n = 0;
  // exceljs keeps a sheet's validations on `dataValidations.model` (address -> rule), which its typings omit.
  const model = (ws as unknown as { dataValidations: { model: Record<string, ValidationModel | undefined> } }).dataValidations.model;
  for (const dv of Object.values(model)) {
    if (!dv) continue;
    for (const k of ["prompt", "promptTitle", "error", "errorTitle"] as const) {
      const v = dv[k];
      if (typeof v !== "string") continue;
      const next = replaceSpans(percentDecoded(v), matchers, replacement);
      if (!next) continue;
      dv[k] = next.text;
      n++;
    }
    if (Array.isArray(dv.formulae)) {
      dv.formulae = dv.formulae.map((f) => {
        if (typeof f !== "string" || !hasPii(f, matchers)) return f;
        n++;
        // A list's quoted items are text: the data goes, the list stays a list.
        return replaceSpans(percentDecoded(f), matchers, replacement)?.text ?? f;
      });
    }
  }
  return n;
}

/** Notes, links, formulas and validations of every sheet; returns how many were changed. */
export function cleanSheetExtras(wb: ExcelJS.Workbook, matchers: Matcher[], replacement: string, displayed: (c: ExcelJS.Cell) => string): number {
  let n = 0;
  for (const ws of wb.worksheets) {
    ws.eachRow({ includeEmpty: false }, (row) => row.eachCell({ includeEmpty: true }, (cell) => (n += cleanCell(cell, matchers, replacement, displayed))));
    n += cleanValidations(ws, matchers, replacement);
  }
  return n;
}
