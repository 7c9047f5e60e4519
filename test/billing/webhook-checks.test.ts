import { describe, expect, test } from "bun:test";
import { paidThrough } from "../../src/billing/periods.ts";
import { getSubscription, isActive } from "../../src/db/subscriptions.ts";
import { createLogger } from "../../src/log.ts";
import { sharedDb, unique } from "../helpers/db.ts";
import { chargeSuccess, startFakePaystack, subscriptionEvent } from "../helpers/paystack.ts";
import { startTestServer } from "../helpers/server.ts";
import { startCheckout } from "./fixtures.ts";

/**
 * Issue 15 item 1: a correctly signed webhook is still only Paystack telling us that someone paid
 * something. These events are all signed with the right secret (anyone can pay the merchant any
 * amount with any metadata); each must be acknowledged with 200, logged, and change nothing.
 */
const db = await sharedDb();
const paystack = startFakePaystack();
const lines: string[] = [];
const server = await startTestServer(
  {
    LOG_LEVEL: "info",
    PAYSTACK_BASE_URL: paystack.baseUrl,
    PAYSTACK_SECRET_KEY: paystack.secretKey,
    PAYSTACK_PLAN_STARTER: "PLN_starter_chk",
    PAYSTACK_PLAN_GROWTH: "PLN_growth_chk",
    PAYSTACK_PLAN_SCALE: "PLN_scale_chk",
  },
  { log: createLogger("info", (line) => lines.push(line)) },
);
const webhookUrl = `${server.url}/v1/billing/paystack/webhook`;
// Default plan prices (config defaults), in kobo.
const PRICE = { starter: 950_000, growth: 3_500_000, scale: 15_000_000 } as const;

const checkout = (tier: keyof typeof PRICE) => startCheckout(server, tier, "chk");

async function deliver(event: Parameters<typeof paystack.deliver>[1]) {
  const res = await paystack.deliver(webhookUrl, event);
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** The warning the server logged for the event with this reference (or subscription code). */
const rejectionFor = (id: string) =>
  lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === "paystack webhook rejected" && JSON.stringify(l).includes(id));

describe("webhook events that fail the checks: 200, logged, nothing changes", () => {
  test("the reported bypass: no plan, a reference we never issued, metadata naming an owner and the scale tier, ₦100", async () => {
    const owner = unique();
    const event = chargeSuccess({
      email: `${owner}@example.com`,
      customerCode: `CUS_${owner}`,
      planCode: null,
      reference: `forged-${owner}`,
      amountKobo: 10_000,
      metadata: { owner, tier: "scale" },
    });
    expect(await deliver(event)).toEqual({ status: 200, body: { status: "ignored" } });
    expect(await getSubscription(db, owner)).toBeUndefined();
    expect(rejectionFor(`forged-${owner}`)).toMatchObject({ level: "warn", event: "charge.success" });
  });

  test("a configured plan code with metadata naming an owner, from a customer we hold no subscription for", async () => {
    const owner = unique();
    const event = chargeSuccess({
      email: `${owner}@example.com`,
      customerCode: `CUS_${owner}`,
      planCode: "PLN_scale_chk",
      reference: `plan-${owner}`,
      amountKobo: PRICE.scale,
      metadata: { owner, tier: "scale" },
    });
    expect((await deliver(event)).body.status).toBe("ignored");
    expect(await getSubscription(db, owner)).toBeUndefined();
    expect(rejectionFor(`plan-${owner}`)).toBeDefined();
  });

  test("our checkout's reference with too small an amount, another currency, another plan, or a failed status; then the right payment activates", async () => {
    const c = await checkout("scale");
    const base = { ...c, amountKobo: PRICE.scale };
    const wrong = [
      chargeSuccess({ ...base, amountKobo: 10_000 }),
      chargeSuccess({ ...base, amountKobo: PRICE.scale + 1 }),
      chargeSuccess({ ...base, currency: "USD" }),
      chargeSuccess({ ...base, planCode: "PLN_starter_chk" }),
      chargeSuccess({ ...base, status: "failed" }),
    ];
    for (const event of wrong) {
      expect(await deliver(event)).toEqual({ status: 200, body: { status: "ignored" } });
      expect(await getSubscription(db, c.owner)).toBeUndefined();
    }
    expect(rejectionFor(c.reference)).toMatchObject({ level: "warn" });
    // A rejected event is not claimed, so the genuine payment for the same reference still counts.
    const paidAt = "2026-01-31T10:00:00.000Z";
    expect((await deliver(chargeSuccess({ ...base, paidAt }))).body.status).toBe("processed");
    const sub = await getSubscription(db, c.owner);
    expect(sub).toMatchObject({ tier: "scale", status: "active" });
    // Every activation has an end: one month from the payment (Feb 28) plus three days of grace.
    expect(sub!.activeUntil!.toISOString()).toBe("2026-03-03T10:00:00.000Z");
    expect(isActive(sub, new Date("2026-03-03T09:59:59.000Z"))).toBe(true);
    expect(isActive(sub, new Date("2026-03-03T10:00:01.000Z"))).toBe(false);
  });

  test("metadata naming another owner or tier than the checkout's is not read: the checkout decides", async () => {
    const c = await checkout("starter");
    const other = unique();
    const event = chargeSuccess({ ...c, amountKobo: PRICE.starter, metadata: { owner: other, tier: "scale" } });
    expect((await deliver(event)).body.status).toBe("processed");
    expect(await getSubscription(db, other)).toBeUndefined();
    expect(await getSubscription(db, c.owner)).toMatchObject({ tier: "starter" });
  });

  test("a renewal for a held subscription at a wrong amount changes nothing; at the plan's price it extends the period", async () => {
    const c = await checkout("growth");
    const firstPaid = new Date(Date.now() - 20 * 86_400_000).toISOString();
    expect((await deliver(chargeSuccess({ ...c, amountKobo: PRICE.growth, paidAt: firstPaid }))).body.status).toBe("processed");
    const before = (await getSubscription(db, c.owner))!.activeUntil!;
    expect(before).toEqual(paidThrough(new Date(firstPaid)));

    const cheap = chargeSuccess({ ...c, reference: `renew-cheap-${c.owner}`, amountKobo: 100 });
    expect((await deliver(cheap)).body.status).toBe("ignored");
    expect((await getSubscription(db, c.owner))!.activeUntil).toEqual(before);
    const renewal = chargeSuccess({ ...c, reference: `renew-${c.owner}`, amountKobo: PRICE.growth });
    expect((await deliver(renewal)).body.status).toBe("processed");
    const after = (await getSubscription(db, c.owner))!.activeUntil!;
    expect(after).toEqual(paidThrough(new Date(renewal.data.paid_at as string)));
    expect(after.getTime()).toBeGreaterThan(before.getTime());
  });

  test("subscription.create for a configured plan at another amount changes nothing; at the plan's amount it activates until the next payment date", async () => {
    const c = await checkout("scale");
    const next = new Date(Date.now() + 30 * 86_400_000);
    const cheap = subscriptionEvent("subscription.create", { ...c, amountKobo: 10_000, nextPaymentDate: next.toISOString() });
    expect((await deliver(cheap)).body.status).toBe("ignored");
    expect(await getSubscription(db, c.owner)).toBeUndefined();
    expect(rejectionFor(c.subscriptionCode)).toBeDefined();

    const real = subscriptionEvent("subscription.create", { ...c, subscriptionCode: `${c.subscriptionCode}_2`, amountKobo: PRICE.scale, nextPaymentDate: next.toISOString() });
    expect((await deliver(real)).body.status).toBe("processed");
    const sub = await getSubscription(db, c.owner);
    expect(sub).toMatchObject({ tier: "scale", status: "active" });
    expect(sub!.activeUntil!.getTime()).toBe(next.getTime() + 3 * 86_400_000);
  });
});
