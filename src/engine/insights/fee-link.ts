import { absKobo, type Kobo } from "../money.ts";
import { type CompiledFees, foundAny } from "./compile.ts";
import type { InsightRow } from "./types.ts";

/**
 * Which row a charge or levy row was taken for (`fee_of`). Evidence, strongest first: the fee
 * names the row (same reference or reference stem, the row's reference or whole narration
 * inside the fee's), the two share a printed time to the second, and the amount rule of the
 * fee's kind holds (VAT is 7.5% of a charge; EMTL and stamp duty are N50 on a receipt of N10,000
 * or more; a transfer fee is its band's). The amount rule alone links only an adjacent row.
 * Nearest wins a tie.
 */

type FeeKind = "vat" | "emtl" | "stamp_duty" | "charge" | "levy";

const isFee = (r: InsightRow): boolean => r.enrichment.category === "bank_charge" || r.enrichment.category === "tax_levy";

function kindOf(r: InsightRow, f: CompiledFees): FeeKind {
  // A bank's fee with its VAT on the same row ("COMMISSION + VAT") is a charge, not a VAT row.
  if (r.enrichment.category === "bank_charge") return "charge";
  if (foundAny(r.found, f.vat)) return "vat";
  if (foundAny(r.found, f.emtl)) return "emtl";
  if (foundAny(r.found, f.stampDuty)) return "stamp_duty";
  return "levy";
}

const bandFee = (amount: Kobo, f: CompiledFees): Kobo | undefined => f.bands.find((b) => b.upTo === null || amount <= b.upTo)?.fee;

function amountRule(kind: FeeKind, fee: InsightRow, p: InsightRow, f: CompiledFees): boolean {
  switch (kind) {
    case "vat":
      // Half a kobo rounds either way between banks: within one kobo of 7.5% of the charge.
      return p.enrichment.category === "bank_charge" && p.debit > 0n && absKobo(fee.debit * 10000n - p.debit * f.vatRateBp) <= 10000n;
    case "emtl":
      return p.credit >= f.emtlThreshold && fee.debit === f.emtlAmount;
    case "stamp_duty":
      return p.credit >= f.emtlThreshold && fee.debit === f.stampDutyAmount;
    case "charge": {
      const band = p.debit > 0n && !isFee(p) ? bandFee(p.debit, f) : undefined;
      // The band's fee alone, or with its VAT on the same row (N25 + 7.5% = N26.88).
      return band !== undefined && (band === fee.debit || absKobo(fee.debit * 10000n - band * (10000n + f.vatRateBp)) <= 10000n);
    }
    default:
      return false;
  }
}

/** What separates the parts of a reference ("TRF|2MPT…|1976…_DEBIT_0"). */
const SEPARATORS = "-_./:|";
/** A posting's number ends some references: "…_DEBIT_0" is a transfer, "…_DEBIT_1" the VAT on its fee. */
const POSTING_COUNTER = new RegExp(`[${SEPARATORS}]\\d{1,3}$`);
/** Below this a reference may be a short code many rows share, not one posting's id. */
const MIN_STEM = 12;

/**
 * The fee's reference is the row's, extended after a separator ("X_EMTL_DC_0" for "X"), or both
 * are one stem with another posting counter ("X_DEBIT_1" for "X_DEBIT_0").
 */
function sameStem(feeRef: string, ref: string): boolean {
  if (ref.length < MIN_STEM) return false;
  if (feeRef.length > ref.length && feeRef.startsWith(ref) && SEPARATORS.includes(feeRef[ref.length]!)) return true;
  // Only references alike but for their last few characters can differ by a counter (checked
  // first: every fee meets a dozen candidates, most with unrelated references).
  const head = Math.min(ref.length, feeRef.length) - 4;
  for (let i = 0; i < head; i++) if (ref.charCodeAt(i) !== feeRef.charCodeAt(i)) return false;
  const stem = ref.replace(POSTING_COUNTER, "");
  return stem.length >= MIN_STEM && stem !== ref && feeRef.replace(POSTING_COUNTER, "") === stem;
}

function textLink(fee: InsightRow, p: InsightRow): boolean {
  const ref = p.reference;
  const feeRef = fee.reference;
  if (ref !== "" && (ref === feeRef || sameStem(feeRef, ref) || (ref.length >= 6 && fee.transaction.narration.includes(ref)))) return true;
  // "COMM ALAT NIP TRANSFER TO ..." carries the whole narration of its transfer.
  return p.text.length >= 12 && fee.words.length > p.words.length && fee.text.includes(p.text);
}

const sameTime = (a: InsightRow, b: InsightRow): boolean => a.time !== "" && a.time === b.time && a.day === b.day;

function score(kind: FeeKind, fee: InsightRow, p: InsightRow, f: CompiledFees): number {
  if (p.section !== fee.section || p === fee) return 0;
  // A fee is taken for a movement; only VAT is taken on another fee.
  if (isFee(p) && !(kind === "vat" && p.enrichment.category === "bank_charge")) return 0;
  const text = textLink(fee, p);
  // VAT on a movement: its fee is folded into the movement's amount (Moniepoint settles the
  // transfer with its fee), which only a text link shows; any charge row that links wins.
  if (kind === "vat" && !isFee(p)) return text ? 0.55 : 0;
  const time = !text && sameTime(fee, p);
  // Without a text or time link the amount rule counts only for an adjacent row: not worked out for the rest of the window.
  if (!text && !time && Math.abs(p.index - fee.index) > 1) return 0;
  const amount = amountRule(kind, fee, p, f);
  if (text) return amount ? 0.95 : 0.8;
  if (time) return amount ? 0.85 : kind === "levy" ? 0 : 0.6;
  return amount ? 0.6 : 0;
}

/** Sets `fee_of` on every charge and levy row whose principal can be found within the window. */
export function linkFees(rows: InsightRow[], f: CompiledFees): void {
  for (const fee of rows) {
    if (!isFee(fee) || fee.debit === 0n) continue;
    const kind = kindOf(fee, f);
    let best: { row: InsightRow; score: number; distance: number } | undefined;
    for (let j = Math.max(0, fee.index - f.windowRows); j <= Math.min(rows.length - 1, fee.index + f.windowRows); j++) {
      const p = rows[j];
      if (!p) continue;
      const s = score(kind, fee, p, f);
      const distance = Math.abs(j - fee.index) + (j > fee.index ? 0.5 : 0);
      if (s > 0 && (!best || s > best.score || (s === best.score && distance < best.distance))) best = { row: p, score: s, distance };
    }
    if (best) {
      fee.enrichment.fee_of = best.row.index;
      fee.enrichment.confidence.fee_of = best.score;
    }
  }
}
