import { BOUNCED, CATEGORY_RULES, TRANSFER_TERMS } from "./categories.ts";
import { CHANNEL_RULES } from "./channels.ts";
import { COUNTERPARTIES } from "./counterparties.ts";
import { FEE_RULES } from "./fees.ts";
import { Vocabulary } from "./schema.ts";

export * from "./schema.ts";

/** The raw vocabulary data, before it is checked. */
export const RAW_VOCABULARY = {
  categories: CATEGORY_RULES,
  transfer_terms: TRANSFER_TERMS,
  channels: CHANNEL_RULES,
  counterparties: COUNTERPARTIES,
  fees: FEE_RULES,
  bounced: BOUNCED,
};

/** Checks vocabulary data; throws a ZodError naming the offending path. */
export const loadVocabulary = (raw: unknown): Vocabulary => Vocabulary.parse(raw);

let loaded: Vocabulary | undefined;
/** The built-in vocabulary, checked once on first use. */
export function vocabulary(): Vocabulary {
  loaded ??= loadVocabulary(RAW_VOCABULARY);
  return loaded;
}
