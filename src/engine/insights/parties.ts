import { normalisePhrase } from "./normalise.ts";
import type { InsightRow } from "./types.ts";

/** Titles that are not part of a name to compare. */
const TITLES = new Set(["MR", "MRS", "MS", "MISS", "DR", "CHIEF", "ENGR", "ALHAJI", "ALHAJA", "PROF", "BARR", "PASTOR", "REV", "SIR", "MADAM"]);

/** The words of a person's or business's name that identify it (titles and one-letter initials dropped). */
export const nameWords = (name: string): string[] => normalisePhrase(name).split(" ").filter((w) => w.length >= 2 && !TITLES.has(w));

/**
 * The counterparty is the holder under another account: at least two of the holder's name words
 * appear in the counterparty's name (one when the holder's name has only one), whatever the order
 * (banks print surname first or last).
 */
export function isHolder(counterparty: string, holderWords: readonly string[]): boolean {
  if (holderWords.length === 0) return false;
  const words = new Set(nameWords(counterparty));
  const shared = holderWords.filter((w) => words.has(w)).length;
  return shared >= Math.min(2, holderWords.length);
}

/** One key per party: its normalised name; without one, the narration's words without digits. */
export function partyKey(r: InsightRow): string {
  const cp = r.enrichment.counterparty;
  if (cp) return normalisePhrase(cp.name);
  return r.words.filter((w) => !/\d/.test(w)).slice(0, 6).join(" ");
}
