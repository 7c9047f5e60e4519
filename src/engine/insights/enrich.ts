import { type CategoryMatch, categorise, channelOf } from "./classify.ts";
import type { CompiledVocabulary } from "./compile.ts";
import { type CounterpartyMatch, counterpartyOf } from "./counterparty.ts";
import { linkFees } from "./fee-link.ts";
import { directionOf } from "./rows.ts";
import { sessionIdOf } from "./session.ts";
import type { Category, Channel, Enrichment, InsightRow } from "./types.ts";

const DIRECTIONS = ["credit", "debit", "none"] as const;
const BANKS_OWN = new Set<Category>(["bank_charge", "tax_levy", "interest"]);

/** What the rules say of a narration: the same for every row with the same narration, direction, bank and session presence. */
interface Reading {
  narration: string;
  party: CounterpartyMatch | null;
  category: CategoryMatch;
  channel: { channel: Channel; confidence: number };
  /** The rows' `counterparty`: one frozen object for every row of this reading. */
  counterparty: Enrichment["counterparty"];
}

function read(row: InsightRow, v: CompiledVocabulary, bank: string, hasSession: boolean): Reading {
  const party = counterpartyOf(row, v);
  const category = categorise(row, v, party !== null, hasSession);
  // A charge, levy or interest row is the bank's own: the party its narration names is the transfer's.
  const own = party !== null && BANKS_OWN.has(category.category);
  return { narration: row.transaction.narration, party, category, channel: channelOf(row, v, bank, hasSession), counterparty: party && !own ? Object.freeze({ name: party.name, bank: party.bank }) : null };
}

/**
 * Fills every row's enrichment from its own narration (session id, counterparty, category,
 * channel), then links charges and levies to their rows. `banks`: each section's bank id.
 * The rules are functions of the narration, the row's direction, its section's bank and whether
 * it carries a session id, so each distinct combination is read once (statements repeat
 * narrations heavily). Rows of one reading share its counterparty object, frozen so no one can
 * change it for all of them; each row's confidence is its own (salary and fee links change it).
 */
export function enrichRows(rows: InsightRow[], v: CompiledVocabulary, banks: readonly string[]): void {
  // Keyed by the phrase set insightRows shares between rows of one narration (an identity lookup,
  // no string to hash), then by section (its bank), direction and session presence.
  const readings = new Map<ReadonlySet<string>, Reading[]>();
  for (const row of rows) {
    const e = row.enrichment;
    const session = sessionIdOf(row.transaction.narration, row.transaction.reference);
    const bank = banks[row.section] ?? "";
    let slots = readings.get(row.found);
    if (slots === undefined) readings.set(row.found, (slots = []));
    const slot = (row.section * 3 + DIRECTIONS.indexOf(directionOf(row))) * 2 + (session === null ? 0 : 1);
    let reading = slots[slot];
    // insightRows gives each distinct narration its own set; rows made otherwise are still read right.
    if (reading === undefined || reading.narration !== row.transaction.narration) slots[slot] = reading = read(row, v, bank, session !== null);
    const { party, category, channel } = reading;
    e.category = category.category;
    e.channel = channel.channel;
    e.counterparty = reading.counterparty;
    e.session_id = session?.id ?? null;
    // The row's own confidence object (salary and fee links change it), filled in place.
    const c = e.confidence;
    c.category = category.confidence;
    c.channel = channel.confidence;
    c.counterparty = party?.confidence ?? null;
    c.session_id = session?.confidence ?? null;
    c.fee_of = null;
    if (category.entity !== undefined && category.entity !== "pattern") row.entity = category.entity;
  }
  linkFees(rows, v.fees);
}
