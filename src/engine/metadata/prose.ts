/**
 * Facts a statement states in words rather than beside labels, as app and web exports print them
 * above the table: "Account Statement for ADA OKAFOR", "Hello ADA OKAFOR,", "ADA OKAFOR | 0123456789
 * | Savings", "01 Jan 2026 - 31 Mar 2026" on a line of its own. Only when no label gave the fact,
 * and (but for a balance stated in a sentence, which may follow the table) only from the lines
 * above the first transaction row.
 */
import { scanPeriod } from "../dates.ts";
import type { Line } from "../layout/lines.ts";
import { nameShaped } from "./holder.ts";
import { PERIOD_JOINER } from "./period.ts";

/**
 * A name: two to six words of letters (initials, apostrophes, hyphens and "&" allowed), never
 * starting with a word of the sentence around it ("Welcome to Carbon", "Welcome back").
 */
const NAME = String.raw`(?!(?:to|the|your|our|back|you|dear|and)\b)([A-Za-z][A-Za-z'.-]*(?:\s+(?:&|[A-Za-z][A-Za-z'.-]*)){1,5})`;
/** Where a name ends: punctuation that parts it from what follows, a number, or a word that starts the rest of the sentence. */
const NAME_END = String.raw`(?=\s*[,(|·•:;!]|\s+[-–—]\s|\s+\d|\s+(?:account|acct|a\/c|for|from|with|on|at|in|ending|number|no)\b|\s*$)`;

/** Words that lead to the holder's name in a title or a greeting. */
const LEADS = [
  // "Account Statement for X", "STATEMENT OF ACCOUNT OF X", "Statement of X", "Account Statement - X"
  new RegExp(String.raw`\bstatement(?:\s+of\s+accounts?)?(?:\s+(?:for|of)|\s*[-–—:])\s+${NAME}${NAME_END}`, "i"),
  // "X's Account Statement"
  new RegExp(String.raw`^${NAME}['’]s\s+(?:(?:bank|account|wallet)\s+)?statement\b`, "i"),
  // "Prepared for: X", "Issued to X"
  new RegExp(String.raw`\b(?:prepared|generated|issued)\s+(?:for|to):?\s+${NAME}${NAME_END}`, "i"),
  // "Hello X,", "Hi X!", "Welcome, X"
  new RegExp(String.raw`^(?:hello|hi|welcome|good\s+(?:morning|afternoon|day)),?\s+${NAME}${NAME_END}`, "i"),
];

/**
 * The holder's name in a title or greeting above the table ("Account Statement for ADA OKAFOR"),
 * else the name among a line's run of facts that gives the account number ("ADA OKAFOR |
 * 0123456789 | Savings Account").
 */
export function proseHolder(lines: Line[]): string | null {
  for (const line of lines) {
    const text = line.text.slice(0, 200);
    for (const lead of LEADS) {
      const name = lead.exec(text)?.[1]?.trim();
      if (name && nameShaped(name)) return name;
    }
  }
  for (const line of lines) {
    const text = line.text.slice(0, 200);
    if (accountOf(text) === null) continue;
    const name = text.split(FACT_SEPARATOR).find((part) => nameShaped(part.trim()));
    if (name) return name.trim();
  }
  return null;
}

/** A NUBAN: ten digits standing alone (not part of a longer number: a phone, a BVN, a card). */
const NUBAN = /(?<![\d-])\d{10}(?![\d-])/g;
const ACCOUNT_WORD = /\b(?:account|acct|a\/c)\b/i;

/**
 * The account number a sentence or a run of facts names ("your statement for account 0123456789",
 * "ADA OKAFOR | 0123456789 | Savings Account"): the one ten-digit number on a line that says
 * "account". A line naming two is left alone.
 */
export function proseAccountNumber(lines: Line[]): string | null {
  for (const line of lines) {
    const account = accountOf(line.text.slice(0, 200));
    if (account !== null) return account;
  }
  return null;
}

/** Words of a line whose ten digits are someone's phone or another identifier, not the account. */
const OTHER_NUMBER = /\b(?:phone|mobile|tel|telephone|whatsapp|officer|manager|bvn|nin|id|ref|reference|card|terminal)\b/i;

/** The one NUBAN of a text that says "account" (and names no phone or other identifier), or null. */
function accountOf(text: string): string | null {
  if (!ACCOUNT_WORD.test(text) || OTHER_NUMBER.test(text)) return null;
  const runs = text.match(NUBAN) ?? [];
  return runs.length === 1 ? runs[0]! : null;
}

/** Parts a run of facts on one line ("0123456789 · 01 Jan 2026 to 31 Mar 2026"). */
const FACT_SEPARATOR = /\s*[|·•;]\s*/;
/** Two dates joined: the range a period is, never a lone month or date. */
const JOINED = /\d.*(?:\s(?:to|through|thru|till|until)\s|\s[-–—]\s|[-–—]\s*\d{1,2}\s+[A-Za-z])/i;

/**
 * A period printed as a bare range above the table, on a line of its own or among other facts
 * ("01 Jan 2026 - 31 Mar 2026", "0123456789 · 01 January 2026 to 31 March 2026"), or as a month
 * ("For the month of March 2026").
 */
export function prosePeriod(lines: Line[]): string | null {
  for (const line of lines) {
    // Facts apart, and sentences apart ("... to 31/03/2026. Your opening balance was ...").
    for (const part of line.text.slice(0, 200).split(FACT_SEPARATOR).flatMap((p) => p.split(SENTENCE_END))) {
      // "For the month of March 2026": that whole month.
      const month = part.split(MONTH_LEAD)[1]?.replace(/\.\s*$/, "").trim();
      if (month && scanPeriod(month)) return month;
      if (!JOINED.test(part)) continue;
      // In a sentence the range follows its own word ("... account 0123456789 from 01/01/2026 to 31/03/2026.").
      const tails = part.split(RANGE_LEAD).slice(1);
      for (const candidate of [part, ...tails].map((t) => t.replace(/\.\s*$/, "").trim())) if (scanPeriod(candidate)) return candidate;
      const range = joinedRange(part);
      if (range) return range;
    }
  }
  return null;
}

/** Words a date may take on either side of a range's joiner (`Jan 1, 2026`, `1st Jan 2026`). */
const DATE_WORDS = 4;

/**
 * Two dates joined as a range inside a line that holds other things beside it, a title's words
 * before and a page count or a run date after (`RUN DATE: 27/11/2026 10:14   CUSTOMER STATEMENT:
 * 01/01/26 - 28/02/26   PAGE 1 OF 4`): the range whose dates are whole, the longest first.
 */
function joinedRange(part: string): string | null {
  const words = part.split(/\s+/);
  for (let j = 1; j < words.length - 1; j++) {
    if (!PERIOD_JOINER.test(words[j]!)) continue;
    for (let a = Math.min(DATE_WORDS, j); a >= 1; a--) {
      for (let b = Math.min(DATE_WORDS, words.length - j - 1); b >= 1; b--) {
        const candidate = [...words.slice(j - a, j), words[j], ...words.slice(j + 1, j + 1 + b)].join(" ");
        if (scanPeriod(candidate)) return candidate;
      }
    }
  }
  return null;
}

/** A full stop that ends a sentence (dates written 01.01.2026 have no space after theirs). */
const SENTENCE_END = /\.\s+/;
/** Words a month follows when it is the period. */
const MONTH_LEAD = /\bmonth\s+of\b/i;
/** Words a range follows in a sentence. */
const RANGE_LEAD = /\b(?:from|between|covering|period)\b/i;

/** "Your opening balance was ₦25,000.00.", "a closing balance of NGN 1,234.56": a balance stated in a sentence. */
const BALANCE_SENTENCE = /\b(opening|closing)\s+balance\s+(?:was|is|of|stood\s+at|stands\s+at)\s+((?:₦|NGN)?\s?[-(]?\s?[\d,]+\.\d{2}\)?)/i;

/** Opening and closing balances stated in sentences (the figure as printed), by the first sentence of each. */
export function proseBalances(lines: Line[]): { opening?: string; closing?: string } {
  const out: { opening?: string; closing?: string } = {};
  for (const line of lines) {
    for (const sentence of line.text.slice(0, 300).split(SENTENCE_END)) {
      const m = BALANCE_SENTENCE.exec(sentence);
      if (!m) continue;
      const which = m[1]!.toLowerCase() === "opening" ? "opening" : "closing";
      out[which] ??= m[2]!;
    }
  }
  return out;
}

