/**
 * Narrations are matched as words, not substrings: upper-cased, every run of characters other
 * than A-Z and 0-9 becomes one space. "POS/WEB PURCHASE" and "pos web purchase" read the same,
 * and "BRANCH" never matches inside "BRANCHES" or "UBRANCH".
 */
const NON_WORD = /[^A-Z0-9]+/g;

export function normalisePhrase(text: string): string {
  return text.toUpperCase().replace(NON_WORD, " ").trim();
}
