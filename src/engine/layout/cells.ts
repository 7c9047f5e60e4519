import { scanDate, scanPartialDate, TIME_ONLY } from "../dates.ts";
import { isCurrencyMark, isEmptyAmount, isPlainAmount, parseAmount } from "../money.ts";
import { isJsSpace } from "../whitespace.ts";
import { advanceOffsets } from "./advance.ts";

/**
 * A cell is a run of text on one line that belongs to one column. Its kind decides which columns
 * it may go to: dates to date columns, money to amount columns, text to text columns.
 */
export type CellKind = "date" | "time" | "money" | "empty" | "integer" | "drcr" | "text";

export interface Cell {
  text: string;
  x0: number;
  x1: number;
  kind: CellKind;
  /** Words of a text cell with their extents, so a run that crosses a column edge can be cut there. */
  words?: Token[];
}

/** Points between two tokens that a space stood between (a space is 2 points or more at 8 points; abutting strings are 0). */
const WORD_GAP = 1;

/** A parenthesised figure's opening word, and its code with the closing parenthesis (`(17,158.19` `NGN)`). */
const OPEN_FIGURE = /^\(\d[\d,]*\.\d\d$/;
const CLOSING_CODE = /^[A-Z]{3}\)$/;

/** A lone dash, hyphen or en/em dash. */
const DASH = /^[-\u2010-\u2015]$/;

const DRCR = /^(?:DR|CR|D|C|Debit|Credit|Dr\.?|Cr\.?)$/i;

/** A currency code after an amount ("39,582.84 NGN"), with the amount's DR/CR after it ("6,984.35 NGN DR"). */
const CURRENCY_CODE = /^[A-Z]{3}(?: (?:DR|CR))?$/;

/**
 * "03/01/" whose year went to the next line (the trailing separator tells it from a fraction), or
 * "16-" whose "JAN-26" did: a day with its separator is no amount with a trailing minus (those
 * print their kobo).
 */
const BROKEN_NUMERIC_DATE = /^\d{1,2}[-/.](?:\d{1,2}[-/.])?$/;

/** Kinds of recently seen strings: statements repeat dates, channels and amounts. */
const kindCache = new Map<string, CellKind>();
/** Entries kept before the cache is emptied (strings; about 2 MB at most). */
const KIND_CACHE_SIZE = 20_000;

export function cellKind(text: string): CellKind {
  // Amounts are most cells and nearly all distinct: settled here, they never churn the cache.
  if (isPlainAmount(text)) return "money";
  const hit = kindCache.get(text);
  if (hit) return hit;
  const kind = computeKind(text);
  if (kindCache.size >= KIND_CACHE_SIZE) kindCache.clear();
  kindCache.set(text, kind);
  return kind;
}

function computeKind(text: string): CellKind {
  const t = text.trim();
  if (DRCR.test(t)) return "drcr";
  if (isEmptyAmount(t)) return "empty";
  if (scanDate(t) || scanPartialDate(t) || BROKEN_NUMERIC_DATE.test(t)) return "date";
  if (TIME_ONLY.test(t)) return "time";
  const a = parseAmount(t);
  if (a) return a.moneyShaped || a.signed ? "money" : "integer";
  // The figure of a parenthesised amount a narrow cell wrapped after its opening (`(NGN` / `36,697.59)`).
  if (CLOSING_HALF.test(t)) return "money";
  return "text";
}

const CLOSING_HALF = /^\d{1,3}(?:,\d{3})*\.\d{2}\)$/;

/** Longest date made of 1..MAX_DATE_TOKENS consecutive tokens ("02 May 2023 08:21:07 PM" is 5). */
const MAX_DATE_TOKENS = 6;

/** Cheap pre-check before trying date spans: dates start with a digit, a month name or a weekday ("Fri, 02 Jan 2026"). */
const DATE_START = /^(?:\d{1,4}(?:$|[-/.]\d|[-/. ]?[a-z]{3}|st|nd|rd|th|T)|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)/i;

export interface Token {
  text: string;
  x0: number;
  x1: number;
  /** Placed by estimate inside a run of proportional text (tokensOf), not measured: within a point or so. */
  guessed?: true;
}

/**
 * Splits a run of text into typed cells: date spans, amounts and placeholders stand alone, and
 * consecutive text words stay together. Used on each merged run of a line, so a producer that
 * draws "497.51 01/07/2025" as one string still yields an amount cell and a date cell.
 */
export function splitTyped(tokens: Token[]): Cell[] {
  const out: Cell[] = [];
  let i = 0;
  while (i < tokens.length) {
    let taken = 0;
    const first = tokens[i]!.text;
    // "695.05" passes DATE_START, but no date begins with a plain amount.
    const maxN = DATE_START.test(first) && !isPlainAmount(first) ? Math.min(MAX_DATE_TOKENS, tokens.length - i) : 0;
    for (let n = maxN; n >= 1; n--) {
      const span = tokens.slice(i, i + n);
      const text = span.map((t) => t.text).join(" ");
      // A lone number token is not a date unless it is written as one (03/01/2024).
      if (scanDate(text) || (n <= 2 && scanPartialDate(text) && !dateAt(tokens, i + 1))) {
        out.push({ text, x0: span[0]!.x0, x1: span[n - 1]!.x1, kind: "date" });
        taken = n;
        break;
      }
    }
    if (taken === 0) {
      const t = tokens[i]!;
      // A currency code or sign standing apart from its number belongs to it.
      const next = tokens[i + 1];
      if (next && TIME_ONLY.test(t.text) && /^[ap]\.?m\.?$/i.test(next.text)) {
        out.push({ text: `${t.text} ${next.text}`, x0: t.x0, x1: next.x1, kind: "time" });
        i += 2;
        continue;
      }
      // A negative amount with its code inside the parentheses (`(17,158.19 NGN)`) is two words
      // neither of which reads as money alone, also after a reference in one run.
      if (next && OPEN_FIGURE.test(t.text) && CLOSING_CODE.test(next.text) && parseAmount(`${t.text} ${next.text}`)) {
        out.push({ text: `${t.text} ${next.text}`, x0: t.x0, x1: next.x1, kind: "money" });
        i += 2;
        continue;
      }
      if (next && /^[(+-]?(?:₦|NGN|N|\$|#)$/.test(t.text) && /^[\d(+-]/.test(next.text)) {
        // Words apart keep their space: the pair is text again when a narration holds it (`... LEKKI NGN 5,000.00 TERM`).
        const text = `${t.text}${next.x0 - t.x1 > WORD_GAP ? " " : ""}${next.text}`;
        out.push({ text, x0: t.x0, x1: next.x1, kind: cellKind(text) });
        taken = 2;
      } else {
        let kind = cellKind(t.text);
        const prev = out[out.length - 1];
        // "Debit" or "CR" inside a phrase ("Total Debit") is a word, not a DR/CR marker; before the
        // currency mark of the next amount (`73,200.04 CR NGN 1,023,650.89`, one string) it is not in one.
        const after = tokens[i + 1]?.text;
        if (kind === "drcr" && (prev?.kind === "text" || (after !== undefined && cellKind(after) === "text" && !isCurrencyMark(after)))) kind = "text";
        // A number inside a phrase ("... TRANSACTION 103265", "SALARY APR 2024 ...") is part of the text.
        if (kind === "integer" && prev?.kind === "text") kind = "text";
        // A spaced hyphen between words of one run ("Transfer from X - rent") is punctuation, not an
        // empty-amount placeholder or a minus sign: placeholders stand apart, in their own column.
        // A dash that ends a run of words ("... FROM X -" wrapped before "rent") is that punctuation too.
        if (kind === "empty" && DASH.test(t.text) && prev?.kind === "text" && (next ? /^[\p{L}\d(]/u.test(next.text) && cellKind(next.text) !== "money" : true)) kind = "text";
        if (kind === "text" && prev?.kind === "text") {
          // Word extents are kept only for runs of several words (the only ones a column edge can cut).
          prev.words ??= [{ text: prev.text, x0: prev.x0, x1: prev.x1 }];
          prev.words.push(t);
          prev.text += ` ${t.text}`;
          prev.x1 = t.x1;
        } else {
          out.push({ text: t.text, x0: t.x0, x1: t.x1, kind });
        }
        taken = 1;
      }
    }
    i += taken;
  }
  // Amount followed by a DR/CR word: one signed amount ("1,234.56 DR"); or by its currency code,
  // drawn in the same string: one amount ("39,582.84 NGN", "39,582.84 NGN CR"), which no
  // single-valued amount column could otherwise take whole.
  for (let k = out.length - 2; k >= 0; k--) {
    const a = out[k]!;
    const b = out[k + 1]!;
    if (a.kind === "money" && ((b.kind === "drcr" && /^(?:DR|CR)$/i.test(b.text)) || (b.kind === "text" && CURRENCY_CODE.test(b.text) && parseAmount(`${a.text} ${b.text}`)))) {
      a.text = `${a.text} ${b.text}`;
      a.x1 = b.x1;
      out.splice(k + 1, 1);
    }
  }
  return out;
}

/** A month-first date's day with the comma its year followed (`Jan 5,` of `Jan 5, 2026`). */
const DAY_BEFORE_YEAR = /^\d{1,2},$/;

/**
 * A date starts at token `i`: a whole one (with its year), or a month-first one cut right before
 * its year (`Jan 5,`, the year wrapped onto the cell's next line). A day and month read from the
 * token before it are then a number beside the date (`10 Jan 5, 2026`, `11 Jan 5,`: a serial
 * number one space before a month-first date, in a fixed-width report or a table whose cells
 * print one character apart), not a date without a year.
 */
function dateAt(tokens: Token[], i: number): boolean {
  if (i >= tokens.length || !DATE_START.test(tokens[i]!.text)) return false;
  for (let n = Math.min(MAX_DATE_TOKENS, tokens.length - i); n >= 1; n--) {
    if (scanDate(tokens.slice(i, i + n).map((t) => t.text).join(" "))) return true;
  }
  const day = tokens[i + 1]?.text;
  return day !== undefined && DAY_BEFORE_YEAR.test(day) && /^\p{L}/u.test(tokens[i]!.text) && scanPartialDate(`${tokens[i]!.text} ${day}`) !== null;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** tokensOf's running sums of advances, kept for the thread's life (it runs on every drawn string). */
let advances = new Float64Array(256);

/**
 * Words (runs of non-`\s`) of a string with x extents estimated from its characters: in
 * proportion to their count on a fixed-width page, and to their likely advances (advance.ts)
 * otherwise. A character loop rather than a global regex: it runs on every run of every line of
 * every page.
 */
export function tokensOf(text: string, x0: number, x1: number, proportional = false): Token[] {
  const tokens: Token[] = [];
  const width = Math.max(0, x1 - x0);
  const n = text.length;
  // Where each character starts, in the run's own units (characters, or thousandths of an em).
  let at: Float64Array | undefined;
  let total = n || 1;
  if (proportional && n > 1 && text.includes(" ")) {
    if (advances.length <= n) advances = new Float64Array(2 * n + 2);
    at = advanceOffsets(text, advances);
    total = at[n]! || 1;
  }
  const offset = (k: number) => (at ? at[k]! : k);
  let i = 0;
  while (i < n) {
    while (i < n && isJsSpace(text.charCodeAt(i))) i++;
    if (i === n) break;
    const start = i;
    while (i < n && !isJsSpace(text.charCodeAt(i))) i++;
    // Hundredths of a point are plenty for layout and keep serialised lines small (worker pool).
    const token: Token = { text: text.slice(start, i), x0: round2(x0 + (width * offset(start)) / total), x1: round2(x0 + (width * offset(i)) / total) };
    if (at && tokens.length > 0) token.guessed = true;
    tokens.push(token);
  }
  return tokens;
}
