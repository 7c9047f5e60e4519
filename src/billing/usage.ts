import type { Config } from "../config.ts";
import type { Queryable } from "../db/client.ts";
import type { Caller, KeyTier } from "../db/keys.ts";
import { getSubscription, isActive, type Subscription } from "../db/subscriptions.ts";
import { countsByTier, dailySuccesses, type TierCounts } from "../db/usage.ts";
import { periodDaysSoFar, periodOf } from "./periods.ts";
import { koboToNaira, overageParses, type PlanTable } from "./plans.ts";
import type { CallerUsage } from "./usage-shapes.ts";

export type { CallerUsage };

/** SPEC 2.6 owner usage, plus `parses_by_key_tier` (additive) so an admin sees what the total is made of. */
export interface OwnerUsage {
  owner: string;
  tier: string;
  period_parses: number;
  success_rate: number;
  monthly_cap: number;
  overage_parses: number;
  projected_overage_naira: string;
  daily: { date: string; count: number }[];
  parses_by_key_tier: Record<KeyTier, number>;
}

/** Reported as `tier` for a live-key owner without an active subscription. */
export const NO_PLAN_TIER = "none";

export interface UsageContext {
  db: Queryable;
  config: Pick<Config, "TEST_MONTHLY_CAP" | "FIRST_PARTY_IP_MONTHLY_CAP">;
  plans: PlanTable;
}

interface Billing {
  tier: string;
  monthlyCap: number;
  overage: number;
  projectedKobo: number;
}

/** Plan arithmetic over the owner's live parses; without an active plan there is no cap and nothing billable. */
function liveBilling(plans: PlanTable, sub: Subscription | undefined, at: Date, liveParses: number): Billing {
  if (!isActive(sub, at)) return { tier: NO_PLAN_TIER, monthlyCap: 0, overage: 0, projectedKobo: 0 };
  const plan = plans[sub.tier];
  const overage = overageParses(liveParses, plan.monthlyCap);
  return { tier: plan.tier, monthlyCap: plan.monthlyCap, overage, projectedKobo: overage * plan.overageKoboPerParse };
}

const succeeded = (c: TierCounts | undefined) => c?.succeeded ?? 0;

const byKeyTier = (counts: Partial<Record<KeyTier, TierCounts>>): Record<KeyTier, number> => ({
  live: succeeded(counts.live),
  test: succeeded(counts.test),
  first_party: succeeded(counts.first_party),
});

/**
 * What GET /v1/usage reports (SPEC 4.2): every successful parse of the owner this period, across
 * all the owner's keys whatever the calling key's tier, with the split per key tier. `tier`,
 * `monthly_cap` and the overage are those of the meter the calling key draws on: live keys the
 * owner's plan (billed on live parses only), test keys the free monthly allowance, first_party
 * keys the per-end-user-IP cap.
 */
export async function callerUsage(ctx: UsageContext, caller: Caller, at = new Date()): Promise<CallerUsage> {
  const byTier = byKeyTier(await countsByTier(ctx.db, caller.owner, periodOf(at).key));
  let billing: Billing;
  if (caller.tier === "live") billing = liveBilling(ctx.plans, await getSubscription(ctx.db, caller.owner), at, byTier.live);
  else if (caller.tier === "test") billing = { tier: "test", monthlyCap: ctx.config.TEST_MONTHLY_CAP, overage: 0, projectedKobo: 0 };
  else billing = { tier: "first_party", monthlyCap: ctx.config.FIRST_PARTY_IP_MONTHLY_CAP, overage: 0, projectedKobo: 0 };
  return {
    api_key_id: caller.keyId,
    tier: billing.tier,
    period_parses: byTier.live + byTier.test + byTier.first_party,
    monthly_cap: billing.monthlyCap,
    overage_parses: billing.overage,
    projected_overage_naira: koboToNaira(billing.projectedKobo),
    parses_by_key_tier: byTier,
  };
}

/**
 * What GET /v1/admin/usage reports: every successful parse of the owner across all keys this
 * period; the plan, cap and overage come from the live keys' parses (test and first-party parses
 * are never billed). success_rate is successes over finished parses, 1 when none finished.
 */
export async function ownerUsage(ctx: UsageContext, owner: string, at = new Date()): Promise<OwnerUsage> {
  const period = periodOf(at).key;
  const [counts, daily, sub] = [await countsByTier(ctx.db, owner, period), await dailySuccesses(ctx.db, owner, period), await getSubscription(ctx.db, owner)];
  const byTier = byKeyTier(counts);
  const total = byTier.live + byTier.test + byTier.first_party;
  const failed = Object.values(counts).reduce((n, c) => n + c.failed, 0);
  const billing = liveBilling(ctx.plans, sub, at, byTier.live);
  return {
    owner,
    tier: billing.tier,
    period_parses: total,
    success_rate: total + failed === 0 ? 1 : total / (total + failed),
    monthly_cap: billing.monthlyCap,
    overage_parses: billing.overage,
    projected_overage_naira: koboToNaira(billing.projectedKobo),
    daily: periodDaysSoFar(at).map((date) => ({ date, count: daily.get(date) ?? 0 })),
    parses_by_key_tier: byTier,
  };
}
