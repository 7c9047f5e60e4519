import { type CompiledFees, foundAny } from "./compile.ts";
import { figure, type Figure } from "./figure.ts";
import type { InsightRow } from "./types.ts";

export interface Charges {
  /** Every charge and levy. */
  total: Figure;
  bank_charges: Figure;
  levies: Figure;
  vat: Figure;
  emtl: Figure;
  stamp_duty: Figure;
  /** Levies that are none of the three (withholding tax, the cybersecurity levy...). */
  other_levies: Figure;
}

/** What the bank took (charges) and what it collected for government (levies), debits only. */
export function charges(rows: readonly InsightRow[], f: CompiledFees): Charges {
  // One pass, in row order (so `total` needs no sort): a levy is VAT, else EMTL, else stamp duty, else other.
  const total: InsightRow[] = [];
  const charge: InsightRow[] = [];
  const levies: InsightRow[] = [];
  const vat: InsightRow[] = [];
  const emtl: InsightRow[] = [];
  const stamp: InsightRow[] = [];
  const other: InsightRow[] = [];
  for (const r of rows) {
    if (r.debit <= 0n) continue;
    const category = r.enrichment.category;
    if (category === "bank_charge") {
      total.push(r);
      charge.push(r);
    } else if (category === "tax_levy") {
      total.push(r);
      levies.push(r);
      (foundAny(r.found, f.vat) ? vat : foundAny(r.found, f.emtl) ? emtl : foundAny(r.found, f.stampDuty) ? stamp : other).push(r);
    }
  }
  return {
    total: figure(total, "debit"),
    bank_charges: figure(charge, "debit"),
    levies: figure(levies, "debit"),
    vat: figure(vat, "debit"),
    emtl: figure(emtl, "debit"),
    stamp_duty: figure(stamp, "debit"),
    other_levies: figure(other, "debit"),
  };
}
