import type { IntegritySignal, Verdict } from "./types.ts";

/**
 * The verdict, with honest severity. One `info` is what many genuine statements carry; any `warn`
 * asks for a human look. `likely_edited` needs evidence in the content itself: a `high` signal
 * (text over text, a covering box), or two independent kinds of evidence of which one is in the
 * drawn content (e.g. an update replacing a page's content and an editor's producer string). A
 * producer string, a date or a reconciliation failure alone never makes it.
 */

/** Codes about what the pages draw (as opposed to metadata and the statement's arithmetic). */
const CONTENT = new Set(["text_over_text", "covered_text", "font_outlier", "figure_misaligned", "page_fonts_differ", "page_size_differs", "update_changes_content"]);

export function verdictOf(signals: IntegritySignal[]): Verdict {
  if (signals.some((s) => s.severity === "high")) return "likely_edited";
  const warns = signals.filter((s) => s.severity === "warn");
  const contentCodes = new Set(warns.filter((s) => CONTENT.has(s.code)).map((s) => s.code));
  const otherWarn = warns.some((s) => !CONTENT.has(s.code));
  if (contentCodes.size > 0 && (contentCodes.size >= 2 || otherWarn)) return "likely_edited";
  if (warns.length > 0 || signals.length >= 2) return "review";
  return "no_signals";
}

export const isContentSignal = (s: IntegritySignal) => CONTENT.has(s.code);
