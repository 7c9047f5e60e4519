import { categorise, channelOf } from "./classify.ts";
import type { CompiledVocabulary } from "./compile.ts";
import { counterpartyOf } from "./counterparty.ts";
import { linkFees } from "./fee-link.ts";
import { sessionIdOf } from "./session.ts";
import type { Category, InsightRow } from "./types.ts";

const BANKS_OWN = new Set<Category>(["bank_charge", "tax_levy", "interest"]);

/**
 * Fills every row's enrichment from its own narration (session id, counterparty, category,
 * channel), then links charges and levies to their rows. `banks`: each section's bank id.
 */
export function enrichRows(rows: InsightRow[], v: CompiledVocabulary, banks: readonly string[]): void {
  for (const row of rows) {
    const e = row.enrichment;
    const session = sessionIdOf(row.transaction.narration, row.transaction.reference);
    const party = counterpartyOf(row, v);
    const category = categorise(row, v, party !== null);
    const channel = channelOf(row, v, banks[row.section] ?? "", session !== null);
    e.category = category.category;
    e.channel = channel.channel;
    // A charge, levy or interest row is the bank's own: the party its narration names is the transfer's.
    const own = party !== null && BANKS_OWN.has(category.category);
    e.counterparty = party && !own ? { name: party.name, bank: party.bank } : null;
    e.session_id = session?.id ?? null;
    e.confidence = { category: category.confidence, channel: channel.confidence, counterparty: party?.confidence ?? null, session_id: session?.confidence ?? null, fee_of: null };
    if (category.entity !== undefined && category.entity !== "pattern") row.entity = category.entity;
  }
  linkFees(rows, v.fees);
}
