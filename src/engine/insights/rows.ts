import { splitDateTime } from "../csv.ts";
import { amountKobo, type Kobo } from "../money.ts";
import type { ParseResponse, Transaction } from "../types.ts";
import { findPhrases, type CompiledVocabulary } from "./compile.ts";
import { normalisePhrase } from "./normalise.ts";
import type { InsightRow } from "./types.ts";

type Source = Pick<ParseResponse, "metadata" | "transactions"> & { accounts?: readonly { metadata: ParseResponse["metadata"]; transactions: Transaction[] }[] };

/** Every account section of a response (`accounts` may be absent in results from before sections existed). */
export const sectionsOf = (r: Source) => (r.accounts && r.accounts.length > 0 ? r.accounts : [{ metadata: r.metadata, transactions: r.transactions }]);

const kobo = (text: string): Kobo => (text.trim() === "" ? 0n : (amountKobo(text) ?? 0n));

const HAS_LETTER = /[A-Z]/i;

/** What a narration's words are, read once per distinct narration: statements repeat narrations heavily. */
interface NarrationWords {
  text: string;
  words: string[];
  found: Set<string>;
}

/** `read(key)` once per distinct key; the answer is shared by every row with that key (never mutated). */
function memo<T>(read: (key: string) => T): (key: string) => T {
  const seen = new Map<string, T>();
  return (key) => {
    let value = seen.get(key);
    if (value === undefined) seen.set(key, (value = read(key)));
    return value;
  };
}

/** The statement's rows, every section in print order, read once: amounts, day, words and phrases. */
export function insightRows(r: Source, v: CompiledVocabulary): InsightRow[] {
  const rows: InsightRow[] = [];
  const narrationOf = memo<NarrationWords>((narration) => {
    const text = normalisePhrase(narration);
    const words = text.split(" ");
    return { text, words, found: findPhrases(words, v.index) };
  });
  // A narration with no word in it (blank, or a bare number) says nothing, and some banks print the
  // row's kind in its reference instead (Moniepoint: "…_CBA_CREDIT_0_EMTL_DC_0",
  // "…|PB_SAV_ACCT_INTEREST|…"): such a row's words are its reference's.
  const wordsOf = (t: Transaction) => narrationOf(HAS_LETTER.test(t.narration) ? t.narration : t.reference);
  // A statement prints the same date (and time) on many rows.
  const dayTime = memo(splitDateTime);
  sectionsOf(r).forEach((s, section) => {
    for (const t of s.transactions) {
      const [day, time] = dayTime(t.date);
      const { text, words, found } = wordsOf(t);
      rows.push({
        index: rows.length,
        section,
        transaction: t,
        credit: kobo(t.credit),
        debit: kobo(t.debit),
        balance: t.balance.trim() === "" ? undefined : amountKobo(t.balance),
        day,
        month: day.slice(0, 7),
        time,
        text,
        words,
        found,
        partyKey: undefined,
        reference: t.reference.trim(),
        enrichment: { category: "other", channel: "unknown", counterparty: null, session_id: null, fee_of: null, confidence: { category: 0, channel: 0, counterparty: null, session_id: null, fee_of: null } },
      });
    }
  });
  return rows;
}

/** Days since 1970-01-01 of a row's `day` (YYYY-MM-DD): the insights count days apart with it. */
export const dayNumber = (day: string): number => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / 86_400_000;

/** Money in, money out, or neither (a zero row). */
export const directionOf = (row: Pick<InsightRow, "credit" | "debit">): "credit" | "debit" | "none" => (row.credit > 0n ? "credit" : row.debit > 0n ? "debit" : "none");
