/**
 * An opening or closing line whose label wrapped in a narrow cell ("BEGINNING" / "BALANCE", centred
 * on its figure) leaves the label's words on text lines of their own, around the figure's line.
 * Read as continuations, they would join the next or previous transaction's narration; a run of
 * such lines that reads, whole, as nothing but a balance label is set apart instead.
 */
import { type AmountLine, CONTINUATION_GAP, type Pending } from "./draft.ts";
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
  const apart = new Set<number>();
  for (let i = 0; i < pendings.length; i++) {
    let text = "";
    for (let j = i; j < Math.min(pendings.length, i + MAX_LABEL_LINES); j++) {
      if (j > i && !adjacent(pendings[j - 1]!.line, pendings[j]!.line)) break;
      text = `${text} ${pendings[j]!.line.text}`.trim();
      if (!BALANCE_LABEL_ONLY.test(text)) continue;
      const figures = figuresBeside(amountLines, pendings[i]!.line, pendings[j]!.line);
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

/** The amount line printed between a label's first and last lines, or right beside them. */
function figuresBeside(amountLines: AmountLine[], first: Line, last: Line): AmountLine | undefined {
  const reach = CONTINUATION_GAP * Math.max(first.h, last.h);
  return amountLines.find((a) => a.page === first.page && a.y !== undefined && a.y >= first.y - reach && a.y <= last.y + reach);
}

const adjacent = (a: Line, b: Line) => a.page === b.page && b.y > a.y && b.y - a.y <= CONTINUATION_GAP * Math.max(a.h, b.h);
