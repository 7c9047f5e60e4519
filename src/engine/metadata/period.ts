/** The statement period: a labelled range, a start and an end label, or a title that names it. */
import { type RawDate, scanDate, scanPeriod } from "../dates.ts";
import type { Line } from "../layout/lines.ts";
import type { Field } from "./labels.ts";

/** A statement title that carries its period. */
const PERIOD_TITLE = /\bstatement(?:\s+of\s+accounts?)?\s+(?:for|from|covering)\s+(?:the\s+(?:month|period)\s+(?:of\s+)?)?(.{6,60})$/i;

/** The word between a period's two dates. */
export const PERIOD_JOINER = /^(?:to:?|through|thru|till|until|-|–|—)$/i;

/** "Statement for January 2024", "Statement of account from 01/01/2024 to 31/01/2024". */
export function periodFromTitle(lines: Line[]): string | null {
  for (const line of lines) {
    if (!TITLE_START.test(line.text)) continue;
    // The title may not end its line: a page count or a run date printed after it on the same
    // baseline (`STATEMENT OF ACCOUNT FOR THE PERIOD 01-JAN-2026 TO 28-FEB-2026   PAGE 1 OF 4`).
    for (let k = line.cells.length; k >= 1; k--) {
      const text = k === line.cells.length ? line.text : line.cells.slice(0, k).map((c) => c.text).join(" ");
      const m = PERIOD_TITLE.exec(text.slice(-200));
      if (m && scanPeriod(m[1]!)) return m[1]!;
    }
  }
  return null;
}

/** A title's opening words (PERIOD_TITLE without its period), tried first: most lines are no title. */
const TITLE_START = /\bstatement(?:\s+of\s+accounts?)?\s+(?:for|from|covering)\b/i;

/** A line that announces a period in its own words ("Transactions from 01/05/2024 to 31/05/2024"). */
const PERIOD_WORDS = /\b(?:period|from|covering|between)\b/i;
/** Longest line read as a period sentence. */
const MAX_PERIOD_LINE = 100;

/** A period printed in a sentence without a known label, on a short line of its own. */
export function periodFromSentence(lines: Line[]): string | null {
  for (const line of lines) {
    const t = line.text;
    if (t.length <= MAX_PERIOD_LINE && PERIOD_WORDS.test(t) && scanPeriod(t)) return t;
  }
  return null;
}

/** The period from the values read: a range, else a start and an end printed apart. */
export function periodOf(raw: ReadonlyMap<Field, string>): [RawDate, RawDate] | null {
  const range = raw.get("period");
  const whole = range ? scanPeriod(range) : null;
  if (whole) return whole;
  const a = raw.has("periodStart") ? scanDate(raw.get("periodStart")!) : null;
  const b = raw.has("periodEnd") ? scanDate(raw.get("periodEnd")!) : null;
  return a && b ? [a, b] : null;
}

/** A period's first date printed alone ("01 May 2024", "01 May 2024 -"): its end is on the next line. */
export function openRange(value: string): boolean {
  const t = value.replace(/\s{0,20}(?:-|–|—|to:?|through|till|until)$/i, "");
  return scanDate(t) !== null;
}
