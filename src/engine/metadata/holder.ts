/**
 * The account holder: a labelled name, else the letter's salutation, else the first line of the
 * address block (the name above the street). Never a document title, an institution or a label.
 */
import { BANK_PROFILES } from "../banks/profiles.ts";
import { scanDate } from "../dates.ts";
import type { Line } from "../layout/lines.ts";
import { parseAmount } from "../money.ts";
import { isLabel } from "./labels.ts";

/** Words that make a line an institution, a document title or an address rather than a person. */
const NOT_A_NAME =
  /\b(?:bank|plc|ltd|limited|microfinance|mfb|statement|e-statement|account|ledger|extract|advice|certificate|records?|enquiry|inquiry|activity|mini|group|member|street|road|avenue|close|crescent|estate|lagos|abuja|nigeria|branch|customer|transaction|history|report|period|page|currency|balance|date|summary|savings|current|wallet|mortgage|cooperative|trust|island|state|office|plaza|house|floor|tel|email|www|private|confidential|copy|original|duplicate|electronic|generated|computer|services|digital|financial|finance|payments?|solutions|technologies|holdings|company|enterprises?|ventures|international|africa|details|information|particulars|dear|sir|madam)\b/i;

/** A value that is itself a label or a title ("Account Type:", "Account Statement"): never a holder's name. */
const LABEL_LIKE = /:\s*$|^(?:account|acct|a\/c|customer|statement|address|branch|currency|bvn|phone|e-?mail|period|opening|closing|balance|date)\b/i;

/** A document title printed where a name could be ("LEDGER EXTRACT", "STATEMENT OF ACCOUNT"). */
const TITLE = /\b(?:statement|e-statement|ledger\s+extract|extract|transaction\s+history|account\s+history|mini\s+statement)\b/i;

/** Salutations that name nobody. */
const NOBODY = /^(?:customer|sir|madam|sir\/madam|valued customer|client)\b/i;

/** Words of the supported banks' names ("FIRST CITY MONUMENT") are not a person's name. */
const BANK_WORDS: ReadonlySet<string> = new Set(
  BANK_PROFILES.flatMap((p) => p.name.toLowerCase().split(/\s+/)).filter((w) => w.length > 3 && !["bank", "nigeria"].includes(w)),
);

/** Whether a labelled or salutation value can be the holder's name. */
export function acceptableHolder(value: string): boolean {
  if (value.length > 80 || NOBODY.test(value) || LABEL_LIKE.test(value) || isLabel(value) || TITLE.test(value)) return false;
  return /[a-z]{2}/i.test(value) && !parseAmount(value) && !scanDate(value);
}

/** A person's or company's name line: two to six words of letters (initials and "&" allowed). */
export function nameShaped(t: string): boolean {
  if (t.length > 60) return false;
  const words = t.split(/\s+/);
  if (words.length < 2 || words.length > 6) return false;
  if (!words.every((w) => /^[A-Za-z][A-Za-z'.-]{0,30},?$|^&$/.test(w))) return false;
  return !NOT_A_NAME.test(t) && !words.some((w) => BANK_WORDS.has(w.toLowerCase())) && !isLabel(t);
}

/** An address line: a house number or a street word ("12 AJOSE ADEOGUN STREET", "Plot 5, Admiralty Way", "P.O. Box 12"). */
const STREET = /^(?:\d{1,5}[a-z]?\b|plot\b|block\b|flat\b|house\b|no\.?\s{0,3}\d|p\.?\s?o\.?\s{0,3}box\b)|\b(?:street|st\.|road|rd\.?|avenue|ave\.?|close|crescent|way|lane|drive|estate|layout|boulevard|expressway)\b/i;

/** The name sits at most this many glyph heights above the street line. */
const NAME_ABOVE_STREET = 2.6;

/**
 * The holder printed without a label, above the table: the name line right above the first
 * street line of an address block (any case), else the first line in capitals shaped like a name.
 */
export function unlabelledHolder(lines: Line[]): string | null {
  const firstPage = lines[0]?.page;
  const page = lines.filter((l) => l.page === firstPage);
  for (let i = 1; i < page.length; i++) {
    const street = page[i]!.cells[0];
    if (!street || street.kind === "date" || !STREET.test(street.text.slice(0, 80))) continue;
    // The nearest line above, starting at the address block's left edge.
    for (let j = i - 1; j >= 0; j--) {
      const above = page[j]!;
      if (page[i]!.y - above.y > NAME_ABOVE_STREET * page[i]!.h) break;
      const cell = above.cells.find((c) => Math.abs(c.x0 - street.x0) <= page[i]!.h);
      if (!cell) continue;
      const t = cell.text.trim();
      if (cell.kind === "text" && nameShaped(t)) return t;
      break;
    }
  }
  for (const line of page) {
    for (const cell of line.cells) {
      const t = cell.text.trim();
      if (cell.kind !== "text" || t !== t.toUpperCase()) continue;
      if (nameShaped(t)) return t;
    }
  }
  return null;
}
