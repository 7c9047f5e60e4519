import type { IntegritySignal, Verdict } from "./types.ts";

/**
 * The verdict, with honest severity. One `info` is what many genuine statements carry; any `warn`
 * asks for a human look. `likely_edited` needs evidence in the content itself: a `high` signal
 * (text over text, a covering box), or two independent groups of evidence of which one is in the
 * drawn content (e.g. an update replacing a page's content and an editor's producer string). A
 * producer string, a date or a reconciliation failure alone never makes it, and a re-saver's name
 * (pypdf, qpdf) is a group only when the modification date moved with it.
 */

/**
 * Evidence groups of the `warn` codes. Codes of one group tell one story once: a page from another
 * template shows as both another size and other fonts, and a genuine statement may append such a
 * page itself (terms and conditions), so together they are still one piece of evidence.
 */
const GROUP: Record<string, string> = {
  font_outlier: "font_outlier",
  figure_misaligned: "figure_misaligned",
  update_changes_content: "update_changes_content",
  page_size_differs: "template",
  page_fonts_differ: "template",
  date_after_period_end: "table",
  date_after_creation: "table",
  balance_chain_break: "table",
  totals_mismatch: "table",
  count_mismatch: "table",
  producer_editor: "producer",
  producer_resaver: "producer",
  qdf_form: "producer",
};

/** Codes about what the pages draw (as opposed to metadata and the statement's arithmetic). */
const CONTENT = new Set(["text_over_text", "covered_text", "font_outlier", "figure_misaligned", "page_fonts_differ", "page_size_differs", "update_changes_content"]);

/**
 * Whether a warn counts as a group of evidence. A re-saver's name alone does not: people run
 * statements through pypdf or qpdf to take a password off, and those keep the file's dates. A
 * re-save that also moved the modification date (as editing tools stamp it) is evidence of a
 * later change.
 */
function isEvidence(s: IntegritySignal, signals: IntegritySignal[]): boolean {
  if (s.code !== "producer_resaver") return true;
  return signals.some((o) => o.code === "modified_after_creation");
}

export function verdictOf(signals: IntegritySignal[]): Verdict {
  if (signals.some((s) => s.severity === "high")) return "likely_edited";
  const warns = signals.filter((s) => s.severity === "warn");
  const groups = new Set(warns.filter((s) => isEvidence(s, signals)).map((s) => GROUP[s.code] ?? s.code));
  if (warns.some((s) => CONTENT.has(s.code)) && groups.size >= 2) return "likely_edited";
  if (warns.length > 0 || signals.length >= 2) return "review";
  return "no_signals";
}
