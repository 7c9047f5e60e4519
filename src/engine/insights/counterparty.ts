import type { CompiledVocabulary } from "./compile.ts";
import { normalisePhrase } from "./normalise.ts";
import { directionOf } from "./rows.ts";
import type { InsightRow } from "./types.ts";

export interface CounterpartyMatch {
  name: string;
  bank: string | null;
  confidence: number;
}

/** A bank as the vocabulary names it, or as printed when it is not known. */
function bankName(raw: string, v: CompiledVocabulary): string | null {
  const text = raw.trim().replace(/[\s|,;:-]+$/, "");
  if (text === "" || /^[\d*]+$/.test(text)) return null;
  return v.banks.get(normalisePhrase(text)) ?? text;
}

/**
 * "ADA OBI Access Bank" -> ["ADA OBI", "Access Bank"]; "ADA OBI FCMB RENT" -> ["ADA OBI", "FCMB"]:
 * a known bank after the first word of the name ends it (what follows is the memo). The longest
 * alias at the earliest place wins.
 */
function splitBank(name: string, v: CompiledVocabulary): [string, string | null] {
  const tokens = name.split(/\s+/);
  // Normalising the words one by one and joining the non-empty ones is normalising their join.
  const words = tokens.map(normalisePhrase);
  for (let at = 1; at < tokens.length; at++) {
    for (let k = Math.min(v.bankAliasWords, tokens.length - at); k >= 1; k--) {
      const bank = v.banks.get(words.slice(at, at + k).filter((w) => w !== "").join(" "));
      if (bank !== undefined) return [tokens.slice(0, at).join(" "), bank];
    }
  }
  return [name, null];
}

/** Trims what forms leave around a name: masked account numbers, trailing digits and separators. */
function cleanName(raw: string): string {
  return raw
    .replace(/\s*\*+\d*\s*$/, "")
    .replace(/(?:\s+\d[\d*]*)+\s*$/, "")
    .replace(/^[\s|/:,-]+|[\s|/:,.-]+$/g, "")
    .replace(/\s+/g, " ");
}

function acceptable(name: string, v: CompiledVocabulary): boolean {
  const words = normalisePhrase(name).split(" ").filter((w) => w !== "");
  // "ALAT NIP TRANSFER TO Opay-" names a bank and no one in it.
  if (v.banks.has(words.join(" "))) return false;
  return words.length > 0 && /[A-Za-z].*[A-Za-z]/.test(name) && !words.every((w) => v.notNames.has(w) || /^\d+$/.test(w));
}

/** The other party of a row, by the first narration form that fits its direction and names someone. */
export function counterpartyOf(row: InsightRow, v: CompiledVocabulary): CounterpartyMatch | null {
  const dir = directionOf(row);
  const narration = row.transaction.narration;
  for (const form of v.forms) {
    if (form.direction !== "any" && form.direction !== dir) continue;
    const m = form.re.exec(narration);
    const rawName = m?.groups?.name;
    if (rawName === undefined) continue;
    let name = cleanName(rawName);
    let bank = m?.groups?.bank === undefined ? null : bankName(m.groups.bank, v);
    if (bank === null) [name, bank] = splitBank(name, v);
    name = cleanName(name);
    if (!acceptable(name, v)) continue;
    return { name, bank, confidence: form.confidence };
  }
  return null;
}
