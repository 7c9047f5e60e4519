import { labelRole } from "../layout/header.ts";
import type { BankProfile } from "./profile.ts";
import { BANK_PROFILES } from "./profiles.ts";

/** What a document shows of itself outside its transactions (see zones.ts). */
export interface DetectionInput {
  /** Letterhead, summary block and footers, in print order: never the table's rows. */
  text: string;
  /** The table's column headings, in print order (every header the table repeats). */
  headings: string;
  /** The PDF's Producer / Creator (empty for sheets). */
  producer: string;
}

export interface Detection {
  /** Profile of the detected bank, or null for `unknown`. */
  profile: BankProfile | null;
  /** 0..100: share of the deciding group's markers found (the best partial group when none decides). */
  markerCoverage: number;
}

/**
 * Share of a heading set that must be found, in order, for the table to count as that bank's:
 * one heading of five may come out of the PDF differently ("Withdrawal (DR)" split over two
 * lines, a currency sign glued on) without losing the bank.
 */
export const HEADING_SET_MIN_SHARE = 0.8;

/**
 * Headings every bank prints ("Value Date", "Debits", "Balance") tell no bank apart: a set that has
 * wording of its own (headings the column vocabulary names no role for: "Originating Branch",
 * "CREATE DATE", "DESC", "Settlement Debit") decides only when this share of those is among the
 * table's headings too, so a lookalike table with only the common headings stays unknown. (A set
 * made only of common headings keeps the plain share rule.)
 */
export const DISTINCTIVE_MIN_SHARE = 0.8;

/** A heading is distinctive when the column vocabulary, read strictly, names no role for it. */
export const isDistinctiveHeading = (heading: string): boolean => labelRole(heading, true) === null;

const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, " ");

const patterns = new Map<string, RegExp>();
/** A marker as whole words: "Kuda" is not in "Kudaisi", "ALAT" not in "Alatishe"; spacing is free. */
function pattern(marker: string): RegExp {
  let re = patterns.get(marker);
  if (!re) {
    const body = normalise(marker.trim())
      .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      // A full stop may be left out ("Trans Date" for "Trans. Date", "DOC NO" for "DOC NO.").
      .replace(/\\\./g, "\\.?")
      .replace(/ /g, "\\s*");
    re = new RegExp(`(?<![a-z0-9])${body}(?![a-z0-9])`, "g");
    patterns.set(marker, re);
  }
  return re;
}

/** Index of the first whole-word occurrence of `marker` in `hay` at or after `from`, or -1. */
function find(hay: string, marker: string, from = 0): { at: number; end: number } | null {
  const re = pattern(marker);
  re.lastIndex = from;
  const m = re.exec(hay);
  return m ? { at: m.index, end: m.index + m[0].length } : null;
}

interface Candidate {
  profile: BankProfile;
  /** 0..1 share of the group found. */
  score: number;
  /** Where the group was seen in the document's text (letterhead first): earlier wins a tie. */
  at: number;
}

/** Sort code label and its first three digits ("Sort Code: 058152052", "SORT CODE 044-150-149"). */
const SORT_CODE = /sort\s*code\s*(?:no\.?|number)?\s*[:.-]?\s*(\d{3})/;

/**
 * The bank whose markers the document shows. A marker group decides when all its markers occur
 * (whole words, in the letterhead, summary, footer, headings or producer); a heading set decides
 * when at least HEADING_SET_MIN_SHARE of it is the table's headings in that order; a sort-code
 * prefix decides on its own. Among deciding groups the higher share wins, then the one seen first
 * (the letterhead comes before the footer's partner logos). None deciding gives the generic
 * fallback (`unknown`) with the best partial share as its coverage: no guessing below the line.
 */
export function detectBank(input: DetectionInput | string, profiles: readonly BankProfile[] = BANK_PROFILES): Detection {
  const { text, headings, producer } = typeof input === "string" ? { text: input, headings: "", producer: "" } : input;
  const hay = normalise(`${text}\n${headings}\n${producer}`);
  const heads = normalise(headings);
  const headingsAt = normalise(text).length + 1;
  const sortCode = SORT_CODE.exec(hay);
  let best: Candidate | null = null;
  let partial = 0;
  const consider = (c: Candidate) => {
    if (!best || c.score > best.score || (c.score === best.score && c.at < best.at)) best = c;
  };
  for (const profile of profiles) {
    for (const group of profile.markers) {
      const hits = group.map((m) => find(hay, m));
      const found = hits.filter((h) => h !== null).length;
      if (found === group.length) consider({ profile, score: 1, at: Math.max(...hits.map((h) => h!.at)) });
      else partial = Math.max(partial, found / group.length);
    }
    for (const set of profile.headings) {
      const found = headingsInOrder(heads, set);
      const score = found.filter(Boolean).length / set.length;
      if (score >= HEADING_SET_MIN_SHARE && ownWordingFound(set, found)) consider({ profile, score, at: headingsAt });
      else partial = Math.max(partial, Math.min(score, HEADING_SET_MIN_SHARE - 0.01));
    }
    if (sortCode && profile.sortCodes.includes(sortCode[1]!)) consider({ profile, score: 1, at: sortCode.index });
  }
  const chosen = best as Candidate | null;
  if (chosen) return { profile: chosen.profile, markerCoverage: Math.round(chosen.score * 100) };
  return { profile: null, markerCoverage: Math.round(partial * 100) };
}

/** Which headings of `set` occur in `heads` one after another (a heading not found is skipped). */
function headingsInOrder(heads: string, set: readonly string[]): boolean[] {
  let cursor = 0;
  return set.map((h) => {
    const hit = find(heads, h, cursor);
    if (!hit) return false;
    cursor = hit.end;
    return true;
  });
}

/** Enough of the set's distinctive headings were found (trivially, when it has none). */
function ownWordingFound(set: readonly string[], found: boolean[]): boolean {
  const own = set.map((h, i) => ({ distinctive: isDistinctiveHeading(h), found: found[i]! })).filter((h) => h.distinctive);
  if (own.length === 0) return true;
  return own.filter((h) => h.found).length >= Math.ceil(DISTINCTIVE_MIN_SHARE * own.length);
}

export function profileById(id: string): BankProfile | undefined {
  return BANK_PROFILES.find((p) => p.id === id);
}
