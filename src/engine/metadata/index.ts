/**
 * Statement facts printed outside the transaction table: holder, account number, period,
 * opening/closing balances, totals and counts, currency. `labels.ts` names the vocabulary,
 * `grid.ts` reads values beside or under their labels, `holder.ts`, `period.ts` and
 * `account-number.ts` settle each fact, `prose.ts` reads those stated in words, `clipped.ts`
 * repairs labels a printed sheet cut short.
 */
import type { RawDate } from "../dates.ts";
import type { Line } from "../layout/lines.ts";
import type { PrintedTotals } from "../reconcile.ts";
import { readAccountNumber } from "./account-number.ts";
import { ungluedLines } from "./clipped.ts";
import type { Kobo } from "../money.ts";
import { readLabelledValues } from "./grid.ts";
import type { Field } from "./labels.ts";
import { unlabelledHolder } from "./holder.ts";
import { periodFromSentence, periodFromTitle, periodOf } from "./period.ts";
import { proseAccountNumber, proseBalances, proseHolder, prosePeriod } from "./prose.ts";
import { countOf, currencyCode, signedMoney } from "./values.ts";

export { accountScrubber, isMasked, maskAccountNumber } from "./account-number.ts";
export { labelField } from "./labels.ts";

export interface HeaderFacts extends PrintedTotals {
  /** Digits as printed, with the bank's mask characters where it hid some ("064****837"); null when none is printed. */
  accountNumber: string | null;
  /** The account number was read from a label, not stated in words (only a labelled one opens another account's section). */
  accountNumberLabelled: boolean;
  holder: string | null;
  /** The holder was read from a label ("Account Name: …"), not guessed from a salutation or letter head. */
  holderLabelled: boolean;
  period: [RawDate, RawDate] | null;
  currency: string | null;
  /** Every labelled opening / closing balance the lines print, in print order (a document-wide summary, then the section's own). */
  openingCandidates: Kobo[];
  closingCandidates: Kobo[];
  /** Facts the statement does not print, in words ("account holder"), for `checks.notes`. */
  missing: MissingFact[];
}

export type MissingFact = "account holder" | "account number" | "statement period";

/**
 * `tableTop`: page and baseline of the first transaction row; a name without a label is only
 * looked for above it.
 */
export function extractHeaderFacts(lines: Line[], tableTop?: { page: number; y: number }): HeaderFacts {
  const every = new Map<Field, string[]>();
  const raw = readLabelledValues(ungluedLines(lines), every);
  // Facts stated in words are read only above the table (a narration names accounts and dates too).
  const above = tableTop ? lines.filter((l) => l.page < tableTop.page || (l.page === tableTop.page && l.y < tableTop.y)) : lines;
  if (!raw.has("period")) {
    const titled = periodFromTitle(lines) ?? periodFromSentence(lines) ?? prosePeriod(above);
    if (titled) raw.set("period", titled);
  }
  const stated = proseBalances(lines);
  for (const field of ["opening", "closing"] as const) {
    const value = stated[field];
    if (value === undefined || raw.has(field)) continue;
    raw.set(field, value);
    every.set(field, [value]);
  }
  // A labelled name wins; then the letter's salutation ("Dear ADA OKAFOR"); then a title or greeting
  // that names the holder; then the name atop the address.
  const holderLabelled = raw.has("holder");
  let holder = raw.get("holder") ?? raw.get("salutation")?.replace(/,\s*$/, "") ?? null;
  if (!holder) holder = proseHolder(above) ?? unlabelledHolder(above);
  const labelledNumber = readAccountNumber(raw.get("accountNumber") ?? "");
  const accountNumber = labelledNumber ?? proseAccountNumber(above);
  const period = periodOf(raw);
  const missing: MissingFact[] = [];
  if (!holder) missing.push("account holder");
  if (!accountNumber) missing.push("account number");
  if (!period) missing.push("statement period");
  return {
    accountNumber,
    accountNumberLabelled: labelledNumber !== null,
    holder,
    holderLabelled,
    period,
    opening: signedMoney(raw.get("opening")),
    closing: signedMoney(raw.get("closing")),
    openingCandidates: figures(every.get("opening")),
    closingCandidates: figures(every.get("closing")),
    totalDebit: signedMoney(raw.get("totalDebit")),
    totalCredit: signedMoney(raw.get("totalCredit")),
    debitCount: countOf(raw.get("debitCount")),
    creditCount: countOf(raw.get("creditCount")),
    currency: currencyCode(raw.get("currency")),
    missing,
  };
}

/**
 * The account number a label gives (never one stated in words): what tells a second account's
 * section apart, where a narration or a notice between two tables ("… to account 0123456789")
 * must not open one.
 */
export function labelledAccountNumber(lines: Line[]): string | null {
  return readAccountNumber(readLabelledValues(ungluedLines(lines)).get("accountNumber") ?? "");
}

/**
 * Plain sentences for `checks.notes` about facts the statement does not print: the field is left
 * empty (the period falls back to the first and last rows' dates).
 */
export function missingFactNotes(missing: readonly MissingFact[]): string[] {
  return missing.map((m) =>
    m === "statement period"
      ? "No statement period is printed; the first and last transaction dates are given instead."
      : `No ${m === "account holder" ? "account holder name" : "account number"} is printed on the statement; the field is left empty.`,
  );
}

/** Distinct labelled money values in print order. */
function figures(values: string[] | undefined): Kobo[] {
  const out: Kobo[] = [];
  for (const v of values ?? []) {
    const k = signedMoney(v);
    if (k !== null && !out.includes(k)) out.push(k);
  }
  return out;
}
