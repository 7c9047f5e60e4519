/** Which printed values each fact accepts, and how a value becomes the fact. */
import { scanDate, scanPeriod } from "../dates.ts";
import { type Kobo, parseAmount } from "../money.ts";
import { readAccountNumber } from "./account-number.ts";
import { acceptableHolder } from "./holder.ts";
import type { Field } from "./labels.ts";

/** Currencies printed by name instead of code. */
const CURRENCY_NAMES: [RegExp, string][] = [
  [/^naira\b/i, "NGN"],
  [/^(?:us\s*)?dollars?\b/i, "USD"],
  [/^(?:pounds?(?:\s+sterling)?|sterling)\b/i, "GBP"],
  [/^euros?\b/i, "EUR"],
];

export function currencyCode(value: string | undefined): string | null {
  if (!value) return null;
  for (const [re, code] of CURRENCY_NAMES) if (re.test(value)) return code;
  return /^[A-Z]{3}\b/.test(value) ? value.slice(0, 3) : null;
}

/** Whether a value printed by a label can be that fact (a heading or the next label cannot). */
export function acceptable(field: Field, value: string): boolean {
  switch (field) {
    case "accountNumber":
      return readAccountNumber(value) !== null;
    case "holder":
    case "salutation":
      return acceptableHolder(value);
    case "opening":
    case "closing":
    case "totalDebit":
    case "totalCredit":
      return parseAmount(value) !== null || /^₦?\s*-{1,3}$/.test(value);
    case "debitCount":
    case "creditCount":
      return /^\d+$/.test(value);
    case "currency":
      return currencyCode(value) !== null;
    case "period":
      return scanPeriod(value) !== null;
    case "periodStart":
    case "periodEnd":
      return scanDate(value) !== null || scanPeriod(value) !== null;
    default:
      return true;
  }
}

/** A printed amount as signed kobo: a DR balance is overdrawn. */
export function signedMoney(value: string | undefined): Kobo | null {
  const a = value ? parseAmount(value) : null;
  if (!a) return null;
  return a.marker === "DR" && a.kobo > 0n ? -a.kobo : a.kobo;
}

export const countOf = (value: string | undefined) => (value && /^\d+$/.test(value) ? Number(value) : null);
