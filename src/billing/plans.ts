import type { Config } from "../config.ts";

/** Paid plans a live key's owner subscribes to. Amounts are integer kobo. */
export const PLAN_TIERS = ["starter", "growth", "scale"] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export interface Plan {
  tier: PlanTier;
  /** Successful parses included per billing period. */
  monthlyCap: number;
  priceKobo: number;
  overageKoboPerParse: number;
  /** Paystack plan code (PLN_…); checkout for this tier is off without it. */
  paystackPlanCode?: string;
}

export type PlanTable = Record<PlanTier, Plan>;

export const isPlanTier = (v: string): v is PlanTier => (PLAN_TIERS as readonly string[]).includes(v);

/** The plan table as configured (defaults: starter 1,000/₦9,500/₦15, growth 10,000/₦35,000/₦12, scale 100,000/₦150,000/₦8). */
export function plansFromConfig(config: Config): PlanTable {
  return {
    starter: {
      tier: "starter",
      monthlyCap: config.PLAN_STARTER_MONTHLY_CAP,
      priceKobo: config.PLAN_STARTER_PRICE_NAIRA,
      overageKoboPerParse: config.PLAN_STARTER_OVERAGE_NAIRA,
      paystackPlanCode: config.PAYSTACK_PLAN_STARTER,
    },
    growth: {
      tier: "growth",
      monthlyCap: config.PLAN_GROWTH_MONTHLY_CAP,
      priceKobo: config.PLAN_GROWTH_PRICE_NAIRA,
      overageKoboPerParse: config.PLAN_GROWTH_OVERAGE_NAIRA,
      paystackPlanCode: config.PAYSTACK_PLAN_GROWTH,
    },
    scale: {
      tier: "scale",
      monthlyCap: config.PLAN_SCALE_MONTHLY_CAP,
      priceKobo: config.PLAN_SCALE_PRICE_NAIRA,
      overageKoboPerParse: config.PLAN_SCALE_OVERAGE_NAIRA,
      paystackPlanCode: config.PAYSTACK_PLAN_SCALE,
    },
  };
}

/** The tier whose Paystack plan code this is, if any. */
export function planByCode(plans: PlanTable, code: string | undefined): Plan | undefined {
  if (!code) return undefined;
  return Object.values(plans).find((p) => p.paystackPlanCode === code);
}

/** Parses past the cap; they still succeed and are billed at the plan's overage rate. */
export const overageParses = (periodParses: number, monthlyCap: number): number => Math.max(0, periodParses - monthlyCap);

/** Integer kobo as a decimal naira string ("150.00"), the way SPEC amounts are written. */
export function koboToNaira(kobo: number): string {
  if (!Number.isSafeInteger(kobo) || kobo < 0) throw new RangeError(`kobo must be a non-negative safe integer, got ${kobo}`);
  return `${Math.floor(kobo / 100)}.${String(kobo % 100).padStart(2, "0")}`;
}
