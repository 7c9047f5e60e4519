import { type Kobo, parseAmount } from "../money.ts";
import { type Category, type CategoryRule, type Channel, type Direction, type FeeRules, type Vocabulary, vocabulary } from "./vocabulary/index.ts";

/**
 * A checked vocabulary made ready to match: every phrase of every rule in one index keyed by its
 * first word, so a narration is read once, word by word, whatever the number of rules; rules
 * then only ask which of their phrases were found.
 */

export interface CompiledCategoryRule {
  category: Category;
  direction: Direction;
  confidence: number;
  /** Phrase -> the business it names (entity rules), or the phrase itself (term rules). */
  names: Map<string, string>;
  /** Names that count only beside a `context` phrase. */
  contextNames: Map<string, string>;
  context: Set<string>;
  requires?: Set<string>;
  unless?: Set<string>;
  patterns: RegExp[];
  entityRule: boolean;
}

export interface CompiledChannelRule {
  channel: Exclude<Channel, "unknown">;
  terms: Set<string>;
  patterns: RegExp[];
  confidence: number;
}

export interface CompiledForm {
  id: string;
  direction: Direction;
  re: RegExp;
  confidence: number;
}

export interface CompiledFees {
  vatRateBp: bigint;
  vat: Set<string>;
  emtl: Set<string>;
  stampDuty: Set<string>;
  emtlAmount: Kobo;
  emtlThreshold: Kobo;
  stampDutyAmount: Kobo;
  bands: { upTo: Kobo | null; fee: Kobo }[];
  windowRows: number;
}

export interface CompiledVocabulary {
  /** First word -> every phrase (as its words) that starts with it. */
  index: Map<string, string[][]>;
  categories: CompiledCategoryRule[];
  transfer: Set<string>;
  channels: CompiledChannelRule[];
  appBanks: Set<string>;
  appBankConfidence: number;
  forms: CompiledForm[];
  /** Bank alias (normalised) -> the bank's name. */
  banks: Map<string, string>;
  /** The most words any bank alias has. */
  bankAliasWords: number;
  notNames: Set<string>;
  fees: CompiledFees;
  bounced: Set<string>;
}

const naira = (text: string): Kobo => parseAmount(text)?.kobo ?? 0n;
const regexes = (sources: readonly string[]): RegExp[] => sources.map((s) => new RegExp(s, "i"));

function compileCategory(rule: CategoryRule): CompiledCategoryRule {
  if (rule.kind === "terms") {
    return {
      category: rule.category,
      direction: rule.direction,
      confidence: rule.confidence,
      names: new Map(rule.terms.map((t) => [t, t])),
      contextNames: new Map(),
      context: new Set(),
      ...(rule.requires ? { requires: new Set(rule.requires) } : {}),
      ...(rule.unless ? { unless: new Set(rule.unless) } : {}),
      patterns: regexes(rule.patterns),
      entityRule: false,
    };
  }
  const names = new Map<string, string>();
  const contextNames = new Map<string, string>();
  for (const e of rule.entities) {
    for (const a of e.aliases) names.set(a, e.name);
    for (const a of e.context_aliases ?? []) contextNames.set(a, e.name);
  }
  return { category: rule.category, direction: rule.direction, confidence: rule.confidence, names, contextNames, context: new Set(rule.context), patterns: [], entityRule: true };
}

function compileFees(f: FeeRules): CompiledFees {
  return {
    vatRateBp: BigInt(f.vat_rate_bp),
    vat: new Set(f.vat_terms),
    emtl: new Set(f.emtl_terms),
    stampDuty: new Set(f.stamp_duty_terms),
    emtlAmount: naira(f.emtl_amount),
    emtlThreshold: naira(f.emtl_threshold),
    stampDutyAmount: naira(f.stamp_duty_amount),
    bands: f.transfer_fee_bands.map((b) => ({ upTo: b.up_to === null ? null : naira(b.up_to), fee: naira(b.fee) })),
    windowRows: f.window_rows,
  };
}

export function compileVocabulary(v: Vocabulary): CompiledVocabulary {
  const categories = v.categories.map(compileCategory);
  const channels: CompiledChannelRule[] = v.channels.rules.map((r) => ({ channel: r.channel, terms: new Set(r.terms), patterns: regexes(r.patterns), confidence: r.confidence }));
  const banks = new Map<string, string>();
  for (const b of v.counterparties.banks) for (const a of b.aliases) banks.set(a, b.name);
  const fees = compileFees(v.fees);
  const phrases = new Set<string>([...v.transfer_terms, ...v.bounced.terms, ...fees.vat, ...fees.emtl, ...fees.stampDuty]);
  for (const r of categories) for (const set of [r.names.keys(), r.contextNames.keys(), r.context, r.requires ?? [], r.unless ?? []]) for (const p of set) phrases.add(p);
  for (const r of channels) for (const p of r.terms) phrases.add(p);
  const index = new Map<string, string[][]>();
  for (const p of phrases) {
    const words = p.split(" ");
    const first = words[0] ?? "";
    const list = index.get(first);
    if (list) list.push(words);
    else index.set(first, [words]);
  }
  return {
    index,
    categories,
    transfer: new Set(v.transfer_terms),
    channels,
    appBanks: new Set(v.channels.app_banks),
    appBankConfidence: v.channels.app_bank_confidence,
    forms: v.counterparties.forms.map((f) => ({ id: f.id, direction: f.direction, re: new RegExp(f.pattern, "i"), confidence: f.confidence })),
    banks,
    bankAliasWords: Math.max(...[...banks.keys()].map((a) => a.split(" ").length)),
    notNames: new Set(v.counterparties.not_names),
    fees,
    bounced: new Set(v.bounced.terms),
  };
}

/** Whether any of the phrases found is in `set` (no array is made: this runs for every row and rule). */
export function foundAny(found: ReadonlySet<string>, set: ReadonlySet<string> | ReadonlyMap<string, unknown>): boolean {
  for (const p of found) if (set.has(p)) return true;
  return false;
}

/** Every vocabulary phrase found in the words of a normalised narration. */
export function findPhrases(words: readonly string[], index: Map<string, string[][]>): Set<string> {
  const found = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const candidates = index.get(words[i] ?? "");
    if (!candidates) continue;
    for (const phrase of candidates) {
      let k = 1;
      while (k < phrase.length && words[i + k] === phrase[k]) k++;
      if (k === phrase.length) found.add(phrase.length === 1 ? (phrase[0] ?? "") : phrase.join(" "));
    }
  }
  return found;
}

let compiled: CompiledVocabulary | undefined;
/** The built-in vocabulary, checked and compiled once. */
export function builtInVocabulary(): CompiledVocabulary {
  compiled ??= compileVocabulary(vocabulary());
  return compiled;
}
