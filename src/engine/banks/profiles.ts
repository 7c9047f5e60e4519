import { COMMERCIAL_BANKS } from "./commercial.ts";
import { DIGITAL_BANKS } from "./digital.ts";
import { FORMER_BANKS } from "./heritage.ts";
import { MERCHANT_BANKS } from "./merchant.ts";
import { NON_INTEREST_BANKS } from "./non-interest.ts";
import type { BankProfile } from "./profile.ts";

/**
 * Every supported bank, by family (one file each). One complete marker group, a heading set
 * mostly present in order, or a sort-code prefix is enough to detect the bank (detect.ts).
 */
export const BANK_PROFILES: readonly BankProfile[] = [...COMMERCIAL_BANKS, ...NON_INTEREST_BANKS, ...MERCHANT_BANKS, ...FORMER_BANKS, ...DIGITAL_BANKS];

/** Ids are what clients send in the `bank` field: two profiles with one id would make that ambiguous. */
const seen = new Set<string>();
for (const p of BANK_PROFILES) {
  if (seen.has(p.id)) throw new Error(`Two bank profiles have the id ${p.id}`);
  seen.add(p.id);
}
