import type { PiiKind, PiiValues } from "./values.ts";
import { squeezeSpaces } from "../whitespace.ts";

/**
 * Regular expressions that find personal data in a line of statement text. Every one runs in
 * time linear in the line's length, whatever the line holds (issue 15: a 100,000-character line
 * held a worker 25 s): a pattern that repeats a character class either may only start where that
 * class does not continue to its left (a lookbehind, so a long run of letters is entered once, not
 * at each of its characters), or has a bounded quantifier, and no two neighbouring unbounded
 * quantifiers can match the same characters.
 */

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** No letter or digit just before / just after. */
export const B = "(?<![\\p{L}\\p{N}])";
export const E = "(?![\\p{L}\\p{N}])";

// The local part is entered only at its first character (the lookbehind), so a long word without
// an '@' is read once; the domain's labels end at a '.', which a label cannot contain.
export const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
// Nigerian numbers: +234 with an optional (0), or 234 glued to a mobile prefix, or a local mobile
// number 0[789][01]XXXXXXXX; digits may be grouped by single spaces or hyphens (a few between the
// prefix and the number).
export const PHONE = /(?<![\p{N}+])(?:\+234[\s-]{0,3}(?:\(0\)[\s-]{0,3}|0[\s-]{0,3})?[1-9](?:[\s-]?\d){6,9}|234[789][01]\d{8}|0[789][01](?:[\s-]?\d){8})(?!\p{N})/gu;
// "BVN", an optional "no"/"number", punctuation, then 11 digits; a few spaces at most between them.
export const BVN = /(?<![\p{L}\p{N}])BVN(?:\s{0,3}(?:no|number))?\.?\s{0,3}[:.\-]?\s{0,3}((?:\d[\s-]?){10}\d)(?!\p{N})/giu;
// A masked rendering of a number: digits around one run of mask characters, entered only at the
// start of such a token.
export const MASKED = /(?<![\p{L}\p{N}*•])[0-9]*[*Xx•]{2,}[0-9]*(?![\p{L}\p{N}*•])/gu;

const digitsPattern = (digits: string) => B + digits.split("").map(escapeRegExp).join("[\\s-]?") + E;

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

/** Titles printed before names; the name is matched with or without them. */
const TITLES = /^(?:mr|mrs|ms|miss|dr|chief|alhaji|alhaja|pastor|engr|prof|barr|rev|hon|sir|madam)\.?$/i;

const nameTokens = (name: string) => name.split(/[\s,]+/).filter((t) => t.length > 0 && !TITLES.test(t));

/**
 * A word matched in any letter spacing: a name drawn with character spacing (`6 Tc`) or letter
 * by letter with TJ kerning reads "A D E Y E M I" in every extractor. Each gap is bounded (two
 * whitespace characters at most), so the pattern stays linear in the line's length.
 */
const spacedWord = (word: string): string => [...word].map(escapeRegExp).join("\\s{0,2}");

/** The whole name, its words in any order (surname first is common) and in any letter spacing, separated by a few spaces or punctuation. */
export function namePattern(name: string): string | undefined {
  const tokens = nameTokens(name);
  if (tokens.length === 0) return undefined;
  if (tokens.length === 1 && tokens[0]!.length < 3) return undefined;
  // Every order of the name's words, for up to 4 words.
  const orders = tokens.length <= 4 ? permutations(tokens) : [tokens];
  return B + "(?:" + orders.map((o) => o.map(spacedWord).join("[\\s,.]{0,6}")).join("|") + ")" + E;
}

/**
 * Words that are parts of holders' names but also words of ordinary narrations on Nigerian
 * statements ("NIP TRANSFER FROM ... TO ...", "POS PURCHASE", "ACME VENTURES LTD"): a name part
 * equal to one of these is not redacted on its own (the whole name still is).
 */
export const NAME_PART_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "to from by for of and the in on at via with an as is it or ref trf trx tfr ft " +
    "transfer transfers bank banks ltd limited plc inc co company nig ng ngn nigeria lagos abuja " +
    "nip pos atm web ussd mobile app online card debit credit charge charges fee fees commission comm vat sms alert " +
    "stamp duty interest reversal reversed payment payments pay paid salary airtime data bill bills cash deposit withdrawal " +
    "account acct savings current naira purchase int ent enterprise enterprises venture ventures global services service " +
    "store stores mart shop intl international investment investments group holdings foods food agent merchant"
  ).split(" "),
);

/**
 * The parts of a holder's name redacted wherever they stand: each word of two or more letters,
 * titles and narration words (NAME_PART_STOP_WORDS) left out, so "…TO ADEYEMI" loses the surname.
 */
export function nameParts(name: string): string[] {
  return nameTokens(name)
    .map((t) => t.replace(/^[.'-]+|[.'-]+$/g, ""))
    .filter((t) => [...t].filter((c) => /\p{L}/u.test(c)).length >= 2 && !/\d/.test(t) && !NAME_PART_STOP_WORDS.has(t.toLowerCase()));
}

export interface Matcher {
  kind: PiiKind;
  regex: RegExp;
  /** Optional check of a regex match (masked numbers must agree with the account number). */
  accept?: (m: string) => boolean;
}

function maskedAgrees(token: string, digits: string): boolean {
  const visible = token.replace(/[^0-9]/g, "").length;
  if (visible < 3) return false;
  if (token.length === digits.length) return [...token].every((c, i) => !/[0-9]/.test(c) || c === digits[i]);
  const suffix = /^[*Xx•]{2,}([0-9]{3,4})$/.exec(token);
  return !!suffix && digits.endsWith(suffix[1]!);
}

export function buildMatchers(values: PiiValues): Matcher[] {
  const out: Matcher[] = [
    { kind: "email", regex: EMAIL },
    { kind: "phone", regex: PHONE },
    { kind: "bvn", regex: BVN },
  ];
  const parts = new Set<string>();
  for (const n of values.names) {
    const p = namePattern(n);
    if (p) out.push({ kind: "name", regex: new RegExp(p, "giu") });
    for (const part of nameParts(n)) parts.add(part.toLowerCase());
  }
  if (parts.size > 0) {
    // Longest first, so "ADEBAYO" is taken whole rather than as "ADE" when both are parts.
    // A part of three letters or more is also found letter-spaced; a shorter one spaced out ("A B")
    // is too common in ordinary text to be taken for a name.
    const alternatives = [...parts].sort((a, b) => b.length - a.length).map((p) => ([...p].length >= 3 ? spacedWord(p) : escapeRegExp(p)));
    out.push({ kind: "name", regex: new RegExp(`${B}(?:${alternatives.join("|")})${E}`, "giu") });
  }
  for (const d of values.accountNumbers) {
    if (!/^\d+$/.test(d)) {
      out.push({ kind: "account_number", regex: new RegExp(`(?<![\\p{L}\\p{N}*•])${escapeRegExp(d)}(?![\\p{L}\\p{N}*•])`, "gu") });
      continue;
    }
    out.push({ kind: "account_number", regex: new RegExp(digitsPattern(d), "gu") });
    out.push({ kind: "account_number", regex: MASKED, accept: (m) => maskedAgrees(m, d) });
  }
  for (const d of [...values.bvns, ...values.phones.map((p) => p.replace(/\D/g, ""))]) {
    if (d.length >= 7) out.push({ kind: d.length === 11 && values.bvns.includes(d) ? "bvn" : "phone", regex: new RegExp(digitsPattern(d), "gu") });
  }
  for (const e of values.emails) out.push({ kind: "email", regex: new RegExp(B + escapeRegExp(e) + E, "giu") });
  for (const a of values.addresses) {
    // Words are literal and never begin with a space, so "\s*" between them cannot backtrack.
    const words = squeezeSpaces(a).split(" ").map(escapeRegExp);
    if (words.join("").length >= 3) out.push({ kind: "address", regex: new RegExp(B + words.join("\\s*") + E, "giu") });
  }
  return out;
}
