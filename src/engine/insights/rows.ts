import { splitDateTime } from "../csv.ts";
import { type Kobo, parseAmount } from "../money.ts";
import type { ParseResponse, Transaction } from "../types.ts";
import { findPhrases, type CompiledVocabulary } from "./compile.ts";
import { normalisePhrase } from "./normalise.ts";
import type { InsightRow } from "./types.ts";

type Source = Pick<ParseResponse, "metadata" | "transactions"> & { accounts?: readonly { metadata: ParseResponse["metadata"]; transactions: Transaction[] }[] };

/** Every account section of a response (`accounts` may be absent in results from before sections existed). */
export const sectionsOf = (r: Source) => (r.accounts && r.accounts.length > 0 ? r.accounts : [{ metadata: r.metadata, transactions: r.transactions }]);

const kobo = (text: string): Kobo => (text.trim() === "" ? 0n : (parseAmount(text)?.kobo ?? 0n));
const ZERO_ENRICHMENT = { category: "other", channel: "unknown", counterparty: null, session_id: null, fee_of: null } as const;

/** The statement's rows, every section in print order, read once: amounts, day, words and phrases. */
export function insightRows(r: Source, v: CompiledVocabulary): InsightRow[] {
  const rows: InsightRow[] = [];
  sectionsOf(r).forEach((s, section) => {
    for (const t of s.transactions) {
      const [day, time] = splitDateTime(t.date);
      const text = normalisePhrase(t.narration);
      const words = text.split(" ");
      const balance = t.balance.trim() === "" ? undefined : parseAmount(t.balance)?.kobo;
      rows.push({
        index: rows.length,
        section,
        transaction: t,
        credit: kobo(t.credit),
        debit: kobo(t.debit),
        balance,
        day,
        month: day.slice(0, 7),
        time,
        text,
        words,
        found: findPhrases(words, v.index),
        enrichment: { ...ZERO_ENRICHMENT, confidence: { category: 0, channel: 0, counterparty: null, session_id: null, fee_of: null } },
      });
    }
  });
  return rows;
}

/** Money in, money out, or neither (a zero row). */
export const directionOf = (row: Pick<InsightRow, "credit" | "debit">): "credit" | "debit" | "none" => (row.credit > 0n ? "credit" : row.debit > 0n ? "debit" : "none");
