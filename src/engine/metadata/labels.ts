/**
 * The label vocabulary of statement headers: which printed label names which fact, and which
 * other labels (account type, branch, address…) end a value that runs into them.
 */
import { squeezeSpaces } from "../whitespace.ts";

export type Field =
  | "accountNumber"
  | "holder"
  | "salutation"
  | "period"
  | "periodStart"
  | "periodEnd"
  | "opening"
  | "closing"
  | "totalDebit"
  | "totalCredit"
  | "debitCount"
  | "creditCount"
  | "currency";

const LABELS: [Field, RegExp][] = [
  [
    "accountNumber",
    /^(?:customer\s+|bank\s+)?(?:account|acct|a\/c|acc)\.?\s*(?:no|number|num|#)?\.?(?:\s*\/\s*nuban)?$|^nuban(?:\s+(?:no|number))?\.?$|^ledger\s+(?:no|number|account)\.?$|^wallet\s+(?:no|number|id)\.?$/i,
  ],
  ["holder", /^(?:(?:account|acct|a\/c)\.?\s+name|account\s+holder(?:'?s)?(?:\s+name)?|(?:customer|client|company|business)\s+name|name\s+of\s+(?:account(?:\s+holder)?|customer)|name|customer|account\s+title|holder)$/i],
  ["salutation", /^dear$/i],
  ["period", /^(?:statement\s+|transaction\s+|reporting\s+|report\s+)?period$|^statement\s+(?:date|range|from|for\s+the\s+period)$|^date\s+range$|^period\s+covered$|^covering$/i],
  ["periodStart", /^(?:start\s+date|from|period\s+from|from\s+date|start|period\s+start)$/i],
  ["periodEnd", /^(?:end\s+date|to|period\s+to|to\s+date|end|period\s+end)$/i],
  [
    "opening",
    /^(?:opening|beginning|start(?:ing)?|previous)\s+(?:ledger\s+)?(?:bal(?:ance)?|position)\.?$|^(?:balance|bal\.?)\s+(?:b\/?f|brought\s+forward)$|^brought\s+forward$|^balance\s+at\s+(?:period\s+)?start$/i,
  ],
  [
    "closing",
    /^(?:closing|ending|end|final)\s+(?:ledger\s+)?(?:bal(?:ance)?|position)\.?$|^(?:balance|bal\.?)\s+(?:c\/?f|carried\s+forward)$|^carried\s+forward$|^balance\s+at\s+(?:period\s+)?end$|^ledger\s+position$/i,
  ],
  ["totalDebit", /^total\s+(?:debits?|withdrawals?|money\s+out|payments?|outflows?|debit\s+amount)$|^money\s+out$/i],
  ["totalCredit", /^total\s+(?:credits?|deposits?|lodgements?|money\s+in|inflows?|credit\s+amount)$|^money\s+in$/i],
  ["debitCount", /^(?:total\s+)?(?:debit|withdrawal)s?\s+count$|^(?:no\.?|number)\s+of\s+(?:debits|withdrawals)$/i],
  ["creditCount", /^(?:total\s+)?(?:credit|deposit|lodgement)s?\s+count$|^(?:no\.?|number)\s+of\s+(?:credits|deposits|lodgements)$/i],
  ["currency", /^(?:currency|ccy)$/i],
];

/** Labels of facts this module does not read; a value running into one ends there. */
const OTHER_LABELS =
  /^(?:(?:account|acct|a\/c)\.?\s+(?:type|status|class|category|officer|branch|currency|product)|bank\s+name|relationship\s+manager|officer(?:\s+name)?|product(?:\s+(?:name|type))?|branch(?:\s+(?:name|code|address))?|sort\s+code|address|customer\s+(?:address|phone|mobile|email|e-mail|bvn)|bvn|phone(?:\s+(?:no|number))?\.?|mobile(?:\s+(?:no|number))?\.?|e-?mail(?:\s+address)?|print(?:ed)?\s+(?:date|on|by)|date\s+printed|available\s+balance|uncleared\s+(?:balance|funds)|cleared\s+balance|overdraft\s+limit|interest\s+rate|customer\s+(?:id|no|number|ref)\.?)$/i;

export const clean = (s: string) => squeezeSpaces(s.replace(/\s*:\s*$/, ""));

/** The fact a label names, or null. */
export function labelField(text: string): Field | null {
  // Labels are short; a long text is never cleaned (a megabyte value would be, once per neighbour).
  if (text.length > 60) return null;
  const t = clean(text);
  if (t.length > 40) return null;
  for (const [field, re] of LABELS) if (re.test(t)) return field;
  return null;
}

/** Any known label, read or not ("Account Type", "Branch"). */
export function isLabel(text: string): boolean {
  if (text.length > 60) return false;
  const t = clean(text);
  return t.length <= 40 && (labelField(t) !== null || OTHER_LABELS.test(t));
}

/** A label's words are capitalised ("Account Type", "ACCOUNT TYPE"); lower-case words are prose. */
const CAPITALISED = /^[A-Z]/;

/**
 * Single label words that never occur inside a value, so a run is cut before them even without a
 * colon ("… OKAFOR Currency NGN"). Others ("to" between dates, "Name", "Phone" in "SMART PHONE
 * HUB") cut only with a colon ("To:", "Phone:").
 */
const SAFE_ALONE = /^(?:currency|ccy|bvn|nuban|e-?mail|address|branch)$/i;

/** Longest label phrase looked for inside a run, in words. */
const MAX_LABEL_WORDS = 4;

interface Word {
  w: string;
  at: number;
}

const wordsOf = (text: string): Word[] => {
  const words: Word[] = [];
  const re = /\S+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) words.push({ w: m[0], at: m.index });
  return words;
};

/**
 * The words any label above starts with (kept in step with LABELS and OTHER_LABELS): a cheap
 * test that spares the vocabulary for the many words of a long run that start none.
 */
const FIRST_WORD =
  /^(?:account|acct|acc|a\/c|customer|bank|nuban|ledger|wallet|name|client|company|business|holder|dear|statement|transaction|reporting|report|period|date|covering|start|from|to|end|opening|beginning|starting|previous|balance|bal|brought|closing|ending|final|carried|total|money|debit|credit|withdrawal|deposit|lodgement|no|number|currency|ccy|product|branch|sort|address|bvn|phone|mobile|e-?mail|print|printed|available|uncleared|cleared|overdraft|interest|relationship|officer)\b/i;

/** Words in the longest label starting at word i (0 when none); a trailing colon ends a label. */
function longestLabel(words: Word[], i: number): number {
  if (!FIRST_WORD.test(words[i]!.w.slice(0, 20))) return 0;
  let phrase = "";
  let best = 0;
  for (let n = 1; n <= MAX_LABEL_WORDS && i + n <= words.length; n++) {
    const w = words[i + n - 1]!.w;
    phrase = n === 1 ? w : `${phrase} ${w}`;
    if (isLabel(phrase)) best = n;
    if (w.endsWith(":")) break;
  }
  return best;
}

/**
 * Words of a label that starts a new label/value pair at word i, or 0: capitalised or ending in a
 * colon, and several words or a single word that cannot be part of a value ("To" between dates
 * can; "To:" and "Currency" cannot).
 */
function pairLabelAt(words: Word[], i: number): number {
  const n = longestLabel(words, i);
  if (n === 0) return 0;
  const colon = words[i + n - 1]!.w.endsWith(":");
  if (!colon && !CAPITALISED.test(words[i]!.w)) return 0;
  if (n === 1 && !colon && !SAFE_ALONE.test(words[i]!.w.replace(/\.$/, ""))) return 0;
  return n;
}

/** True when a run begins a new label/value pair ("Account Type Savings", "To: 31 May 2024"). */
export function startsPair(text: string): boolean {
  return pairLabelAt(wordsOf(text.slice(0, 60)), 0) > 0;
}

export interface RunPart {
  text: string;
  /** Character offset of the part in the run. */
  start: number;
}

/**
 * Cuts a run of text where a further label/value pair starts: a tight grid printed as one run
 * ("Account Name ADA OKAFOR Account Type Savings", "ACCOUNT NO: 0123456789 Period: …") becomes
 * one part per pair. Linear: each word is tried as the start of at most four label words.
 */
export function splitAtLabels(text: string): RunPart[] {
  const words = wordsOf(text);
  if (words.length < 2) return [{ text: text.trim(), start: words[0]?.at ?? 0 }];
  const cuts: number[] = [0];
  // The run's own first label is never cut inside ("Account Name" stays whole).
  for (let i = Math.max(1, longestLabel(words, 0)); i < words.length; i++) {
    const n = pairLabelAt(words, i);
    if (n === 0) continue;
    cuts.push(i);
    i += n - 1;
  }
  return cuts.map((c, k) => {
    const start = words[c]!.at;
    const end = k + 1 < cuts.length ? words[cuts[k + 1]!]!.at : text.length;
    // A separator between pairs ("Account Name: ADA OBI | Account Number: …") ends its pair's value.
    return { text: text.slice(start, end).replace(/[\s|;·•]+$/, ""), start };
  });
}
