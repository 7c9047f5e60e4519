import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createLogger } from "../../src/log.ts";
import { unique } from "../helpers/db.ts";
import { startFakePaystack } from "../helpers/paystack.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/**
 * Billing is on only with a payment provider configured. Without one (a self-hoster, the operator
 * of their own server) live keys parse with no subscription; with Paystack configured a live key
 * without one gets 402 exactly as before. Real servers on loopback; Paystack is a local HTTP server.
 */
const FIRSTBANK = new Uint8Array(readFileSync(new URL("../../fixtures/real/firstbank.pdf", import.meta.url)));

const selfHostedLog: string[] = [];
const selfHosted = await startTestServer({}, { log: createLogger("info", (l) => selfHostedLog.push(l)) });
const paystack = startFakePaystack();
const billedLog: string[] = [];
const billed = await startTestServer(
  { PAYSTACK_BASE_URL: paystack.baseUrl, PAYSTACK_SECRET_KEY: paystack.secretKey, PAYSTACK_PLAN_STARTER: "PLN_mode_test" },
  { log: createLogger("info", (l) => billedLog.push(l)) },
);

async function liveKey(server: TestServer): Promise<string> {
  const res = await server.admin("/v1/keys", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "k", owner: unique(), tier: "live" }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { key: string }).key;
}

function parse(server: TestServer, key: string): Promise<Response> {
  const form = new FormData();
  form.append("pdf", new Blob([FIRSTBANK], { type: "application/pdf" }), "firstbank.pdf");
  return server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
}

const billingLine = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => "billing_enabled" in l);

describe("no payment provider configured (self-hosted)", () => {
  test("a live key without a subscription parses the statement", async () => {
    const res = await parse(selfHosted, await liveKey(selfHosted));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-sample")).toBeNull();
    const body = (await res.json()) as { metadata: { bank: string }; transactions: unknown[] };
    expect(body.metadata.bank).toBe("firstbank");
    expect(body.transactions.length).toBeGreaterThan(0);
  });

  test("/v1/status and the start-up log say billing is off", async () => {
    const status = (await (await selfHosted.fetch("/v1/status")).json()) as { billing: unknown };
    expect(status.billing).toEqual({ enabled: false, provider: null });
    expect(billingLine(selfHostedLog)).toMatchObject({ billing_enabled: false, billing_provider: null });
  });
});

describe("Paystack configured", () => {
  test("a live key without a subscription is gated with 402 subscription_inactive", async () => {
    const res = await parse(billed, await liveKey(billed));
    expect(res.status).toBe(402);
    expect(((await res.json()) as { error_class: string }).error_class).toBe("subscription_inactive");
  });

  test("/v1/status and the start-up log say billing is on with Paystack", async () => {
    const status = (await (await billed.fetch("/v1/status")).json()) as { billing: unknown };
    expect(status.billing).toEqual({ enabled: true, provider: "paystack" });
    expect(billingLine(billedLog)).toMatchObject({ billing_enabled: true, billing_provider: "paystack" });
  });
});
