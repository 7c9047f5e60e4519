import { describe, expect, test } from "bun:test";
import { lagosDate, periodDaysSoFar } from "../../src/billing/periods.ts";
import { createMetering } from "../../src/metering/metering.ts";
import { callerFor, headers, meteringConfig, subscribe } from "../billing/fixtures.ts";
import { sharedDb, unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const db = await sharedDb();
// Small caps so the boundary is cheap to reach; the metering below writes the same rows a parse does.
const server = await startTestServer({ PLAN_STARTER_MONTHLY_CAP: "3", PLAN_STARTER_OVERAGE_NAIRA: "15", TEST_MONTHLY_CAP: "4", FIRST_PARTY_IP_MONTHLY_CAP: "6" });
const metering = createMetering({ db, config: meteringConfig({ TEST_MONTHLY_CAP: 4, FIRST_PARTY_IP_MONTHLY_CAP: 6 }) });

async function issue(owner: string, tier: "live" | "first_party" | "test") {
  const res =
    tier === "test"
      ? await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner }) })
      : await server.admin("/v1/keys", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "k", owner, tier }) });
  expect(res.status).toBe(200);
  const k = (await res.json()) as { id: string; key: string; prefix: string };
  return { key: k.key, caller: { keyId: k.id, owner, tier, prefix: k.prefix } };
}

const usage = async (key: string) => {
  const res = await server.fetch("/v1/usage", { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return res.json();
};

async function parses(caller: Parameters<typeof metering.admit>[0], n: number, outcome: "succeeded" | "failed" = "succeeded", h = headers()) {
  for (let i = 0; i < n; i++) {
    const a = await metering.admit(caller, h);
    await (outcome === "succeeded" ? a.succeeded() : a.failed("layout_unrecognized"));
  }
}

describe("GET /v1/usage", () => {
  test("live key: the owner's plan, successes across all their live keys, cap and overage at the boundary", async () => {
    const owner = unique();
    await subscribe(db, owner, "starter");
    const a = await issue(owner, "live");
    const b = await issue(owner, "live");
    await parses(a.caller, 2);
    await parses(b.caller, 1);
    await parses(b.caller, 2, "failed");
    expect(await usage(a.key)).toEqual({
      api_key_id: a.caller.keyId,
      tier: "starter",
      period_parses: 3,
      monthly_cap: 3,
      overage_parses: 0,
      projected_overage_naira: "0.00",
      parses_by_key_tier: { live: 3, test: 0, first_party: 0 },
    });
    await parses(a.caller, 1);
    expect(await usage(b.key)).toMatchObject({ api_key_id: b.caller.keyId, tier: "starter", period_parses: 4, monthly_cap: 3, overage_parses: 1, projected_overage_naira: "15.00" });
    await parses(b.caller, 9);
    expect(await usage(b.key)).toMatchObject({ period_parses: 13, overage_parses: 10, projected_overage_naira: "150.00" });
  });

  test("live key without a subscription: tier none, cap 0, nothing billable", async () => {
    const k = await issue(unique(), "live");
    expect(await usage(k.key)).toEqual({
      api_key_id: k.caller.keyId,
      tier: "none",
      period_parses: 0,
      monthly_cap: 0,
      overage_parses: 0,
      projected_overage_naira: "0.00",
      parses_by_key_tier: { live: 0, test: 0, first_party: 0 },
    });
  });

  test("test key: its free allowance; first_party key: the per-IP cap; both count every key of the owner", async () => {
    const owner = unique();
    const t = await issue(owner, "test");
    await parses(t.caller, 2);
    expect(await usage(t.key)).toEqual({
      api_key_id: t.caller.keyId,
      tier: "test",
      period_parses: 2,
      monthly_cap: 4,
      overage_parses: 0,
      projected_overage_naira: "0.00",
      parses_by_key_tier: { live: 0, test: 2, first_party: 0 },
    });
    const fp = await issue(owner, "first_party");
    await parses(fp.caller, 2, "succeeded", headers({ "x-first-party-client-ip": "198.51.100.1" }));
    await parses(fp.caller, 1, "succeeded", headers({ "x-first-party-client-ip": "198.51.100.2" }));
    await parses(fp.caller, 1, "failed", headers({ "x-first-party-client-ip": "198.51.100.2" }));
    const expected = { period_parses: 5, overage_parses: 0, projected_overage_naira: "0.00", parses_by_key_tier: { live: 0, test: 2, first_party: 3 } };
    expect(await usage(fp.key)).toEqual({ api_key_id: fp.caller.keyId, tier: "first_party", monthly_cap: 6, ...expected });
    expect(await usage(t.key)).toEqual({ api_key_id: t.caller.keyId, tier: "test", monthly_cap: 4, ...expected });
  });

  test("SPEC 4.2: a live key sees the successes of all the owner's keys, whatever their tier; only live parses are billed", async () => {
    const owner = unique();
    await subscribe(db, owner, "starter");
    const live = await issue(owner, "live");
    const t = await issue(owner, "test");
    const fp = await issue(owner, "first_party");
    await parses(live.caller, 4);
    await parses(t.caller, 3);
    await parses(fp.caller, 2, "succeeded", headers({ "x-first-party-client-ip": "198.51.100.9" }));
    await parses(t.caller, 1, "failed");
    // 9 successes in all; the starter cap of 3 is drawn on by the 4 live ones: 1 overage parse.
    expect(await usage(live.key)).toEqual({
      api_key_id: live.caller.keyId,
      tier: "starter",
      period_parses: 9,
      monthly_cap: 3,
      overage_parses: 1,
      projected_overage_naira: "15.00",
      parses_by_key_tier: { live: 4, test: 3, first_party: 2 },
    });
    // Another owner's parses never show.
    const stranger = await issue(unique(), "live");
    expect((await usage(stranger.key)).period_parses).toBe(0);
  });

  test("no key or a revoked key: 401", async () => {
    expect((await server.fetch("/v1/usage")).status).toBe(401);
    const k = await issue(unique(), "live");
    expect((await server.admin(`/v1/keys/${k.caller.keyId}`, { method: "DELETE" })).status).toBe(204);
    const res = await server.fetch("/v1/usage", { headers: { authorization: `Bearer ${k.key}` } });
    expect(res.status).toBe(401);
  });
});

describe("GET /v1/admin/usage", () => {
  test("all the owner's successes across keys, success rate, plan overage from live parses and a count for every day so far", async () => {
    const owner = unique();
    await subscribe(db, owner, "starter");
    const live = await issue(owner, "live");
    const t = await issue(owner, "test");
    await parses(live.caller, 5);
    await parses(t.caller, 2);
    await parses(live.caller, 1, "failed");
    const res = await server.admin(`/v1/admin/usage?owner=${encodeURIComponent(owner)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown> & { daily: { date: string; count: number }[] };
    expect(body).toMatchObject({
      owner,
      tier: "starter",
      period_parses: 7,
      monthly_cap: 3,
      overage_parses: 2,
      projected_overage_naira: "30.00",
      parses_by_key_tier: { live: 5, test: 2, first_party: 0 },
    });
    expect(body.success_rate).toBeCloseTo(7 / 8, 10);
    const now = new Date();
    expect(body.daily.map((d) => d.date)).toEqual(periodDaysSoFar(now));
    expect(body.daily.at(-1)).toEqual({ date: lagosDate(now), count: 7 });
    expect(body.daily.slice(0, -1).every((d) => d.count === 0)).toBe(true);
  });

  test("an owner with no subscription and no parses", async () => {
    const owner = unique();
    const body = (await (await server.admin(`/v1/admin/usage?owner=${owner}`)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ owner, tier: "none", period_parses: 0, success_rate: 1, monthly_cap: 0, overage_parses: 0, projected_overage_naira: "0.00" });
  });

  test("owner is required (422); admin token required (401), an API key is refused (403)", async () => {
    const missing = await server.admin("/v1/admin/usage");
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(["query", "owner"]);
    expect((await server.admin("/v1/admin/usage?owner=")).status).toBe(422);
    expect((await server.fetch("/v1/admin/usage?owner=x")).status).toBe(401);
    const k = await issue(unique(), "live");
    expect((await server.fetch("/v1/admin/usage?owner=x", { headers: { authorization: `Bearer ${k.key}` } })).status).toBe(403);
  });
});
