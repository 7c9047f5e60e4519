/**
 * An opening or closing line whose label wrapped in a narrow cell ("BEGINNING" / "BALANCE", centred
 * on its figure) leaves the label's words on text lines of their own, around the figure's line.
 * Read as continuations, they would join the next or previous transaction's narration; a run of
 * such lines that reads, whole, as nothing but a balance label is set apart instead, and so is a
 * run that finishes the label its figure's line begins (`OPENING` beside the figure, `BALANCE`
 * under it: cells aligned to the top).
 */
import { type AmountLine, CONTINUATION_GAP, type Pending } from "./draft.ts";
import { MONEY } from "./columns.ts";
import type { ColumnRole } from "./header.ts";
import { BALANCE_LABEL_ONLY } from "./labels.ts";
import type { Line } from "./lines.ts";

/** A label wraps to at most this many lines. */
const MAX_LABEL_LINES = 3;

/**
 * Removes from `pendings` the runs of adjacent text lines that together read as a balance label,
 * and adds their lines to `outside`; the line of figures they wrap around takes the label. A label
 * on one line of its own is set apart only beside its figures (an amount line printed just above
 * or below it, as a centred cell whose figure wrapped prints them).
 */
export function setApartWrappedLabels(pendings: Pending[], outside: Line[], amountLines: AmountLine[]): Pending[] {
  // Each pending line looks only at its own page's amount lines: one pass over them, not one per line.
  const byPage = new Map<number, AmountLine[]>();
  for (const a of amountLines) {
    if (a.page === undefined || a.y === undefined) continue;
    const list = byPage.get(a.page);
    if (list) list.push(a);
    else byPage.set(a.page, [a]);
  }
  const apart = new Set<number>();
  for (let i = 0; i < pendings.length; i++) {
    const onPage = byPage.get(pendings[i]!.line.page) ?? [];
    // The label's first words on its figure's own line (`OPENING` beside `25,000.00`, cells
    // top-aligned), the rest on the lines right under it.
    let start: { label: string; line: AmountLine } | undefined | null = null;
    let text = "";
    for (let j = i; j < Math.min(pendings.length, i + MAX_LABEL_LINES); j++) {
      if (j > i && !adjacent(pendings[j - 1]!.line, pendings[j]!.line)) break;
      text = `${text} ${pendings[j]!.line.text}`.trim();
      if (!BALANCE_LABEL_ONLY.test(text)) {
        if (start === null) start = labelOnLineAbove(onPage, pendings[i]!.line);
        if (start === undefined || !BALANCE_LABEL_ONLY.test(`${start.label} ${text}`)) continue;
        // The figure's line reads with its whole label before it, as an unwrapped one does
        // (`BEGINNING BALANCE` then the line's own `BEGINNING NGN 25,000.00`).
        start.line.text = `${start.label} ${text} ${start.line.text}`;
        for (let k = i; k <= j; k++) apart.add(k);
        break;
      }
      const figures = figuresBeside(onPage, pendings[i]!.line, pendings[j]!.line);
      if (!figures && j === i) continue;
      if (figures) figures.text = `${text} ${figures.text}`;
      for (let k = i; k <= j; k++) apart.add(k);
      break;
    }
  }
  if (apart.size === 0) return pendings;
  for (const k of apart) outside.push(pendings[k]!.line);
  return pendings.filter((_, k) => !apart.has(k));
}

/** The amount line (of the label's page) printed between a label's first and last lines, or right beside them. */
function figuresBeside(onPage: AmountLine[], first: Line, last: Line): AmountLine | undefined {
  const reach = CONTINUATION_GAP * Math.max(first.h, last.h);
  return onPage.find((a) => a.y! >= first.y - reach && a.y! <= last.y + reach);
}

/** The label words of the amount line (of `line`'s page) right above `line`, not a whole label already, if any. */
function labelOnLineAbove(onPage: AmountLine[], line: Line): { label: string; line: AmountLine } | undefined {
  const a = onPage.find((x) => x.y! < line.y && line.y - x.y! <= CONTINUATION_GAP * line.h);
  if (!a) return undefined;
  const label = Object.entries(a.cells)
    .filter(([role, t]) => !MONEY.has(role as ColumnRole) && t !== undefined)
    .map(([, t]) => t!.trim())
    .join(" ")
    .trim();
  return label === "" || BALANCE_LABEL_ONLY.test(label) ? undefined : { label, line: a };
}

const adjacent = (a: Line, b: Line) => a.page === b.page && b.y > a.y && b.y - a.y <= CONTINUATION_GAP * Math.max(a.h, b.h);
