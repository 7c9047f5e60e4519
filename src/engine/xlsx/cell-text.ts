import { MAX_TEXT_CHARS } from "../text-cap.ts";

/**
 * Canonical display strings for spreadsheet cell values, so later stages see one spelling per kind
 * of value: numbers as plain decimals without float noise, dates as `YYYY-MM-DDTHH:mm:ss`.
 */

/** Excel keeps 15 significant digits; anything past that is binary float noise. */
const SIGNIFICANT_DIGITS = 15;

/** `1234.5` -> "1234.5", `0.30000000000000004` -> "0.3", `1e21` -> "1000000000000000000000". */
export function numberText(n: number): string {
  if (!Number.isFinite(n)) return "";
  if (n === 0) return "0";
  const [mantissa = "0", expPart] = n.toPrecision(SIGNIFICANT_DIGITS).split("e");
  const negative = mantissa.startsWith("-");
  const [intPart = "0", fracPart = ""] = mantissa.replace("-", "").split(".");
  let digits = intPart + fracPart;
  // Position of the decimal point within `digits`.
  let point = intPart.length + Number(expPart ?? 0);
  if (point <= 0) {
    digits = "0".repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) {
    digits = digits + "0".repeat(point - digits.length);
  }
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, "");
  const frac = digits.slice(point).replace(/0+$/, "");
  const text = frac === "" ? whole : `${whole}.${frac}`;
  return negative && text !== "0" ? `-${text}` : text;
}

/**
 * A number as its cell's format shows its decimals, when the format fixes them (`#,##0.00`,
 * `"₦"#,##0.00;(#,##0.00)`): 25000 -> "25000.00", the figure a reader sees (and a money column
 * holds), where numberText's "25000" reads as a bare integer. Grouping and the format's signs and
 * symbols are left out, as numberText leaves them; other formats (General, percentages, dates,
 * scientific) give numberText.
 */
export function formattedNumberText(n: number, numFmt: string | undefined): string {
  const decimals = fixedDecimals(numFmt);
  if (decimals === undefined || !Number.isFinite(n) || Math.abs(n) >= 1e15) return numberText(n);
  const text = n.toFixed(decimals);
  return /^-0(?:\.0+)?$/.test(text) ? text.slice(1) : text;
}

/** Decimals the format's first (positive) section fixes, or undefined. */
function fixedDecimals(numFmt: string | undefined): number | undefined {
  if (!numFmt) return undefined;
  // Quoted text and bracketed parts (currency, locale, colour) are no digits of the figure.
  const first = (numFmt.split(";")[0] ?? "").replace(/"[^"]*"|\[[^\]]*\]|\\./g, "");
  if (/[%EeYyMmDdHhSs@]/.test(first)) return undefined;
  const m = /0\.(0+)(?![0#?])/.exec(first);
  return m ? m[1]!.length : undefined;
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * exceljs turns an Excel date serial (wall-clock time, no zone) into a Date whose UTC fields are that
 * wall clock; serial fractions carry float noise, so round to the second.
 */
export function dateText(d: Date): string {
  const t = new Date(Math.round(d.getTime() / 1000) * 1000);
  if (Number.isNaN(t.getTime())) return "";
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
}

/**
 * Any exceljs cell value (primitive, date, rich text, formula, hyperlink, error) as display text,
 * cut at `maxChars` (default MAX_TEXT_CHARS: no statement cell is longer). Redaction passes
 * Infinity: it must see, and write back, a cell's whole text. With the cell's number format, a
 * number (a formula's cached one too) shows the decimals it fixes (formattedNumberText).
 */
export function cellText(value: unknown, maxChars = MAX_TEXT_CHARS, numFmt?: string): string {
  const text = fullCellText(value, numFmt);
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}

function fullCellText(value: unknown, numFmt: string | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return formattedNumberText(value, numFmt);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return dateText(value);
  if (typeof value === "object") {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) {
      return v.richText.map((run) => (typeof run === "object" && run !== null && typeof (run as { text?: unknown }).text === "string" ? (run as { text: string }).text : "")).join("");
    }
    // Formulas (plain or shared) show their cached result; without one there is nothing to show.
    if ("formula" in v || "sharedFormula" in v) return fullCellText(v.result, numFmt);
    if (typeof v.text === "string" || typeof v.text === "object") return fullCellText(v.text, undefined);
    if (typeof v.error === "string") return "";
  }
  return "";
}
