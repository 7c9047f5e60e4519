import { describe, expect, test } from "bun:test";
import { ownerUsage, callerUsage } from "../../src/billing/usage.ts";
import { plansFromConfig } from "../../src/billing/plans.ts";
import { loadConfig } from "../../src/config.ts";
import { AppError, databaseUnavailable } from "../../src/errors.ts";
import type { Db } from "../../src/db/index.ts";
import { RequestValidationError } from "../../src/http/errors.ts";
import { endSubscription, markNonRenewing } from "../../src/db/subscriptions.ts";
import { createMetering } from "../../src/metering/metering.ts";
import { sharedDb, unique } from "../helpers/db.ts";
import { callerFor, headers, meteringConfig, subscribe } from "./fixtures.ts";

const db = await sharedDb();
const plans = plansFromConfig(loadConfig({}));
const usageCtx = { db, config: meteringConfig(), plans };

describe("live keys", () => {
  test("without an active subscription admit refuses with 402 subscription_inactive and records nothing", async () => {
    const owner = unique();
    const caller = await callerFor(db, owner, "live");
    const metering = createMetering({ db, config: meteringConfig() });
    const err = await metering.admit(caller, headers()).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(402);
    expect((err as AppError).errorClass).toBe("subscription_inactive");
    expect((await ownerUsage(usageCtx, owner)).success_rate).toBe(1);
    expect((await ownerUsage(usageCtx, owner)).period_parses).toBe(0);
  });

  test("a non-renewing plan admits until its end date; an ended or past-due plan refuses at once", async () => {
    const owner = unique();
    await subscribe(db, owner);
    const caller = await callerFor(db, owner, "live");
    let clock = new Date("2026-05-20T10:00:00Z");
    const metering = createMetering({ db, config: meteringConfig(), now: () => clock });
    await markNonRenewing(db, owner, new Date("2026-05-31T23:00:00Z"));
    expect((await metering.admit(caller, headers())).sample).toBe(false);
    clock = new Date("2026-05-31T23:00:00Z");
    expect(((await metering.admit(caller, headers()).catch((e) => e)) as AppError).errorClass).toBe("subscription_inactive");
    for (const status of ["past_due", "ended"] as const) {
      await subscribe(db, owner);
      expect((await metering.admit(caller, headers())).sample).toBe(false);
      await endSubscription(db, owner, status);
      expect(((await metering.admit(caller, headers()).catch((e) => e)) as AppError).status).toBe(402);
    }
  });

  test("successes are counted per owner across all their live keys; failures only lower success_rate", async () => {
    const owner = unique();
    await subscribe(db, owner);
    const [a, b, c] = [await callerFor(db, owner, "live"), await callerFor(db, owner, "live"), await callerFor(db, owner, "live")];
    const other = await callerFor(db, unique(), "live");
    await subscribe(db, other.owner);
    const metering = createMetering({ db, config: meteringConfig() });
    for (const caller of [a, a, b, c]) await (await metering.admit(caller, headers())).succeeded();
    await (await metering.admit(b, headers())).failed("layout_unrecognized");
    await (await metering.admit(other, headers())).succeeded();

    const mine = await callerUsage(usageCtx, c);
    expect(mine).toEqual({
      api_key_id: c.keyId,
      tier: "starter",
      period_parses: 4,
      monthly_cap: 1000,
      overage_parses: 0,
      projected_overage_naira: "0.00",
      parses_by_key_tier: { live: 4, test: 0, first_party: 0 },
    });
    const record = await ownerUsage(usageCtx, owner);
    expect(record.period_parses).toBe(4);
    expect(record.success_rate).toBeCloseTo(0.8, 10);
    expect((await callerUsage(usageCtx, other)).period_parses).toBe(1);
  });

  test("a parse finalized twice counts once, and a failed admission can't later count as a success", async () => {
    const owner = unique();
    await subscribe(db, owner);
    const caller = await callerFor(db, owner, "live");
    const metering = createMetering({ db, config: meteringConfig() });
    const once = await metering.admit(caller, headers());
    await Promise.all([once.succeeded(), once.succeeded(), once.failed("internal_error")]);
    const failed = await metering.admit(caller, headers());
    await failed.failed("parse_timeout");
    await failed.succeeded();
    const record = await ownerUsage(usageCtx, owner);
    expect(record.period_parses).toBe(1);
    expect(record.success_rate).toBe(0.5);
  });

  test("50 concurrent parses are counted exactly 50 times", async () => {
    const owner = unique();
    await subscribe(db, owner);
    const keys = [await callerFor(db, owner, "live"), await callerFor(db, owner, "live")];
    const metering = createMetering({ db, config: meteringConfig() });
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const admission = await metering.admit(keys[i % 2]!, headers());
        expect(admission.sample).toBe(false);
        await admission.succeeded();
      }),
    );
    const record = await ownerUsage(usageCtx, owner);
    expect(record.period_parses).toBe(50);
    expect(record.parses_by_key_tier).toEqual({ live: 50, test: 0, first_party: 0 });
  });

  test("a reservation never finalized (a crashed server) does not count", async () => {
    const owner = unique();
    await subscribe(db, owner);
    const caller = await callerFor(db, owner, "live");
    const metering = createMetering({ db, config: meteringConfig() });
    await metering.admit(caller, headers()); // never finalized
    await (await metering.admit(caller, headers())).succeeded();
    expect((await callerUsage(usageCtx, caller)).period_parses).toBe(1);
  });
});

describe("test keys", () => {
  test("free up to TEST_MONTHLY_CAP per owner, then the sample; samples are never counted, reissuing the key does not reset", async () => {
    const owner = unique();
    const metering = createMetering({ db, config: meteringConfig({ TEST_MONTHLY_CAP: 3 }) });
    const first = await callerFor(db, owner, "test");
    for (let i = 0; i < 2; i++) await (await metering.admit(first, headers())).succeeded();
    const second = await callerFor(db, owner, "test"); // revokes the first
    const third = await metering.admit(second, headers());
    expect(third.sample).toBe(false);
    await third.succeeded();
    const fourth = await metering.admit(second, headers());
    expect(fourth.sample).toBe(true);
    await fourth.succeeded(); // a no-op for samples
    expect(await callerUsage({ ...usageCtx, config: meteringConfig({ TEST_MONTHLY_CAP: 3 }) }, second)).toEqual({
      api_key_id: second.keyId,
      tier: "test",
      period_parses: 3,
      monthly_cap: 3,
      overage_parses: 0,
      projected_overage_naira: "0.00",
      parses_by_key_tier: { live: 0, test: 3, first_party: 0 },
    });
  });

  test("failed parses give their place back", async () => {
    const owner = unique();
    const metering = createMetering({ db, config: meteringConfig({ TEST_MONTHLY_CAP: 1 }) });
    const caller = await callerFor(db, owner, "test");
    await (await metering.admit(caller, headers())).failed("scanned_document");
    const next = await metering.admit(caller, headers());
    expect(next.sample).toBe(false);
    await next.succeeded();
    expect((await metering.admit(caller, headers())).sample).toBe(true);
  });

  test("concurrent requests can't overshoot the cap: 30 at once under a cap of 7 run exactly 7 parses", async () => {
    const owner = unique();
    const metering = createMetering({ db, config: meteringConfig({ TEST_MONTHLY_CAP: 7 }) });
    const caller = await callerFor(db, owner, "test");
    const admissions = await Promise.all(Array.from({ length: 30 }, () => metering.admit(caller, headers())));
    expect(admissions.filter((a) => !a.sample).length).toBe(7);
    await Promise.all(admissions.map((a) => a.succeeded()));
    expect((await ownerUsage(usageCtx, owner)).period_parses).toBe(7);
  });

  test("a reservation in flight holds its place; once older than the TTL it stops holding it", async () => {
    const owner = unique();
    let clock = new Date("2026-03-10T12:00:00Z");
    const metering = createMetering({ db, config: meteringConfig({ TEST_MONTHLY_CAP: 1, METERING_RESERVATION_TTL_S: 60 }), now: () => clock });
    const caller = await callerFor(db, owner, "test");
    const stuck = await metering.admit(caller, headers());
    expect(stuck.sample).toBe(false);
    expect((await metering.admit(caller, headers())).sample).toBe(true);
    clock = new Date(clock.getTime() + 61_000);
    const after = await metering.admit(caller, headers());
    expect(after.sample).toBe(false);
  });
});

describe("first_party keys", () => {
  test("missing or malformed X-First-Party-Client-IP is a 422 validation body on that header", async () => {
    const caller = await callerFor(db, unique(), "first_party");
    const metering = createMetering({ db, config: meteringConfig() });
    for (const h of [{}, { "x-first-party-client-ip": "" } as Record<string, string>, { "x-first-party-client-ip": "not-an-ip" }, { "x-first-party-client-ip": "999.1.1.1" }]) {
      const err = await metering.admit(caller, headers(h)).catch((e) => e);
      expect(err).toBeInstanceOf(RequestValidationError);
      expect((err as RequestValidationError).detail[0]!.loc).toEqual(["header", "x-first-party-client-ip"]);
    }
  });

  test("no subscription gate; each end-user IP gets its own cap, then the sample", async () => {
    const owner = unique();
    const metering = createMetering({ db, config: meteringConfig({ FIRST_PARTY_IP_MONTHLY_CAP: 2 }) });
    const [k1, k2] = [await callerFor(db, owner, "first_party"), await callerFor(db, owner, "first_party")];
    const ip = (v: string) => headers({ "x-first-party-client-ip": v });
    await (await metering.admit(k1, ip("203.0.113.7"))).succeeded();
    await (await metering.admit(k2, ip("::ffff:203.0.113.7"))).succeeded(); // same user, other spelling, other key
    expect((await metering.admit(k1, ip("203.0.113.7"))).sample).toBe(true);
    const v6 = await metering.admit(k1, ip("2001:DB8::1"));
    expect(v6.sample).toBe(false);
    await v6.succeeded();
    expect((await metering.admit(k2, ip("2001:db8::1"))).sample).toBe(false);
    const usage = await callerUsage({ ...usageCtx, config: meteringConfig({ FIRST_PARTY_IP_MONTHLY_CAP: 2 }) }, k1);
    expect(usage).toMatchObject({ tier: "first_party", period_parses: 3, monthly_cap: 2, overage_parses: 0 });
  });
});

describe("billing periods", () => {
  test("counts roll over at Lagos midnight on the 1st (23:00 UTC on the last day)", async () => {
    const owner = unique();
    let clock = new Date("2026-01-31T22:59:59.000Z"); // 23:59:59 on 31 January in Lagos
    const metering = createMetering({ db, config: meteringConfig({ TEST_MONTHLY_CAP: 2 }), now: () => clock });
    const caller = await callerFor(db, owner, "test");
    for (let i = 0; i < 2; i++) await (await metering.admit(caller, headers())).succeeded();
    expect((await metering.admit(caller, headers())).sample).toBe(true);
    expect((await ownerUsage(usageCtx, owner, clock)).period_parses).toBe(2);

    clock = new Date("2026-01-31T23:00:00.000Z"); // 00:00 on 1 February in Lagos
    expect((await ownerUsage(usageCtx, owner, clock)).period_parses).toBe(0);
    const fresh = await metering.admit(caller, headers());
    expect(fresh.sample).toBe(false);
    await fresh.succeeded();
    const feb = await ownerUsage(usageCtx, owner, clock);
    expect(feb.period_parses).toBe(1);
    expect(feb.daily).toEqual([{ date: "2026-02-01", count: 1 }]);
    const jan = await ownerUsage(usageCtx, owner, new Date("2026-01-31T22:00:00.000Z"));
    expect(jan.daily.length).toBe(31);
    expect(jan.daily.at(-1)).toEqual({ date: "2026-01-31", count: 2 });
  });
});

describe("outcome writes while the database is away (issue 15 item 9)", () => {
  /** The shared database, with outcome writes failing like a stopped server while `down` is set. */
  const flaky = (down: { on: boolean; attempts: number }): Db => ({
    ...db,
    query: (sql: string, params?: readonly unknown[]) => {
      if (/^\s*update parse_usage set state/.test(sql)) {
        down.attempts++;
        if (down.on) return Promise.reject(databaseUnavailable(new Error("ECONNREFUSED")));
      }
      return db.query(sql, params);
    },
  }) as Db;

  test("a failed success write is retried with backoff until it lands, and counts exactly once", async () => {
    const owner = unique();
    await subscribe(db, owner);
    const caller = await callerFor(db, owner, "live");
    const down = { on: true, attempts: 0 };
    const metering = createMetering({ db: flaky(down), config: meteringConfig(), retryBaseMs: 20 });
    const admissions = [await metering.admit(caller, headers()), await metering.admit(caller, headers())];
    // Neither throws: the parse happened, its outcome waits in memory.
    await admissions[0]!.succeeded();
    await admissions[1]!.failed("layout_unrecognized");
    expect((await ownerUsage(usageCtx, owner)).period_parses).toBe(0);
    await Bun.sleep(150);
    expect(down.attempts).toBeGreaterThan(2);
    down.on = false;
    for (let i = 0; i < 100 && (await ownerUsage(usageCtx, owner)).period_parses === 0; i++) await Bun.sleep(20);
    const usage = await ownerUsage(usageCtx, owner);
    expect(usage.period_parses).toBe(1);
    expect(usage.success_rate).toBe(0.5);
    // Nothing left to write; a second flush changes nothing.
    expect(await metering.flush?.(100)).toBe(0);
    expect((await ownerUsage(usageCtx, owner)).period_parses).toBe(1);
  });

  test("an admission whose reservation landed but whose answer was lost is refused (503) and its row released, never left reserved", async () => {
    const owner = unique();
    await subscribe(db, owner);
    for (const tier of ["live", "test"] as const) {
      const caller = await callerFor(db, owner, tier);
      // The statement runs on the real database; its answer is lost on the way back, as when
      // PostgreSQL restarts between running a COMMIT and answering it.
      const lossy = {
        ...db,
        query: async (sql: string, params?: readonly unknown[]) => {
          const rows = await db.query(sql, params);
          if (/^\s*insert into parse_usage/.test(sql)) throw databaseUnavailable(new Error("connection lost after the statement ran"));
          return rows;
        },
        transaction: async (fn: Parameters<Db["transaction"]>[0]) => {
          await db.transaction(fn);
          throw databaseUnavailable(new Error("connection lost after COMMIT ran"));
        },
      } as Db;
      const metering = createMetering({ db: lossy, config: meteringConfig(), retryBaseMs: 20 });
      const err = (await metering.admit(caller, headers()).catch((e) => e)) as AppError;
      expect([err.status, err.errorClass]).toEqual([503, "database_unavailable"]);
      const states = async () => (await db.query<{ state: string }>(`select state from parse_usage where owner = $1 and key_tier = $2`, [owner, tier])).map((r) => r.state);
      for (let i = 0; i < 100 && (await states()).includes("reserved"); i++) await Bun.sleep(20);
      expect(await states()).toEqual(["abandoned"]);
    }
    // Released rows are neither parses nor failures.
    const usage = await ownerUsage(usageCtx, owner);
    expect([usage.period_parses, usage.success_rate]).toEqual([0, 1]);
  });

  test("flush at shutdown writes what is pending once the database answers, and says what it could not", async () => {
    const owner = unique();
    await subscribe(db, owner);
    const caller = await callerFor(db, owner, "live");
    const down = { on: true, attempts: 0 };
    const metering = createMetering({ db: flaky(down), config: meteringConfig(), retryBaseMs: 60_000 });
    await (await metering.admit(caller, headers())).succeeded();
    expect(await metering.flush?.(300)).toBe(1);
    down.on = false;
    expect(await metering.flush?.(2000)).toBe(0);
    expect((await ownerUsage(usageCtx, owner)).period_parses).toBe(1);
  });
});
