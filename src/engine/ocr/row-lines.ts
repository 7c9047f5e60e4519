/**
 * Which OCR line printed a row's figures: the one line of the document holding both the row's
 * balance and its amount as words. Rows carry no positions, so this is how a row gets its
 * confidence and how a repair finds the word it rewrites; a row whose figures are on no line, or on
 * several, gets neither.
 */
import { absKobo, type Kobo, parseAmount } from "../money.ts";
import type { Transaction } from "../types.ts";
import type { OcrPage } from "./page-text.ts";
import type { OcrWord } from "./words.ts";

export interface WordRef {
  page: number;
  word: number;
}

export interface OcrLine {
  key: string;
  words: (OcrWord & WordRef)[];
}

export function ocrLines(pages: readonly OcrPage[]): OcrLine[] {
  const lines = new Map<string, OcrLine>();
  for (const p of pages) {
    p.words.forEach((w, i) => {
      const key = `${p.number}:${w.line}`;
      let l = lines.get(key);
      if (!l) lines.set(key, (l = { key, words: [] }));
      l.words.push({ ...w, page: p.number, word: i });
    });
  }
  return [...lines.values()];
}

/** The word's amount, unsigned (OCR drops and invents signs; the row's side says which it is). */
export function wordKobo(text: string): Kobo | null {
  const a = parseAmount(text);
  return a ? absKobo(a.kobo) : null;
}

const kobo = (s: string): Kobo => absKobo(parseAmount(s)?.kobo ?? 0n);

/** The row's printed amount (its non-zero side), unsigned; null when it has none or both. */
export function rowAmount(t: Transaction): Kobo | null {
  const d = kobo(t.debit);
  const c = kobo(t.credit);
  if ((d === 0n) === (c === 0n)) return null;
  return d === 0n ? c : d;
}

/** The only line holding both `balance` and `amount` (distinct words when they are equal), or null. */
export function lineOf(lines: readonly OcrLine[], balance: Kobo, amount: Kobo): OcrLine | null {
  let found: OcrLine | null = null;
  for (const l of lines) {
    const values = l.words.map((w) => wordKobo(w.text));
    const b = values.indexOf(balance);
    if (b < 0) continue;
    const a = values.findIndex((v, i) => v === amount && i !== b);
    if (a < 0) continue;
    if (found) return null;
    found = l;
  }
  return found;
}

/** The row's figure line, by its printed balance and amount. */
export function rowLine(lines: readonly OcrLine[], t: Transaction): OcrLine | null {
  const amount = rowAmount(t);
  return amount === null ? null : lineOf(lines, kobo(t.balance), amount);
}
