/**
 * The usage shapes that cross the wire, importing only leaf modules, so the typed client can carry
 * them without pulling in the server (the client's .d.ts is bundled from here).
 */
import type { KeyTier } from "../keys/tiers.ts";

/** SPEC 2.6 caller usage, plus `parses_by_key_tier` (additive): what period_parses is made of. */
export interface CallerUsage {
  api_key_id: string;
  tier: string;
  period_parses: number;
  monthly_cap: number;
  overage_parses: number;
  projected_overage_naira: string;
  parses_by_key_tier: Record<KeyTier, number>;
}
