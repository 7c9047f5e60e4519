import type { PiiKind } from "./values.ts";
import { squeezeSpaces } from "../whitespace.ts";

/**
 * The labels statements print before the holder's values ("Account Name:", "BVN", "Address")
 * and what a value of each kind may look like. Label patterns are anchored at the start of a
 * run's text and separators between words are bounded, so each is tried once per run in time
 * independent of the line's length.
 */

const LABELS: { kind: PiiKind; regex: RegExp }[] = [
  {
    kind: "name",
    // A bare "Customer" only with a colon ("Customer Care" is no label).
    regex: /^(?:account\s{0,8}(?:name|title)|a\/c\s{0,8}name|acc(?:oun)?t\.?\s{0,8}name|customer(?:'s)?\s{0,8}name|customer(?=\s{0,8}:)|account\s{0,8}holder(?:'s)?(?:\s{0,8}name)?|name\s{0,8}of\s{0,8}(?:account|customer)|full\s{0,8}name|name|dear)(?![\p{L}])\s{0,8}[:.\-]?\s{0,8}/iu,
  },
  { kind: "account_number", regex: /^(?:account\s{0,8}(?:no|number|num)|acc(?:oun)?t?\.?\s{0,8}(?:no|number)|a\/c\s{0,8}(?:no|number)?|nuban)(?![\p{L}])\.?\s{0,8}[:.\-#]?\s{0,8}/iu },
  { kind: "phone", regex: /^(?:phone|mobile|tel(?:ephone)?|gsm)(?:\s{0,8}(?:no|number))?(?![\p{L}])\.?\s{0,8}[:.\-]?\s{0,8}/iu },
  { kind: "email", regex: /^e-?mail(?:\s{0,8}address)?(?![\p{L}])\s{0,8}[:.\-]?\s{0,8}/iu },
  { kind: "address", regex: /^(?:(?:customer|postal|residential|home|contact)\s{0,8})?address(?![\p{L}])\s{0,8}[:.\-]?\s{0,8}/iu },
  { kind: "bvn", regex: /^bvn(?:\s{0,8}(?:no|number))?(?![\p{L}])\.?\s{0,8}[:.\-]?\s{0,8}/iu },
];

/** The longest text a label with its separators can take; only this much of a run is read for one. */
const LABEL_WINDOW = 96;
/** The longest value read after or under a label: holder values are short phrases (validValue takes at most 160 characters). */
export const VALUE_WINDOW = 400;

export const ADDRESS_WORDS =
  /(?<![\p{L}])(?:address|street|str|st|road|rd|avenue|ave|close|crescent|cres|estate|lane|drive|way|layout|quarters|junction|plot|block|flat|house|off|opp(?:osite)?|p\.?\s{0,2}o\.?\s{0,2}box|lga|state|lagos|abuja|nigeria)(?![\p{L}])/iu;

export function labelOf(s: string): { kind: PiiKind; length: number } | undefined {
  // Leading spaces are skipped by hand: trimStart on a long run copies it.
  let lead = 0;
  while (lead < s.length && /\s/.test(s[lead]!)) lead++;
  const head = s.slice(lead, lead + LABEL_WINDOW);
  for (const l of LABELS) {
    const m = l.regex.exec(head);
    if (m) return { kind: l.kind, length: lead + m[0].length };
  }
  return undefined;
}

/** Text that ends in a colon (after trailing spaces): read by hand, as a regex would retry at every colon. */
export function endsWithColon(s: string): boolean {
  let i = s.length - 1;
  while (i >= 0 && /\s/.test(s[i]!)) i--;
  return i >= 0 && s[i] === ":";
}

export const looksLikeLabel = (s: string) => labelOf(s) !== undefined || endsWithColon(s);

export function validValue(kind: PiiKind, raw: string): string | undefined {
  // Values are short phrases; a long text is none (and is not normalised at all).
  if (raw.length > VALUE_WINDOW) return undefined;
  const v = squeezeSpaces(raw);
  const digits = v.replace(/\D/g, "");
  switch (kind) {
    case "name":
      return /\p{L}/u.test(v) && !/\d/.test(v) && !v.includes(":") && v.length >= 2 && v.length <= 80 && v.split(" ").length <= 6 ? v : undefined;
    case "account_number":
      if (/^[\d\s-]+$/.test(v)) return digits.length >= 6 && digits.length <= 20 ? digits : undefined;
      // Printed masked only ("******4321"): the masked form itself is what gets removed.
      return /^[0-9]*[*Xx•]{2,}[0-9]*$/.test(v) && digits.length >= 3 && v.length >= 6 && v.length <= 20 ? v : undefined;
    case "bvn":
      return /^[\d\s-]+$/.test(v) && digits.length === 11 ? digits : undefined;
    case "phone":
      return /^[+\d\s()-]+$/.test(v) && digits.length >= 7 && digits.length <= 15 ? v : undefined;
    case "email":
      return /^\S+@\S+$/.test(v) ? v : undefined;
    case "address":
      return /\p{L}/u.test(v) && v.length <= 160 && !v.includes(":") ? v : undefined;
  }
}
