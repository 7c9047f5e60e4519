import { z } from "zod";
import { normalisePhrase } from "../normalise.ts";

/**
 * The shape of the insight vocabularies (src/engine/insights/vocabulary/*.ts), checked when they
 * load: a vocabulary is data that people extend, and a phrase that could never match a normalised
 * narration, a regular expression that does not compile or a category that does not exist must
 * fail loudly at start-up, not silently never match.
 */

export const CATEGORIES = [
  "transfer_in",
  "transfer_out",
  "salary",
  "card_purchase",
  "cash_withdrawal",
  "cash_deposit",
  "airtime_data",
  "bills",
  "bank_charge",
  "tax_levy",
  "interest",
  "reversal",
  "savings",
  "loan",
  "betting",
  "other",
] as const;
export type Category = (typeof CATEGORIES)[number];

export const CHANNELS = ["nip", "ussd", "pos", "web", "atm", "card", "branch", "app", "unknown"] as const;
export type Channel = (typeof CHANNELS)[number];

/** Which side of the ledger a rule applies to: money in (credit), money out (debit) or either. */
export const Direction = z.enum(["credit", "debit", "any"]);
export type Direction = z.infer<typeof Direction>;

/** A phrase as narrations are normalised (src/engine/insights/normalise.ts): upper-case words of A-Z and 0-9, single spaces. */
export const Phrase = z
  .string()
  .min(1)
  .refine((p) => normalisePhrase(p) === p, { message: "must be upper-case A-Z/0-9 words separated by single spaces, as narrations are normalised" });

const compiles = (source: string): boolean => {
  try {
    new RegExp(source, "i");
    return true;
  } catch {
    return false;
  }
};
/** A regular expression source, matched case-insensitively against the raw narration. */
export const Pattern = z.string().min(1).refine(compiles, { message: "must be a valid regular expression" });

export const Confidence = z.number().min(0).max(1);

/** A rule of fixed phrases: the first rule (in list order) that matches a row decides its category. */
export const TermRule = z
  .strictObject({
    kind: z.literal("terms"),
    category: z.enum(CATEGORIES),
    direction: Direction,
    terms: z.array(Phrase).default([]),
    patterns: z.array(Pattern).default([]),
    /** At least one of these must also be in the narration (a word that means this only in that context). */
    requires: z.array(Phrase).optional(),
    /** None of these may be in the narration (words that mean something else beside them: "SCHOOL FEES" is not a bank fee). */
    unless: z.array(Phrase).optional(),
    confidence: Confidence,
    /** Where the knowledge comes from. */
    source: z.string().min(1),
  })
  .refine((r) => r.terms.length + r.patterns.length > 0, { message: "a rule needs at least one term or pattern" });

/** A named business (a lender, a betting operator, a telco, a biller) and how narrations name it. */
export const Entity = z.strictObject({
  name: z.string().min(1),
  aliases: z.array(Phrase).min(1),
  /** Names that mean this business only beside one of the list's `context` words ("BRANCH" the lender, not a bank branch). */
  context_aliases: z.array(Phrase).optional(),
});

/** A list of businesses that decides a category: each row naming one of them (in the right direction) is that category. */
export const EntityRule = z
  .strictObject({
    kind: z.literal("entities"),
    category: z.enum(CATEGORIES),
    direction: Direction,
    confidence: Confidence,
    context: z.array(Phrase).default([]),
    entities: z.array(Entity).min(1),
    source: z.string().min(1),
  })
  .refine((r) => r.entities.every((e) => !e.context_aliases?.length) || r.context.length > 0, { message: "context_aliases need the list's context words" })
  .refine((r) => new Set(r.entities.map((e) => e.name)).size === r.entities.length, { message: "entity names must be unique" });

export const CategoryRule = z.union([TermRule, EntityRule]);
export type CategoryRule = z.infer<typeof CategoryRule>;
export type EntityDef = z.infer<typeof Entity>;

export const ChannelRule = z
  .strictObject({
    channel: z.enum(CHANNELS).exclude(["unknown"]),
    terms: z.array(Phrase).default([]),
    patterns: z.array(Pattern).default([]),
    confidence: Confidence,
    source: z.string().min(1),
  })
  .refine((r) => r.terms.length + r.patterns.length > 0, { message: "a rule needs at least one term or pattern" });
export type ChannelRule = z.infer<typeof ChannelRule>;

export const Channels = z.strictObject({
  rules: z.array(ChannelRule).min(1),
  /** A statement of these banks (engine bank ids) is an app's: a row with no channel word was made in the app. */
  app_banks: z.array(z.string().regex(/^[a-z0-9]+$/)),
  app_bank_confidence: Confidence,
});

/** A narration form that names the other party: a regular expression with a `name` group and optionally a `bank` group. */
export const CounterpartyForm = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9_]+$/),
    direction: Direction,
    pattern: Pattern,
    confidence: Confidence,
    source: z.string().min(1),
  })
  .refine((f) => /\(\?<name>/.test(f.pattern), { message: "a counterparty form needs a (?<name>...) group" });
export type CounterpartyForm = z.infer<typeof CounterpartyForm>;

export const Counterparties = z.strictObject({
  forms: z.array(CounterpartyForm).min(1),
  /** Banks and wallets as narrations name them: a bank name ending a captured name is split off into `bank`. */
  banks: z.array(Entity).min(1),
  /** Words that are not a party's name ("TRANSFER", "NIP"): a captured name made only of them is dropped. */
  not_names: z.array(Phrase),
});

const Naira = z.string().regex(/^\d+\.\d{2}$/, { message: "must be naira with two decimals, e.g. 50.00" });

/** The statutory and tariff amounts that tie a charge or levy row to the row it was taken for. */
export const FeeRules = z.strictObject({
  /** VAT on a bank's fee, in basis points of the fee (7.5% = 750). */
  vat_rate_bp: z.number().int().min(1).max(10000),
  vat_terms: z.array(Phrase).min(1),
  emtl_amount: Naira,
  /** The smallest inflow that carries EMTL / stamp duty. */
  emtl_threshold: Naira,
  emtl_terms: z.array(Phrase).min(1),
  stamp_duty_amount: Naira,
  stamp_duty_terms: z.array(Phrase).min(1),
  /** Electronic transfer charges by amount band (CBN Guide to Charges): a charge of one of these on the transfer it follows. */
  transfer_fee_bands: z
    .array(z.strictObject({ up_to: Naira.nullable(), fee: Naira }))
    .min(1)
    .refine((b) => b.slice(0, -1).every((x) => x.up_to !== null) && b[b.length - 1]?.up_to === null, { message: "every band but the last needs up_to; the last has up_to null" }),
  /** How many rows either side a fee's row may be from its principal. */
  window_rows: z.number().int().min(1).max(20),
  source: z.string().min(1),
});
export type FeeRules = z.infer<typeof FeeRules>;

/** Words that mark an item returned unpaid or failed (bounced), besides reversals. */
export const Bounced = z.strictObject({ terms: z.array(Phrase).min(1), source: z.string().min(1) });

export const Vocabulary = z.strictObject({
  categories: z.array(CategoryRule).min(1),
  /** Words that make an otherwise unexplained row a transfer (transfer_in / transfer_out by direction). */
  transfer_terms: z.array(Phrase).min(1),
  channels: Channels,
  counterparties: Counterparties,
  fees: FeeRules,
  bounced: Bounced,
});
export type Vocabulary = z.infer<typeof Vocabulary>;
