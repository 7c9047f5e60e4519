/**
 * `bun bench/metering.ts`: cost of metering one parse (admit + succeeded) on PGlite and, when
 * BENCH_POSTGRES_URL is set, on that PostgreSQL server (a throwaway database is created and
 * dropped). Live keys (subscription check + reservation) and test keys (advisory-locked cap check)
 * are measured sequentially and 50 at a time. Bounded: a fixed number of parses per case.
 */
import postgres from "postgres";
import { type Db, openPglite, openPostgres } from "../src/db/client.ts";
import { issueKey, issueTestKey, type Caller } from "../src/db/keys.ts";
import { migrate } from "../src/db/migrate.ts";
import { activateSubscription } from "../src/db/subscriptions.ts";
import { createMetering } from "../src/metering/metering.ts";

const N = 1000;

async function measure(label: string, db: Db) {
  const owner = `bench-${Date.now()}`;
  await activateSubscription(db, { owner, tier: "scale", activeUntil: new Date(Date.now() + 30 * 86_400_000) });
  const live = await issueKey(db, { name: "bench", owner, tier: "live" });
  const test = await issueTestKey(db, owner);
  const callers: Record<string, Caller> = {
    live: { keyId: live.id, owner, tier: "live", prefix: live.prefix },
    test: { keyId: test.id, owner, tier: "test", prefix: test.prefix },
  };
  const metering = createMetering({ db, config: { TEST_MONTHLY_CAP: 10 * N, FIRST_PARTY_IP_MONTHLY_CAP: 50, METERING_RESERVATION_TTL_S: 900 } });
  const one = async (caller: Caller) => (await metering.admit(caller, { headers: new Headers() })).succeeded();
  for (const tier of ["live", "test"]) {
    const caller = callers[tier]!;
    let t = performance.now();
    for (let i = 0; i < N; i++) await one(caller);
    const seq = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < N; i += 50) await Promise.all(Array.from({ length: 50 }, () => one(caller)));
    const conc = performance.now() - t;
    console.log(
      `| ${label} | ${tier} | ${((seq / N) * 1000).toFixed(0)} µs | ${((N / seq) * 1000).toFixed(0)}/s | ${((N / conc) * 1000).toFixed(0)}/s |`,
    );
  }
}

console.log("| database | key tier | sequential latency (admit+succeeded) | sequential rate | 50 concurrent rate |");
console.log("|---|---|---|---|---|");
const pglite = await openPglite();
await migrate(pglite);
await measure("PGlite (memory)", pglite);
await pglite.close();

const url = process.env.BENCH_POSTGRES_URL;
if (url) {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const name = `metering_bench_${process.pid}`;
  await admin.unsafe(`create database ${name}`);
  try {
    const u = new URL(url);
    u.pathname = `/${name}`;
    const db = await openPostgres(u.toString());
    await migrate(db);
    await measure("PostgreSQL 15 (loopback)", db);
    await db.close();
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
