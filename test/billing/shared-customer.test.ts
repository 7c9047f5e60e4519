import { describe, expect, test } from "bun:test";
import { getSubscription } from "../../src/db/subscriptions.ts";
import { sharedDb, unique } from "../helpers/db.ts";
import { chargeSuccess, invoicePaymentFailed, type PaystackEvent, startFakePaystack, subscriptionEvent } from "../helpers/paystack.ts";
import { startTestServer } from "../helpers/server.ts";

/**
 * Issue 29 items 11 and 12, through signed webhooks from a local Paystack stand-in:
 * - two owners who pay with the same e-mail share one Paystack customer; each subscription goes
 *   to the owner it belongs to (by its subscription code or checkout), never by the shared
 *   customer code, and one owner's failed invoice leaves the other alone;
 * - a renewal is credited through its invoice.update (which names the subscription), not through
 *   the charge (which names only the customer);
 * - a payment failure older than the latest successful charge (delivered late) is ignored.
 */
const db = await sharedDb();
const paystack = startFakePaystack();
const server = await startTestServer({
  PAYSTACK_BASE_URL: paystack.baseUrl,
  PAYSTACK_SECRET_KEY: paystack.secretKey,
  PAYSTACK_PLAN_STARTER: "PLN_starter_shared",
});
const webhookUrl = `${server.url}/v1/billing/paystack/webhook`;
const PLAN = "PLN_starter_shared";
const PRICE = 950_000;

async function checkout(owner: string, email: string): Promise<string> {
  const res = await server.admin("/v1/admin/billing/subscribe", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner, email, tier: "starter" }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { reference: string }).reference;
}
async function deliver(event: PaystackEvent): Promise<Record<string, string>> {
  const res = await paystack.deliver(webhookUrl, event);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, string>;
}
/** Paystack's invoice.update for a renewal invoice (paid when the card was charged). */
function invoicePaid(p: { email: string; customerCode: string; subscriptionCode: string; invoiceCode: string; paidAt: string; paid?: boolean; amountKobo?: number }): PaystackEvent {
  const amount = p.amountKobo ?? PRICE;
  return {
    event: "invoice.update",
    data: {
      domain: "test",
      invoice_code: p.invoiceCode,
      amount,
      period_start: p.paidAt,
      period_end: p.paidAt,
      status: p.paid === false ? "pending" : "success",
      paid: p.paid ?? true,
      paid_at: p.paid === false ? null : p.paidAt,
      description: null,
      authorization: { authorization_code: "AUTH_test", reusable: true },
      subscription: { status: "active", subscription_code: p.subscriptionCode, email_token: "d7gofp6yppn3qz7", amount, next_payment_date: null },
      customer: { email: p.email, customer_code: p.customerCode, phone: null, metadata: {}, risk_action: "default" },
      transaction: { reference: `T${p.invoiceCode}`, status: "success", amount, currency: "NGN" },
      created_at: p.paidAt,
    },
  };
}
const processed = async (event: PaystackEvent) => expect((await deliver(event)).status).toBe("processed");
const subscriptionOf = async (owner: string) => {
  const s = await getSubscription(db, owner);
  return { status: s?.status, code: s?.subscriptionCode ?? null };
};

describe("two owners, one Paystack customer (item 11)", () => {
  test("each subscription goes to its own owner; B's failed invoice leaves A active", async () => {
    const [a, b] = [unique("a"), unique("b")];
    const email = `${unique("shared")}@example.com`;
    const customerCode = `CUS_${unique("shared")}`;
    const who = { email, customerCode, planCode: PLAN };

    await processed(chargeSuccess({ ...who, reference: await checkout(a, email), amountKobo: PRICE }));
    await processed(subscriptionEvent("subscription.create", { ...who, subscriptionCode: `SUB_${a}` }));
    await processed(chargeSuccess({ ...who, reference: await checkout(b, email), amountKobo: PRICE }));
    // B's subscription names only the shared customer: it is B's (B checked out and has none yet).
    await processed(subscriptionEvent("subscription.create", { ...who, subscriptionCode: `SUB_${b}` }));
    expect(await subscriptionOf(a)).toEqual({ status: "active", code: `SUB_${a}` });
    expect(await subscriptionOf(b)).toEqual({ status: "active", code: `SUB_${b}` });

    await processed(invoicePaymentFailed({ ...who, subscriptionCode: `SUB_${b}`, invoiceCode: `INV_${b}` }));
    expect(await subscriptionOf(b)).toEqual({ status: "past_due", code: `SUB_${b}` });
    expect(await subscriptionOf(a)).toEqual({ status: "active", code: `SUB_${a}` });
    // A renewal charge naming only the shared customer cannot be told apart: it credits nobody.
    const renewal = await deliver(chargeSuccess({ ...who, reference: `renewal-${unique()}`, amountKobo: PRICE }));
    expect(renewal.status).toBe("ignored");
  });

  test("a renewal of a shared customer is credited through its invoice.update (the subscription code), to that owner only", async () => {
    const [a, b] = [unique("ra"), unique("rb")];
    const email = `${unique("renew")}@example.com`;
    const customerCode = `CUS_${unique("renew")}`;
    const who = { email, customerCode, planCode: PLAN };
    for (const owner of [a, b]) {
      await processed(chargeSuccess({ ...who, reference: await checkout(owner, email), amountKobo: PRICE, paidAt: new Date(Date.now() - 3_600_000).toISOString() }));
      await processed(subscriptionEvent("subscription.create", { ...who, subscriptionCode: `SUB_${owner}` }));
    }
    await processed(invoicePaymentFailed({ ...who, subscriptionCode: `SUB_${b}`, invoiceCode: `INV_${b}_f` }));
    // A's renewal: the charge names only the shared customer (credits nobody), the invoice names A's subscription.
    expect((await deliver(chargeSuccess({ ...who, reference: `renewal-${unique()}`, amountKobo: PRICE }))).status).toBe("ignored");
    const paidAt = new Date(Date.now() - 60_000).toISOString();
    await processed(invoicePaid({ ...who, subscriptionCode: `SUB_${a}`, invoiceCode: `INV_${a}_r`, paidAt }));
    expect((await getSubscription(db, a))?.lastPaidAt?.toISOString()).toBe(paidAt);
    expect(await subscriptionOf(a)).toEqual({ status: "active", code: `SUB_${a}` });
    expect(await subscriptionOf(b)).toEqual({ status: "past_due", code: `SUB_${b}` });
    // An unpaid invoice, or one of the wrong amount, credits nobody.
    expect((await deliver(invoicePaid({ ...who, subscriptionCode: `SUB_${b}`, invoiceCode: `INV_${b}_u`, paidAt, paid: false }))).status).toBe("ignored");
    expect((await deliver(invoicePaid({ ...who, subscriptionCode: `SUB_${b}`, invoiceCode: `INV_${b}_w`, paidAt, amountKobo: 100 }))).status).toBe("ignored");
    expect((await subscriptionOf(b)).status).toBe("past_due");
  });

  test("a subscription two owners could be waiting for (same e-mail and plan, neither has one) is given to neither", async () => {
    const [c, d] = [unique("c"), unique("d")];
    const email = `${unique("pair")}@example.com`;
    const customerCode = `CUS_${unique("pair")}`;
    const who = { email, customerCode, planCode: PLAN };
    await deliver(chargeSuccess({ ...who, reference: await checkout(c, email), amountKobo: PRICE }));
    await deliver(chargeSuccess({ ...who, reference: await checkout(d, email), amountKobo: PRICE }));
    const res = await deliver(subscriptionEvent("subscription.create", { ...who, subscriptionCode: `SUB_${unique()}` }));
    expect(res.status).toBe("ignored");
    expect((await subscriptionOf(c)).code).toBeNull();
    expect((await subscriptionOf(d)).code).toBeNull();
  });
});

describe("a late invoice.payment_failed (item 12)", () => {
  test("a failure older than the latest successful charge is ignored; a newer one still applies", async () => {
    const owner = unique("late");
    const email = `${owner}@example.com`;
    const who = { email, customerCode: `CUS_${owner}`, planCode: PLAN };
    const t = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    await deliver(chargeSuccess({ ...who, reference: await checkout(owner, email), amountKobo: PRICE, paidAt: t(60) }));
    await deliver(subscriptionEvent("subscription.create", { ...who, subscriptionCode: `SUB_${owner}` }));
    // The renewal's first attempt failed 10 minutes ago; the retry went through 5 minutes ago...
    await deliver(chargeSuccess({ ...who, reference: `renewal-${owner}`, amountKobo: PRICE, paidAt: t(5) }));
    const late = invoicePaymentFailed({ ...who, subscriptionCode: `SUB_${owner}`, invoiceCode: `INV_${owner}_1` });
    late.data.created_at = t(10);
    // ...and the failure arrives only now.
    const res = await deliver(late);
    expect(res.status).toBe("ignored");
    expect((await subscriptionOf(owner)).status).toBe("active");

    const fresh = invoicePaymentFailed({ ...who, subscriptionCode: `SUB_${owner}`, invoiceCode: `INV_${owner}_2` });
    fresh.data.created_at = t(1);
    await processed(fresh);
    expect((await subscriptionOf(owner)).status).toBe("past_due");
  });
});
