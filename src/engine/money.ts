/**
 * The engine's one money type: integer kobo as bigint. Statements print amounts in many dresses
 * (`₦1,234.56`, `NGN 1,234.56`, `(1,234.56)`, `1,234.56 DR`, `1,234.56 (CR)`, `--`); parsing them all here keeps
 * every other module free of string arithmetic and of floats.
 */
export type Kobo = bigint;

export interface ParsedAmount {
  /** Signed value: parentheses and a leading minus make it negative. */
  kobo: Kobo;
  /** A trailing or leading DR/CR marker, left to the caller to interpret (debit side, or overdrawn balance). */
  marker: "DR" | "CR" | null;
  /** The text carried an explicit sign (`+` or `-` or parentheses). */
  signed: boolean;
  /** The text had grouping commas, decimals or a currency sign: it reads as money, not as a bare integer. */
  moneyShaped: boolean;
}

/**
 * A currency before the figure. `■`, `□` and `�` stand where a producer's font had no naira sign
 * (ReportLab's standard fonts print `■` for `₦`: xhtml2pdf), so they read as an unnamed sign; so
 * does a `?` right before the digits (Dompdf's core fonts print `?` for `₦`: `+?92,050.01`).
 */
const CURRENCY = String.raw`(?:₦|NGN|N(?=[\d\s])|#|USD|\$|GBP|£|EUR|€|[■□\uFFFD]|\?(?=\d))`;
/** Currency codes a statement may print after an amount. */
const CODES = "NGN|USD|GBP|EUR";
const CURRENCY_MARK = new RegExp(`^(?:${CODES}|[₦$£€])$`);
/**
 * A currency code or sign alone: an amount cell's suffix a narrow column wrapped onto its own
 * line, or the sign a spreadsheet's accounting format prints at the cell's left edge.
 */
export const isCurrencyMark = (text: string): boolean => CURRENCY_MARK.test(text.trim());
/** A sign or an opening parenthesis on a currency mark (`-NGN`, `+₦`, `(NGN`): the front of a signed amount drawn or wrapped apart from its figure. */
export const isSignedCurrencyMark = (text: string): boolean => {
  const t = text.trim();
  return /^[(+-]/.test(t) && isCurrencyMark(t.slice(1));
};
// Groups of three with commas, or a plain digit run; decimals of 1 to 3 digits (some exports print 3).
const NUMBER = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,3})?|\.\d{1,2}`;
const AMOUNT_RE = new RegExp(
  // A currency code may follow the number ("1,234.56 NGN"), and a marker may sit in parentheses ("1,234.56 (DR)").
  String.raw`^(?<pre>DR|CR)?\s*(?<open>\()?\s*(?<sign1>[+-])?\s*${CURRENCY}?\s*(?<sign2>[+-])?\s*(?<num>${NUMBER})\s*(?:${CODES})?\s*(?<close>\))?\s*(?<sign3>-)?\s*(?:\((?<postp>DR|CR)\)|(?<post>DR|CR|D|C|Dr|Cr))?\.?$`,
  "i",
);

/** Unsigned, unmarked, two decimals, no currency: read directly, without AMOUNT_RE. */
const PLAIN_AMOUNT = /^(?:\d{1,3}(?:,\d{3})+|\d+)\.\d{2}$/;

/** A plain amount with a minus sign right before it, which the general path reads the same way. */
const MINUS_PLAIN_AMOUNT = /^-(?:\d{1,3}(?:,\d{3})+|\d+)\.\d{2}$/;

/**
 * The plain shape of nearly every amount cell ("1,234.56", "500.00"): money and nothing else (no
 * date, time or marker has it), so callers that classify text can settle it before anything else.
 */
export const isPlainAmount = (text: string): boolean => PLAIN_AMOUNT.test(text);

/** Placeholders that mean "no amount on this side". */
const EMPTY_AMOUNT = /^(?:[-–—]{1,3}|₦\s*[-–—]{1,3}|N\/A|nil|-?\s*₦?\s*-)$/i;

export function isEmptyAmount(text: string): boolean {
  const t = text.trim();
  return t === "" || EMPTY_AMOUNT.test(t);
}

/** Parses one amount; null when the text is not an amount at all. */
export function parseAmount(text: string): ParsedAmount | null {
  // Fast path: the plain shape of nearly every amount cell ("1,234.56"), read directly: a
  // fraction of the general path's cost on large statements, with the same result.
  if (PLAIN_AMOUNT.test(text)) return { kobo: plainKobo(text), marker: null, signed: false, moneyShaped: true };
  // The same with a leading minus ("-1,057,937.96": overdrawn balances, signed amount columns).
  if (MINUS_PLAIN_AMOUNT.test(text)) return { kobo: -plainKobo(text), marker: null, signed: true, moneyShaped: true };
  // Fast path: most words of a statement hold no digit at all.
  if (!/\d/.test(text)) return null;
  // Typographic minus signs and dashes (U+2212, en/em dash, hyphen, full-width) read as "-".
  const t = text.replace(/\u00a0/g, " ").replace(/[\u2212\u2010-\u2015\ufe63\uff0d]/g, "-").trim();
  const m = AMOUNT_RE.exec(t);
  if (!m?.groups) return null;
  const g = m.groups;
  if (Boolean(g.open) !== Boolean(g.close)) return null;
  const num = g.num ?? "";
  const [whole = "0", frac = ""] = num.replace(/,/g, "").split(".");
  // Thousandths (some exports print three decimals) round half up to the kobo.
  const kobo = BigInt(whole || "0") * 100n + (BigInt((frac + "000").slice(0, 3)) + 5n) / 10n;
  const negative = Boolean(g.open) || g.sign1 === "-" || g.sign2 === "-" || g.sign3 === "-";
  const rawMarker = (g.post ?? g.postp ?? g.pre ?? "").toUpperCase();
  const marker = rawMarker.startsWith("D") ? "DR" : rawMarker.startsWith("C") ? "CR" : null;
  const moneyShaped = /[.,]/.test(num) || /[₦$£€#]|NGN|USD|GBP|EUR/i.test(t) || marker !== null;
  return {
    kobo: negative ? -kobo : kobo,
    marker,
    signed: negative || g.sign1 === "+" || g.sign2 === "+",
    moneyShaped,
  };
}

/**
 * Kobo of a plain amount ("1,234.56": digits, grouping commas, two decimals; any sign is the
 * caller's): its digits read as a number, exact while it stays a safe integer (any amount below 90 trillion naira), else through
 * a string as before.
 */
function plainKobo(text: string): Kobo {
  let v = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) v = v * 10 + (c - 0x30);
  }
  return v <= Number.MAX_SAFE_INTEGER ? BigInt(v) : BigInt(text.replace(/[^\d]/g, ""));
}

/**
 * The kobo of an amount's text, as parseAmount(text)?.kobo: the insights read every row's three
 * amounts, which the response writes as formatKobo does ("-1234.56"), so that shape is read by
 * its digits without the regular expressions or a ParsedAmount; anything else goes to parseAmount.
 */
export function amountKobo(text: string): Kobo | undefined {
  const n = text.length;
  const start = text.charCodeAt(0) === 0x2d ? 1 : 0;
  // Up to 15 digits the value is a safe integer, read exactly as a number.
  if (n - start >= 4 && n - start <= 16 && text.charCodeAt(n - 3) === 0x2e) {
    let v = 0;
    for (let i = start; i < n; i++) {
      if (i === n - 3) continue;
      const d = text.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) return parseAmount(text)?.kobo;
      v = v * 10 + d;
    }
    return BigInt(start === 1 ? -v : v);
  }
  return parseAmount(text)?.kobo;
}

/** Parses an amount that must be money-shaped (used to tell amounts from references and counts). */
export function parseMoney(text: string): ParsedAmount | null {
  const a = parseAmount(text);
  return a?.moneyShaped ? a : null;
}

/** `123456n` -> `"1234.56"`, `-1200n` -> `"-12.00"`. */
export function formatKobo(k: Kobo): string {
  // Every row has a zero side: the commonest answer, without the arithmetic.
  if (k === 0n) return "0.00";
  // Safe integers (every real amount) format as numbers: bigint division is the slower path. A
  // bigint beyond them converts to a number beyond them too (rounding is monotonic).
  const n = Number(k);
  if (Number.isSafeInteger(n)) {
    const abs = n < 0 ? -n : n;
    const frac = abs % 100;
    return (n < 0 ? "-" : "") + (abs - frac) / 100 + (frac < 10 ? ".0" : ".") + frac;
  }
  const neg = k < 0n;
  const abs = neg ? -k : k;
  const whole = abs / 100n;
  const frac = (abs % 100n).toString().padStart(2, "0");
  return `${neg ? "-" : ""}${whole}.${frac}`;
}

/** Kobo from a JavaScript number of naira as exceljs gives typed cells (rounded half away from zero). */
export function koboFromNumber(n: number): Kobo {
  const s = Math.abs(n).toFixed(2);
  const [w = "0", f = "00"] = s.split(".");
  const k = BigInt(w) * 100n + BigInt(f);
  return n < 0 ? -k : k;
}

export const absKobo = (k: Kobo): Kobo => (k < 0n ? -k : k);

/**
 * `"1234567.50"` -> `"1,234,567.50"`, for people to read (the page, the CLI summary); on the string,
 * never through a float, in one pass; text that is not a plain amount comes back unchanged.
 */
export function groupThousands(amount: string): string {
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(amount);
  if (!m) return amount;
  const whole = m[2] ?? "";
  const groups: string[] = [];
  for (let end = whole.length; end > 0; end -= 3) groups.unshift(whole.slice(Math.max(0, end - 3), end));
  return `${m[1]}${groups.join(",")}${m[3] ?? ""}`;
}
