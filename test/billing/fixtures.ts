import { expect } from "bun:test";
import type { Config } from "../../src/config.ts";
import type { Db } from "../../src/db/client.ts";
import { type Caller, issueKey, issueTestKey, type KeyTier } from "../../src/db/keys.ts";
import { activateSubscription } from "../../src/db/subscriptions.ts";
import type { PlanTier } from "../../src/billing/plans.ts";
import { unique } from "../helpers/db.ts";
import type { TestServer } from "../helpers/server.ts";

/** Config for module-level tests: only what metering reads. */
export const meteringConfig = (over: Partial<Pick<Config, "TEST_MONTHLY_CAP" | "FIRST_PARTY_IP_MONTHLY_CAP" | "METERING_RESERVATION_TTL_S">> = {}) => ({
  TEST_MONTHLY_CAP: 25,
  FIRST_PARTY_IP_MONTHLY_CAP: 50,
  METERING_RESERVATION_TTL_S: 900,
  ...over,
});

/** Issues a real key through the keys module and returns it as the authenticated caller. */
export async function callerFor(db: Db, owner: string, tier: KeyTier): Promise<Caller> {
  const issued = tier === "test" ? await issueTestKey(db, owner) : await issueKey(db, { name: `${tier}-key`, owner, tier });
  return { keyId: issued.id, owner, tier, prefix: issued.prefix };
}

/** An active subscription paid through the next 30 days. */
export const subscribe = (db: Db, owner: string, tier: PlanTier = "starter") =>
  activateSubscription(db, { owner, tier, activeUntil: new Date(Date.now() + 30 * 86_400_000) });

export const headers = (h: Record<string, string> = {}) => ({ headers: new Headers(h) });

/**
 * Starts a checkout through the API, as an operator would, and returns what Paystack's events will
 * refer to. `planSuffix` is the suffix the test server's PAYSTACK_PLAN_* codes were given.
 */
export async function startCheckout(server: Pick<TestServer, "admin">, tier: PlanTier, planSuffix: string) {
  const owner = unique();
  const email = `${owner}@example.com`;
  const res = await server.admin("/v1/admin/billing/subscribe", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ owner, email, tier }),
  });
  expect(res.status).toBe(200);
  const { reference } = (await res.json()) as { reference: string };
  return { owner, email, reference, planCode: `PLN_${tier}_${planSuffix}`, customerCode: `CUS_${owner}`, subscriptionCode: `SUB_${owner}` };
}
