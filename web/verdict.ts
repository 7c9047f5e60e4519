/**
 * One honest headline for a parse: reconciliation, what was assumed or derived, and the document's
 * integrity, combined so the page is green only when everything was verified. The engine's own
 * `checks.verdict` decides the figures when the response carries it; older responses fall back to
 * a conservative reading of the fields every response has.
 */
import type { Checks, Integrity, ParseResponse, Section } from "./types.ts";

export type Level = "ok" | "warn" | "bad";
export type Figures = "verified" | "partial" | "unverified";

export interface Headline {
  level: Level;
  /** The badge: a mark and a few words. */
  text: string;
  /** The short word of a queue row. */
  short: string;
  /** Why, in plain words: what was assumed, what the integrity check found. */
  reasons: string[];
}

const OPENING_WORDS: Record<string, string> = {
  derived: "opening balance worked back from the first row",
  assumed_zero: "opening balance not printed; 0.00 assumed",
};

/** What was taken without a printed figure: the engine's list, or one made from the checks. */
export function assumedOf(c: Checks | undefined): string[] {
  if (c?.assumed) return c.assumed;
  if (!c) return ["no checks in this result"];
  const out: string[] = [];
  const opening = c.opening_balance_source && OPENING_WORDS[c.opening_balance_source];
  if (opening) out.push(opening);
  if (c.balances_derived) out.push("no balance column: balances counted from the opening balance");
  if (c.kobo_rounding_rows?.length) out.push(`${c.kobo_rounding_rows.length} row(s) accepted 1 kobo off (rounding)`);
  return out;
}

/** The figures' verdict: the engine's, else unverified when the chain fails and partial when anything was assumed. */
export function figuresOf(s: Section): Figures {
  const own = s.checks?.verdict;
  if (own === "verified" || own === "partial" || own === "unverified") return own;
  if (!s.row_wise_reconcilable) return "unverified";
  return assumedOf(s.checks).length > 0 ? "partial" : "verified";
}

const INTEGRITY_WORDS: Record<Integrity["verdict"], string> = {
  no_signals: "no signs of editing",
  review: "the document shows signs worth a look",
  likely_edited: "the document was likely edited after the bank made it",
};

/** Why a section's figures got their verdict: where the chain breaks, or what was assumed. */
function sectionReasons(s: Section, figures: Figures): string[] {
  if (figures !== "unverified") return assumedOf(s.checks).map((a) => `assumed: ${a}`);
  const at = s.checks?.first_break_index;
  return [typeof at === "number" ? `the balance chain breaks at row ${at + 1}` : "the balances do not follow from the rows, or a printed figure disagrees with them"];
}

const VERIFIED_REASON = "every balance follows from the rows and every printed figure agrees; nothing was assumed";

/**
 * The headline of a statement: the worst of its account sections' figures, the document's
 * integrity and whether it is the canned sample. `label` names a section in the reasons when
 * there are several ("Account 2 of 2: assumed: ...").
 */
export function statementHeadline(r: ParseResponse, label: (s: Section, i: number, count: number) => string = (_s, i, n) => `Account ${i + 1} of ${n}`): Headline {
  const sections: Section[] = r.accounts && r.accounts.length > 0 ? r.accounts : [r];
  const sample = r.sample === true;
  const integrity = r.integrity;
  const verdicts = sections.map(figuresOf);
  const reasons: string[] = [];
  if (sample) reasons.push("this is the built-in sample statement, not your document");
  sections.forEach((s, i) => {
    const own = sectionReasons(s, verdicts[i] ?? "unverified");
    reasons.push(...(sections.length > 1 ? own.map((x) => `${label(s, i, sections.length)}: ${x}`) : own));
  });
  if (integrity && integrity.verdict !== "no_signals") reasons.push(INTEGRITY_WORDS[integrity.verdict] ?? integrity.verdict);

  if (integrity?.verdict === "likely_edited") return { level: "bad", text: "✗ Likely edited", short: "Likely edited", reasons };
  if (verdicts.includes("unverified")) return { level: "bad", text: "✗ Not reconciled", short: "Not reconciled", reasons };
  if (sample) return { level: "warn", text: "! Sample, not your statement", short: "Sample", reasons };
  if (integrity?.verdict === "review") return { level: "warn", text: "! Reconciled: review the document", short: "Review", reasons };
  if (verdicts.includes("partial")) return { level: "warn", text: "◐ Reconciled with assumptions", short: "Assumptions", reasons };
  return { level: "ok", text: "✓ Verified", short: "Verified", reasons: [VERIFIED_REASON] };
}
