import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { sampleResponse } from "../../src/metering/sample.ts";
import { unique } from "../helpers/db.ts";
import { chargeSuccess, startFakePaystack } from "../helpers/paystack.ts";
import { startTestServer } from "../helpers/server.ts";

/**
 * Metering end to end through POST /v1/parse and jobs: real keys, real PDFs on the worker pool, a
 * subscription activated by a signed Paystack webhook. Caps are tiny (config overrides) so the
 * boundary is reached in a few parses.
 */
const FIRSTBANK = new Uint8Array(readFileSync(new URL("../../fixtures/real/firstbank.pdf", import.meta.url)));
const ENCRYPTED = new Uint8Array(readFileSync(new URL("../../fixtures/real/encrypted.pdf", import.meta.url)));

const paystack = startFakePaystack();
const server = await startTestServer({
  PAYSTACK_BASE_URL: paystack.baseUrl,
  PAYSTACK_SECRET_KEY: paystack.secretKey,
  PAYSTACK_PLAN_STARTER: "PLN_starter_parse",
  PLAN_STARTER_MONTHLY_CAP: "2",
  TEST_MONTHLY_CAP: "1",
  FIRST_PARTY_IP_MONTHLY_CAP: "1",
  MAX_INFLIGHT_PER_KEY: "64",
  MAX_QUEUED_JOBS: "64",
});

const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function issue(owner: string, tier: "live" | "first_party" | "test"): Promise<string> {
  const res = tier === "test" ? await server.admin("/v1/keys/test", json({ owner })) : await server.admin("/v1/keys", json({ name: "k", owner, tier }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { key: string }).key;
}

function parse(key: string, file: Uint8Array<ArrayBuffer> = FIRSTBANK, extra: Record<string, string> = {}, path = "/v1/parse") {
  const form = new FormData();
  form.append("pdf", new Blob([file], { type: "application/pdf" }), "statement.pdf");
  return server.fetch(path, { method: "POST", headers: { authorization: `Bearer ${key}`, ...extra }, body: form });
}

const usage = async (key: string) => (await (await server.fetch("/v1/usage", { headers: { authorization: `Bearer ${key}` } })).json()) as Record<string, unknown>;

/** Subscribes the owner the way production does: checkout through the API, then Paystack's signed charge.success. */
async function subscribeViaWebhook(owner: string) {
  const res = await server.admin("/v1/admin/billing/subscribe", json({ owner, email: `${owner}@example.com`, tier: "starter" }));
  expect(res.status).toBe(200);
  const { reference } = (await res.json()) as { reference: string };
  const event = chargeSuccess({ email: `${owner}@example.com`, customerCode: `CUS_${owner}`, planCode: "PLN_starter_parse", reference, amountKobo: 950_000 });
  const delivered = await paystack.deliver(`${server.url}/v1/billing/paystack/webhook`, event);
  expect(delivered.status).toBe(200);
}

describe("metering through POST /v1/parse", () => {
  test("live key: 402 subscription_inactive before a subscription, 200 after the signed webhook, then counted", async () => {
    const owner = unique();
    const key = await issue(owner, "live");
    const refused = await parse(key);
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { error_class: string }).error_class).toBe("subscription_inactive");
    expect((await usage(key)).period_parses).toBe(0);

    await subscribeViaWebhook(owner);
    const ok = await parse(key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-sample")).toBeNull();
    expect(((await ok.json()) as { metadata: { bank: string } }).metadata.bank).not.toBe("sample");
    expect(await usage(key)).toMatchObject({ tier: "starter", period_parses: 1, monthly_cap: 2, overage_parses: 0 });
  });

  test("past the plan cap live parses still succeed and count as overage", async () => {
    const owner = unique();
    const key = await issue(owner, "live");
    await subscribeViaWebhook(owner);
    for (let i = 0; i < 3; i++) expect((await parse(key)).status).toBe(200);
    expect(await usage(key)).toMatchObject({ period_parses: 3, monthly_cap: 2, overage_parses: 1, projected_overage_naira: "15.00" });
  });

  test("failed parses are not counted, only lower the success rate", async () => {
    const owner = unique();
    const key = await issue(owner, "live");
    await subscribeViaWebhook(owner);
    const failed = await parse(key, ENCRYPTED);
    expect(failed.status).toBe(422);
    expect(((await failed.json()) as { error_class: string }).error_class).toBe("encrypted_source");
    expect((await parse(key)).status).toBe(200);
    expect((await usage(key)).period_parses).toBe(1);
    const owned = (await (await server.admin(`/v1/admin/usage?owner=${owner}`)).json()) as { success_rate: number; period_parses: number };
    expect(owned).toMatchObject({ period_parses: 1, success_rate: 0.5 });
  });

  test("50 concurrent parses over two keys are counted exactly 50 times", async () => {
    const owner = unique();
    const keys = [await issue(owner, "live"), await issue(owner, "live")];
    await subscribeViaWebhook(owner);
    const statuses = await Promise.all(Array.from({ length: 50 }, (_, i) => parse(keys[i % 2]!).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200).length).toBe(50);
    expect((await usage(keys[0]!)).period_parses).toBe(50);
  });

  test("a live job that reaches done counts once, like a sync parse", async () => {
    const owner = unique();
    const key = await issue(owner, "live");
    await subscribeViaWebhook(owner);
    const created = await parse(key, FIRSTBANK, {}, "/v1/parse/jobs");
    expect(created.status).toBe(202);
    const { poll_url } = (await created.json()) as { poll_url: string };
    let state = "";
    for (let i = 0; i < 200 && state !== "done" && state !== "failed"; i++) {
      state = ((await (await server.fetch(poll_url, { headers: { authorization: `Bearer ${key}` } })).json()) as { state: string }).state;
      if (state !== "done") await Bun.sleep(50);
    }
    expect(state).toBe("done");
    expect((await usage(key)).period_parses).toBe(1);
  });

  test("test key: free parses up to the cap, then the sample with X-Sample: true, never counted", async () => {
    const owner = unique();
    const key = await issue(owner, "test");
    const real = await parse(key);
    expect(real.status).toBe(200);
    expect(real.headers.get("x-sample")).toBeNull();
    const sample = await parse(key);
    expect(sample.status).toBe(200);
    expect(sample.headers.get("x-sample")).toBe("true");
    expect(await sample.json()).toEqual(JSON.parse(JSON.stringify(sampleResponse())));
    expect(await usage(key)).toMatchObject({ tier: "test", period_parses: 1, monthly_cap: 1 });
  });

  test("test key past the cap: a job finishes at once with the sample and sample: true", async () => {
    const owner = unique();
    const key = await issue(owner, "test");
    expect((await parse(key)).status).toBe(200);
    const created = await parse(key, FIRSTBANK, {}, "/v1/parse/jobs");
    expect(created.status).toBe(202);
    const { poll_url } = (await created.json()) as { poll_url: string };
    const snapshot = (await (await server.fetch(poll_url, { headers: { authorization: `Bearer ${key}` } })).json()) as Record<string, unknown>;
    expect(snapshot).toMatchObject({ state: "done", sample: true });
    expect((await usage(key)).period_parses).toBe(1);
  });

  test("first_party key: no subscription needed, the end-user IP header is required, each IP capped then sampled", async () => {
    const key = await issue(unique(), "first_party");
    const missing = await parse(key);
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(["header", "x-first-party-client-ip"]);
    const bad = await parse(key, FIRSTBANK, { "x-first-party-client-ip": "localhost" });
    expect(bad.status).toBe(422);

    const first = await parse(key, FIRSTBANK, { "x-first-party-client-ip": "192.0.2.10" });
    expect(first.status).toBe(200);
    expect(first.headers.get("x-sample")).toBeNull();
    const again = await parse(key, FIRSTBANK, { "x-first-party-client-ip": "192.0.2.10" });
    expect(again.headers.get("x-sample")).toBe("true");
    const otherUser = await parse(key, FIRSTBANK, { "x-first-party-client-ip": "192.0.2.11" });
    expect(otherUser.headers.get("x-sample")).toBeNull();
    expect(await usage(key)).toMatchObject({ tier: "first_party", period_parses: 2, monthly_cap: 1 });
  });
});
