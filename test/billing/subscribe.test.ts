import { describe, expect, test } from "bun:test";
import { unique } from "../helpers/db.ts";
import { startFakePaystack } from "../helpers/paystack.ts";
import { startTestServer } from "../helpers/server.ts";

const paystack = startFakePaystack();
const server = await startTestServer({
  PAYSTACK_BASE_URL: paystack.baseUrl,
  PAYSTACK_SECRET_KEY: paystack.secretKey,
  PAYSTACK_PLAN_STARTER: "PLN_starter_test",
  PAYSTACK_PLAN_GROWTH: "PLN_growth_test",
  PAYSTACK_TIMEOUT_MS: "300",
});
// Billing configured but without the scale plan code; and a server with no secret at all.
const unconfigured = await startTestServer({ PAYSTACK_PLAN_STARTER: "PLN_starter_test", PAYSTACK_BASE_URL: paystack.baseUrl });

const subscribe = (body: unknown, target = server) =>
  target.admin("/v1/admin/billing/subscribe", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("POST /v1/admin/billing/subscribe", () => {
  test("calls Paystack's transaction/initialize with the plan, a unique reference and the owner, and returns checkout parameters", async () => {
    const owner = unique();
    const before = paystack.requests.length;
    const res = await subscribe({ owner, email: "Ada@Example.com", tier: "growth" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(["access_code", "authorization_url", "reference"]);
    expect(body.authorization_url).toStartWith("https://checkout.paystack.com/");
    const sent = paystack.requests[before]!;
    expect(sent.authorization).toBe(`Bearer ${paystack.secretKey}`);
    expect(sent.body).toMatchObject({ email: "Ada@Example.com", amount: "3500000", plan: "PLN_growth_test", reference: body.reference, metadata: { owner, tier: "growth" } });

    const again = (await (await subscribe({ owner, email: "ada@example.com", tier: "growth" })).json()) as Record<string, string>;
    expect(again.reference).not.toBe(body.reference);
    expect(JSON.stringify(body) + JSON.stringify(again)).not.toContain(paystack.secretKey);
  });

  test("unknown tier, bad email, missing or unknown fields: 422 validation body, Paystack not called", async () => {
    const before = paystack.requests.length;
    for (const [body, field] of [
      [{ owner: "o", email: "a@b.co", tier: "platinum" }, "tier"],
      [{ owner: "o", email: "not-an-email", tier: "starter" }, "email"],
      [{ owner: "", email: "a@b.co", tier: "starter" }, "owner"],
      [{ email: "a@b.co", tier: "starter" }, "owner"],
    ] as const) {
      const res = await subscribe(body);
      expect(res.status).toBe(422);
      const detail = ((await res.json()) as { detail: { loc: string[] }[] }).detail;
      expect(detail.map((d) => d.loc.join("."))).toContain(`body.${field}`);
    }
    expect((await subscribe({ owner: "o", email: "a@b.co", tier: "starter", coupon: "x" })).status).toBe(422);
    expect(paystack.requests.length).toBe(before);
  });

  test("billing not configured: no secret, or no plan code for the tier: 503 billing_not_configured", async () => {
    const noSecret = await subscribe({ owner: unique(), email: "a@b.co", tier: "starter" }, unconfigured);
    expect(noSecret.status).toBe(503);
    expect(((await noSecret.json()) as { error_class: string }).error_class).toBe("billing_not_configured");
    const noPlan = await subscribe({ owner: unique(), email: "a@b.co", tier: "scale" });
    expect(noPlan.status).toBe(503);
    expect(((await noPlan.json()) as { error_class: string }).error_class).toBe("billing_not_configured");
  });

  test("the webhook of a server without a secret answers 503 billing_not_configured", async () => {
    const res = await paystack.deliver(`${unconfigured.url}/v1/billing/paystack/webhook`, { event: "charge.success", data: { reference: "x", domain: "test" } });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error_class: string }).error_class).toBe("billing_not_configured");
  });

  test("Paystack refusing, failing or timing out: 502 payment_provider_error without the secret", async () => {
    for (const mode of ["reject", "server_error", "hang"] as const) {
      paystack.mode = mode;
      try {
        const res = await subscribe({ owner: unique(), email: "a@b.co", tier: "starter" });
        expect(res.status).toBe(502);
        const text = await res.text();
        expect(JSON.parse(text).error_class).toBe("payment_provider_error");
        expect(text).not.toContain(paystack.secretKey);
      } finally {
        paystack.mode = "ok";
      }
    }
  });

  test("admin token required: none is 401, an API key is 403", async () => {
    const none = await server.fetch("/v1/admin/billing/subscribe", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: "o", email: "a@b.co", tier: "starter" }) });
    expect(none.status).toBe(401);
    const issued = (await (await server.admin("/v1/keys", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "k", owner: unique() }) })).json()) as { key: string };
    const withKey = await server.fetch("/v1/admin/billing/subscribe", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${issued.key}` },
      body: JSON.stringify({ owner: "o", email: "a@b.co", tier: "starter" }),
    });
    expect(withKey.status).toBe(403);
  });
});
