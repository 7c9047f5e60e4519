import { type CompiledCategoryRule, type CompiledChannelRule, type CompiledVocabulary, foundAny } from "./compile.ts";
import { directionOf } from "./rows.ts";
import type { Category, Channel, InsightRow } from "./types.ts";

export interface CategoryMatch {
  category: Category;
  confidence: number;
  entity?: string;
}

const UNNAMED = "(unnamed)";

function fitsDirection(rule: { direction: string }, row: InsightRow): boolean {
  if (rule.direction === "any") return true;
  return rule.direction === directionOf(row);
}

/** The business (or phrase) a rule names in the row, if the rule matches it. */
function ruleHit(rule: CompiledCategoryRule, row: InsightRow): string | undefined {
  const { found } = row;
  if (rule.unless && foundAny(found, rule.unless)) return undefined;
  if (rule.requires && !foundAny(found, rule.requires)) return undefined;
  let hit: string | undefined;
  for (const p of found) {
    const name = rule.names.get(p);
    // A named business beats a list's generic words ("Betting (unnamed)").
    if (name !== undefined && (hit === undefined || hit.endsWith(UNNAMED))) hit = name;
  }
  if ((hit === undefined || hit.endsWith(UNNAMED)) && rule.contextNames.size > 0 && foundAny(found, rule.context)) {
    for (const p of found) {
      const name = rule.contextNames.get(p);
      if (name !== undefined) hit = name;
    }
  }
  if (hit === undefined && rule.patterns.some((re) => re.test(row.transaction.narration))) hit = "pattern";
  return hit;
}

/**
 * The first category rule that matches the row; when none does, a transfer if the narration says
 * transfer, names the other party, or the row carries a NIP session id (NIBSS Instant Payment
 * only moves money between accounts, so a bare reference or an unnamed wallet credit with one is a
 * transfer); else `other`.
 */
export function categorise(row: InsightRow, v: CompiledVocabulary, hasCounterparty: boolean, hasSession: boolean): CategoryMatch {
  for (const rule of v.categories) {
    if (!fitsDirection(rule, row)) continue;
    const hit = ruleHit(rule, row);
    if (hit === undefined) continue;
    return rule.entityRule ? { category: rule.category, confidence: rule.confidence, entity: hit } : { category: rule.category, confidence: rule.confidence };
  }
  const dir = directionOf(row);
  const transferWords = foundAny(row.found, v.transfer);
  if (dir !== "none" && (transferWords || hasCounterparty || hasSession)) {
    return { category: dir === "credit" ? "transfer_in" : "transfer_out", confidence: transferWords && hasCounterparty ? 0.85 : 0.7 };
  }
  return { category: "other", confidence: 0.5 };
}

const channelHit = (rule: CompiledChannelRule, row: InsightRow): boolean => foundAny(row.found, rule.terms) || rule.patterns.some((re) => re.test(row.transaction.narration));

/** The first channel rule that matches; NIP for a row with a session id; the app for a wallet's statement; else unknown. */
export function channelOf(row: InsightRow, v: CompiledVocabulary, bank: string, hasSession: boolean): { channel: Channel; confidence: number } {
  for (const rule of v.channels) if (channelHit(rule, row)) return { channel: rule.channel, confidence: rule.confidence };
  if (hasSession) return { channel: "nip", confidence: 0.85 };
  if (v.appBanks.has(bank)) return { channel: "app", confidence: v.appBankConfidence };
  return { channel: "unknown", confidence: 0 };
}
