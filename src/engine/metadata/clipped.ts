/**
 * Labels a spreadsheet cut and glued to their values when printed: a label wider than its column
 * is clipped at the next cell, where the value starts with no space ("Account Numb0123456789",
 * "Account NameADEOLA JOHNSON", "Statement Per01/01/2026"). Such a cell is read as the full label
 * and its value when the text starts with a label below, cut no shorter than MIN_KEPT letters of
 * its last word, and the value starts where the case or the kind of character changes.
 */
import type { Cell } from "../layout/cells.ts";
import { type Line, withCells } from "../layout/lines.ts";

/** Labels a sheet's header block prints in a narrow first column (title case, as sheets write them). */
const CLIPPABLE = [
  "Account Name",
  "Account Number",
  "Account No",
  "Customer Name",
  "Statement Period",
  "Opening Balance",
  "Closing Balance",
  "Period",
  "Currency",
];

/** Letters of the label's last word a clipped label keeps at least ("Numb", "Per"). */
const MIN_KEPT = 3;

/** Where a glued value starts: a lower-case letter followed by a capital, a digit or a currency sign. */
const BOUNDARY = /[a-z](?=[A-Z\d₦(-])/g;

/** The label `head` is (whole, or cut inside its last word after MIN_KEPT letters), or undefined. */
const labelCutTo = (head: string): string | undefined =>
  CLIPPABLE.find((l) => l.toLowerCase().startsWith(head.toLowerCase()) && head.length >= l.lastIndexOf(" ") + 1 + MIN_KEPT);

/** The cell's text as "label value" when it is a clipped label glued to its value (or the full label when it stands alone), else null. */
export function unglueLabel(text: string): string | null {
  for (const m of text.slice(0, 60).matchAll(BOUNDARY)) {
    const cut = m.index + 1;
    const label = labelCutTo(text.slice(0, cut));
    if (label) return `${label} ${text.slice(cut).trim()}`;
  }
  // Clipped with its value in a cell of its own ("Opening Bala" … "25,000.00"); a whole label stays as it is.
  const label = labelCutTo(text.trim());
  return label !== undefined && label.length > text.trim().length ? label : null;
}

/** The lines with every glued, clipped label cell read apart (other cells untouched). */
export function ungluedLines(lines: Line[]): Line[] {
  return lines.map((line) => {
    let changed = false;
    const cells = line.cells.map((c): Cell => {
      if (c.kind !== "text") return c;
      const text = unglueLabel(c.text);
      if (text === null) return c;
      changed = true;
      return { ...c, text, words: undefined };
    });
    return changed ? withCells(line, cells) : line;
  });
}
