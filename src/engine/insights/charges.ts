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
  const debits = rows.filter((r) => r.debit > 0n);
  const charge = debits.filter((r) => r.enrichment.category === "bank_charge");
  const levies = debits.filter((r) => r.enrichment.category === "tax_levy");
  const has = (r: InsightRow, set: Set<string>) => foundAny(r.found, set);
  const vat = levies.filter((r) => has(r, f.vat));
  const emtl = levies.filter((r) => !has(r, f.vat) && has(r, f.emtl));
  const stamp = levies.filter((r) => !has(r, f.vat) && !has(r, f.emtl) && has(r, f.stampDuty));
  const named = new Set([...vat, ...emtl, ...stamp]);
  return {
    total: figure([...charge, ...levies].sort((a, b) => a.index - b.index), "debit"),
    bank_charges: figure(charge, "debit"),
    levies: figure(levies, "debit"),
    vat: figure(vat, "debit"),
    emtl: figure(emtl, "debit"),
    stamp_duty: figure(stamp, "debit"),
    other_levies: figure(levies.filter((r) => !named.has(r)), "debit"),
  };
}
