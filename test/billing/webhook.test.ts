import { describe, expect, test } from "bun:test";
import { paidThrough } from "../../src/billing/periods.ts";
import { getSubscription } from "../../src/db/subscriptions.ts";
import { sharedDb, unique } from "../helpers/db.ts";
import { chargeSuccess, invoicePaymentFailed, startFakePaystack, subscriptionEvent } from "../helpers/paystack.ts";
import { startTestServer } from "../helpers/server.ts";
import { startCheckout } from "./fixtures.ts";

const db = await sharedDb();
const paystack = startFakePaystack();
const server = await startTestServer({
  PAYSTACK_BASE_URL: paystack.baseUrl,
  PAYSTACK_SECRET_KEY: paystack.secretKey,
  PAYSTACK_PLAN_STARTER: "PLN_starter_wh",
  PAYSTACK_PLAN_GROWTH: "PLN_growth_wh",
  PAYSTACK_PLAN_SCALE: "PLN_scale_wh",
});
const webhookUrl = `${server.url}/v1/billing/paystack/webhook`;

const checkout = (tier: "starter" | "growth" | "scale" = "starter") => startCheckout(server, tier, "wh");

const deliver = async (...args: Parameters<typeof paystack.deliver>) => {
  const res = await paystack.deliver(...args);
  return { status: res.status, body: (await res.json()) as Record<string, string> };
};

describe("POST /v1/billing/paystack/webhook", () => {
  test("charge.success for our checkout activates the owner's plan; the same event again changes nothing", async () => {
    const c = await checkout("growth");
    expect(await getSubscription(db, c.owner)).toBeUndefined();
    const event = chargeSuccess({ ...c, amountKobo: 3_500_000, metadata: { owner: c.owner, tier: "growth" } });
    expect(await deliver(webhookUrl, event)).toEqual({ status: 200, body: { status: "processed" } });
    const sub = await getSubscription(db, c.owner);
    expect(sub).toMatchObject({ tier: "growth", status: "active", customerCode: c.customerCode });
    // Paid for one month from paid_at, plus the grace days.
    expect(sub!.activeUntil).toEqual(paidThrough(new Date(event.data.paid_at as string)));
    expect(await deliver(webhookUrl, event)).toEqual({ status: 200, body: { status: "duplicate" } });
  });

  test("bad, missing or wrong-secret signatures: 401 and nothing changes", async () => {
    const c = await checkout();
    const event = chargeSuccess({ ...c, amountKobo: 950_000 });
    for (const options of [{ signature: null }, { signature: "00".repeat(64) }, { signature: "zz" }, { secretKey: "sk_test_someone_else" }]) {
      const res = await deliver(webhookUrl, event, options);
      expect(res.status).toBe(401);
      expect(res.body.error_class).toBe("auth_error");
    }
    expect(await getSubscription(db, c.owner)).toBeUndefined();
    // A signature over other bytes than those sent: the body was altered in transit.
    const raw = JSON.stringify(event);
    const tampered = await fetch(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-paystack-signature": new Bun.CryptoHasher("sha512", paystack.secretKey).update(raw).digest("hex") },
      body: raw.replace(c.owner, unique()),
    });
    expect(tampered.status).toBe(401);
    expect(await getSubscription(db, c.owner)).toBeUndefined();
  });

  test("events of the other mode (live events on a test secret) are ignored", async () => {
    const c = await checkout();
    const res = await deliver(webhookUrl, chargeSuccess({ ...c, domain: "live", amountKobo: 950_000 }));
    expect(res).toEqual({ status: 200, body: { status: "ignored" } });
    expect(await getSubscription(db, c.owner)).toBeUndefined();
  });

  test("subscription.create matches the checkout by email and plan; not_renew keeps it active until the paid period ends; disable ends it now", async () => {
    const c = await checkout("scale");
    expect((await deliver(webhookUrl, subscriptionEvent("subscription.create", { ...c, amountKobo: 15_000_000, nextPaymentDate: "2099-01-01T00:00:00.000Z" }))).body.status).toBe("processed");
    expect(await getSubscription(db, c.owner)).toMatchObject({ tier: "scale", status: "active", subscriptionCode: c.subscriptionCode });

    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    expect((await deliver(webhookUrl, subscriptionEvent("subscription.not_renew", { ...c, nextPaymentDate: until }))).body.status).toBe("processed");
    const nonRenewing = await getSubscription(db, c.owner);
    expect(nonRenewing).toMatchObject({ status: "non_renewing" });
    expect(nonRenewing!.activeUntil!.toISOString()).toBe(until);

    const disable = subscriptionEvent("subscription.disable", c);
    expect((await deliver(webhookUrl, disable)).body.status).toBe("processed");
    expect(await getSubscription(db, c.owner)).toMatchObject({ status: "ended", activeUntil: null });
    expect((await deliver(webhookUrl, disable)).body.status).toBe("duplicate");
  });

  test("invoice.payment_failed suspends the plan; the renewal charge.success activates it again", async () => {
    const c = await checkout();
    await deliver(webhookUrl, chargeSuccess({ ...c, amountKobo: 950_000 }));
    await deliver(webhookUrl, subscriptionEvent("subscription.create", c));
    const failed = invoicePaymentFailed({ ...c, invoiceCode: `INV_${c.owner}` });
    expect((await deliver(webhookUrl, failed)).body.status).toBe("processed");
    expect((await getSubscription(db, c.owner))?.status).toBe("past_due");
    // Paystack retries the card; the renewal charge has its own reference and names the customer and plan.
    expect((await deliver(webhookUrl, chargeSuccess({ ...c, reference: `renewal-${c.owner}`, amountKobo: 950_000 }))).body.status).toBe("processed");
    expect((await getSubscription(db, c.owner))?.status).toBe("active");
  });

  test("an event about another subscription of the customer does not end the current one", async () => {
    const c = await checkout();
    await deliver(webhookUrl, chargeSuccess({ ...c, amountKobo: 950_000 }));
    await deliver(webhookUrl, subscriptionEvent("subscription.create", c));
    const res = await deliver(webhookUrl, subscriptionEvent("subscription.disable", { ...c, subscriptionCode: "SUB_old_one" }));
    expect(res.body.status).toBe("ignored");
    expect((await getSubscription(db, c.owner))?.status).toBe("active");
  });

  test("unhandled event types and charges unrelated to a plan are acknowledged and ignored", async () => {
    const c = await checkout();
    expect((await deliver(webhookUrl, { event: "transfer.success", data: { id: 1, domain: "test" } })).body.status).toBe("ignored");
    const unrelated = chargeSuccess({ ...c, reference: `shop-${c.owner}`, customerCode: "CUS_stranger", planCode: "PLN_unknown", amountKobo: 100 });
    expect((await deliver(webhookUrl, unrelated)).body.status).toBe("ignored");
    expect(await getSubscription(db, c.owner)).toBeUndefined();
  });

  test("a body larger than any Paystack event is refused with 413 before it is verified", async () => {
    const huge = JSON.stringify({ event: "charge.success", data: { pad: "x".repeat(300 * 1024) } });
    const res = await fetch(webhookUrl, { method: "POST", headers: { "content-type": "application/json", "x-paystack-signature": "ab".repeat(64) }, body: huge });
    expect(res.status).toBe(413);
  });

  test("concurrent deliveries of one event apply it once", async () => {
    const c = await checkout();
    const event = chargeSuccess({ ...c, amountKobo: 950_000 });
    const results = await Promise.all(Array.from({ length: 8 }, () => deliver(webhookUrl, event)));
    expect(results.map((r) => r.body.status).sort()).toEqual(["duplicate", "duplicate", "duplicate", "duplicate", "duplicate", "duplicate", "duplicate", "processed"]);
  });
});
