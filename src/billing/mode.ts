import type { Config } from "../config.ts";

/**
 * Whether this server bills: only when a payment provider is configured (today Paystack, by its
 * secret key). A self-hoster without one is the operator: their live keys are not gated on a
 * subscription nobody could start, and /v1/status and the start-up log say billing is off.
 */
export interface BillingMode {
  enabled: boolean;
  provider: "paystack" | null;
}

export function billingMode(config: Pick<Config, "PAYSTACK_SECRET_KEY">): BillingMode {
  return config.PAYSTACK_SECRET_KEY ? { enabled: true, provider: "paystack" } : { enabled: false, provider: null };
}
