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

/**
 * Words that change from one month's row to the next while the party stays the same ("SALARY FEB
 * 2024 ACME LTD", "SALARY MAR 2024 ACME LTD"): left out of a key made from the narration.
 */
const NOT_PARTY = new Set([
  "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "SEPT", "OCT", "NOV", "DEC",
  "JANUARY", "FEBRUARY", "MARCH", "APRIL", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER",
  "FOR", "OF", "THE", "MONTH", "SALARY", "SAL", "SALARIES", "PAYROLL", "WAGES", "WAGE", "STIPEND", "PAYMENT", "CREDIT", "NET", "PAY",
]);

/** The key of a row without a named party, per narration's words (the array is shared by rows with one narration). */
const wordKeys = new WeakMap<readonly string[], string>();

function wordsKey(words: readonly string[]): string {
  let key = wordKeys.get(words);
  if (key === undefined) {
    key = words.filter((w) => !/\d/.test(w) && !NOT_PARTY.has(w)).slice(0, 6).join(" ");
    if (key === "") key = words.filter((w) => !/\d/.test(w)).slice(0, 6).join(" ");
    wordKeys.set(words, key);
  }
  return key;
}

/**
 * One key per party: its normalised name; without one, the narration's words without digits and
 * month or pay words. Kept on the row: salary, recurring debits and counterparties all ask, and
 * neither the counterparty nor the words change once rows are enriched.
 */
export function partyKey(r: InsightRow): string {
  if (r.partyKey !== undefined) return r.partyKey;
  const cp = r.enrichment.counterparty;
  r.partyKey = cp ? normalisePhrase(cp.name) : wordsKey(r.words);
  return r.partyKey;
}
