/**
 * The usage shapes that cross the wire, in a module with no imports, so the typed client can carry
 * them without pulling in the server (the client's .d.ts is bundled from here).
 */

/** SPEC 2.6 caller usage. */
export interface CallerUsage {
  api_key_id: string;
  tier: string;
  period_parses: number;
  monthly_cap: number;
  overage_parses: number;
  projected_overage_naira: string;
}
