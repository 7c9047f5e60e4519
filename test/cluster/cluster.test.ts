import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { statementPdf } from "../../bench/generate.ts";
import { type ChildServer, childTestKey, startChildServer } from "../helpers/child-server.ts";
import { Contract } from "../helpers/contract.ts";
import { unique } from "../helpers/db.ts";
import { createScratchDb, type ScratchDb } from "../helpers/postgres-server.ts";
import { makeStatementPdf } from "../jobs/support/statement-pdf.ts";
import {
  authed,
  dropPrefix,
  form,
  poll,
  readStream,
  REDIS_URL,
  runnersOf,
  startInstances,
  submitJob,
  uniquePrefix,
  waitFinished,
  waitFor,
} from "./support.ts";

/**
 * Issue 18: three real server processes on loopback share one PostgreSQL database and one Redis
 * (REDIS_URL): any instance serves any job, the one-consumer rule and the per-key limit hold
 * across them, usage is counted once per job, and a job whose instance is killed mid-parse still
 * ends done on another one.
 */
const prefix = uniquePrefix("cluster");
let scratch: ScratchDb;
let servers: ChildServer[] = [];
let small: Uint8Array;
/** Long enough on one worker that a stream, a second consumer and a kill -9 all land mid-parse. */
let large: Uint8Array;
let env: Record<string, string>;

beforeAll(async () => {
  scratch = await createScratchDb("stp_cluster");
  [small, large] = await Promise.all([makeStatementPdf({ pages: 2 }), statementPdf(700)]);
  env = {
    DATABASE_URL: scratch.url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    WORKERS: "1",
    JOB_LOCK_S: "2",
    SSE_HEARTBEAT_S: "1",
    MAX_INFLIGHT_PER_KEY: "2",
    TEST_MONTHLY_CAP: "1000",
    LOG_LEVEL: "info",
  };
  servers = await startInstances(3, env);
}, 120_000);

afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null && s.proc.signalCode === null) await s.stop().catch(() => {});
  await scratch?.drop();
  expect(await dropPrefix(prefix)).toBeGreaterThanOrEqual(0);
});

describe("three instances on one Redis", () => {
  test("a job created on A is streamed on B, polled on C and fetched on B; /v1/status on each shows the cluster", async () => {
    const [a, b, c] = servers as [ChildServer, ChildServer, ChildServer];
    const key = await childTestKey(a, unique("abc"));
    const id = await submitJob(a, key, small);
    const streamed = await readStream(b, id);
    expect(streamed.status).toBe(200);
    const result = streamed.events.find((e) => e.event === "result");
    expect(result).toBeDefined();
    const parsed = JSON.parse(result!.data) as { transactions: unknown[] };
    expect(parsed.transactions.length).toBeGreaterThan(0);

    const snapshot = await poll(c, key, id);
    expect(snapshot.state).toBe("done");
    expect(snapshot.result).toEqual(parsed);
    const fetched = await b.fetch(`/v1/parse/jobs/${id}/result`, authed(key));
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual(parsed);
    // Another owner sees nothing, on any instance.
    const stranger = await childTestKey(c, unique("stranger"));
    expect((await b.fetch(`/v1/parse/jobs/${id}`, authed(stranger))).status).toBe(404);

    const contract = await Contract.load(a.url);
    const ids = new Set<string>();
    for (const s of servers) {
      const res = await s.fetch("/v1/status");
      expect(await contract.problems("GET", `${s.url}/v1/status`, res.clone())).toBeUndefined();
      const body = (await res.json()) as { instance_id: string; cluster: { instances_online: number; workers_online: number; queue_depth: number } };
      ids.add(body.instance_id);
      expect(body.cluster.instances_online).toBe(3);
      expect(body.cluster.workers_online).toBe(3);
      expect(body.cluster.queue_depth).toBeGreaterThanOrEqual(0);
      const ready = (await (await s.fetch("/readyz")).json()) as { checks: Record<string, { ok: boolean }> };
      expect(ready.checks.redis).toEqual({ ok: true });
    }
    expect(ids.size).toBe(3);
  }, 60_000);

  test("a second consumer on another instance gets 409 while the first reads; a third instance may read once it hangs up", async () => {
    const [a, b, c] = servers as [ChildServer, ChildServer, ChildServer];
    const key = await childTestKey(a, unique("consumer"));
    const id = await submitJob(a, key, large);
    const first = await readStream(b, id, {
      until: (m) => {
        if (m.event === "result") return true;
        return JSON.parse(m.data).stage === "extract" && JSON.parse(m.data).current >= 5;
      },
    });
    expect(first.events.length).toBeGreaterThan(0);
    // B hung up mid-parse; it reads again (once its first claim is given back), and meanwhile C is refused.
    let reading!: () => void;
    const streaming = new Promise<void>((r) => (reading = r));
    const holding = waitFor("B to stream again", async () => {
      const r = await readStream(b, id, {
        until: (m) => {
          reading();
          return m.event === "result";
        },
      });
      return r.status === 200 ? r : undefined;
    });
    await streaming;
    const refused = await c.fetch(`/v1/parse/jobs/${id}/stream`);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error_class: string }).error_class).toBe("stream_in_use");
    const held = await holding;
    expect(held.events.at(-1)?.event).toBe("result");
    // The claim is given back when the stream ends: a reconnect from the first event id elsewhere works.
    const again = await readStream(a, id, { lastEventId: first.events[0]!.id });
    expect(again.status).toBe(200);
    expect(again.events.at(-1)?.event).toBe("result");
    const last = again.events.at(-1)!.id;
    expect((await readStream(c, id, { lastEventId: last })).status).toBe(204);
  }, 120_000);

  test("the per-key in-flight limit holds across instances (jobs and sync parses), and a cancel from another instance frees the place", async () => {
    const [a, b, c] = servers as [ChildServer, ChildServer, ChildServer];
    const key = await childTestKey(a, unique("perkey"));
    const first = await submitJob(a, key, large);
    const second = await submitJob(b, key, large);
    const refused = await c.fetch("/v1/parse/jobs", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form(small) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(((await refused.json()) as { error_class: string }).error_class).toBe("rate_limited");
    // A sync parse runs locally but takes the same cluster-wide place of its key.
    const sync = await c.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form(small) });
    expect(sync.status).toBe(429);
    await sync.arrayBuffer();

    // Cancelled on C, though created on A and running wherever the queue put it.
    const cancelled = await c.fetch(`/v1/parse/jobs/${first}`, { method: "DELETE", ...authed(key) });
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { error_class: string }).error_class).toBe("job_cancelled");
    expect((await c.fetch(`/v1/parse/jobs/${first}`, { method: "DELETE", ...authed(key) })).status).toBe(409);
    const syncAfter = await b.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form(small) });
    expect(syncAfter.status).toBe(200);
    await syncAfter.arrayBuffer();
    const third = await submitJob(c, key, small);
    // The second may have finished by now (one worker each, under load): cancelled or done, it is settled once.
    const secondCancel = (await b.fetch(`/v1/parse/jobs/${second}`, { method: "DELETE", ...authed(key) })).status;
    expect([200, 409]).toContain(secondCancel);
    expect((await waitFinished(a, key, third)).state).toBe("done");
    // Cancelled jobs are not counted; the finished one is, once.
    await waitFor("every reservation settled", async () => {
      const r = await scratch.sql<{ n: number }[]>`select count(*)::int as n from parse_usage where id in (${`use_${first}`}, ${`use_${second}`}, ${`use_${third}`}) and state = 'reserved'`;
      return r[0]!.n === 0 ? true : undefined;
    });
    const settled = await scratch.sql<{ id: string; state: string; error_class: string | null }[]>`select id, state, error_class from parse_usage where id in (${`use_${first}`}, ${`use_${second}`}, ${`use_${third}`})`;
    const byId = Object.fromEntries(settled.map((r) => [r.id, `${r.state}${r.error_class ? `:${r.error_class}` : ""}`]));
    expect(byId).toEqual({
      [`use_${first}`]: "failed:job_cancelled",
      [`use_${second}`]: secondCancel === 200 ? "failed:job_cancelled" : "succeeded",
      [`use_${third}`]: "succeeded",
    });
  }, 120_000);

  test("50 concurrent parses spread over the three instances are counted exactly 50 times", async () => {
    const owner = unique("fifty");
    await scratch.sql`insert into subscriptions (owner, tier, status, active_until) values (${owner}, 'starter', 'active', now() + interval '30 days')`;
    // Live keys of one owner, two parses each (MAX_INFLIGHT_PER_KEY is 2 in this cluster).
    const keys = await Promise.all(
      Array.from({ length: 25 }, async (_, i) => {
        const res = await servers[i % 3]!.admin("/v1/keys", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: `k${i}`, owner }) });
        expect(res.status).toBe(200);
        return ((await res.json()) as { key: string }).key;
      }),
    );
    const jobs = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const key = keys[i % 25]!;
        return { key, id: await submitJob(servers[i % 3]!, key, small) };
      }),
    );
    const ends = await Promise.all(jobs.map((j, i) => waitFinished(servers[(i + 1) % 3]!, j.key, j.id)));
    expect(ends.map((e) => e.state)).toEqual(Array(50).fill("done"));
    // Each instance parsed some of them.
    for (const s of servers) expect(s.logs.some((l) => l.msg === "parse job started")).toBe(true);
    const usage = (await (await servers[2]!.fetch("/v1/usage", authed(keys[0]!))).json()) as { period_parses: number };
    expect(usage.period_parses).toBe(50);
    const rows = await scratch.sql<{ state: string; n: number }[]>`select state, count(*)::int as n from parse_usage where owner = ${owner} group by state`;
    expect([...rows]).toEqual([{ state: "succeeded", n: 50 }]);
  }, 180_000);

  test("kill -9 of the instance parsing a job: another instance parses it again, the stream shows retry, and a client reconnecting to a third gets the result", async () => {
    const key = await childTestKey(servers[0]!, unique("killed"));
    const id = await submitJob(servers[0]!, key, large);
    const runner = await waitFor("an instance to start the job", () => runnersOf(servers, id)[0]);
    const [watcher, third] = servers.filter((s) => s !== runner) as [ChildServer, ChildServer];
    // A client follows the job on another instance until the parse is well under way...
    const before = await readStream(watcher, id, { until: (m) => m.event !== "result" && JSON.parse(m.data).stage === "extract" && JSON.parse(m.data).current >= 20 });
    expect(before.events.length).toBeGreaterThan(0);
    const lastSeen = before.events.at(-1)!.id;
    // ...then the instance parsing it dies without a word.
    runner.proc.kill("SIGKILL");
    await runner.proc.exited;
    const after = await readStream(third, id, { lastEventId: lastSeen, until: (m) => m.event === "result" });
    expect(after.status).toBe(200);
    const stages = after.events.filter((e) => e.event !== "result").map((e) => JSON.parse(e.data).stage as string);
    expect(stages).toContain("retry");
    const result = after.events.at(-1)!;
    expect(result.event).toBe("result");
    expect((JSON.parse(result.data) as { transactions: unknown[] }).transactions.length).toBeGreaterThan(0);
    expect(runnersOf([watcher, third], id).length).toBe(1);
    expect((await poll(watcher, key, id)).state).toBe("done");
    expect(await settledUsage(`use_${id}`)).toEqual([{ state: "succeeded", error_class: null }]);
    // And it is the key's only use: the start that was killed counted nothing.
    const rows = await scratch.sql<{ id: string }[]>`select id from parse_usage where key_id = (select id from api_keys where owner = (select owner from parse_usage where id = ${`use_${id}`}) and tier = 'test' and revoked_at is null)`;
    expect([...rows]).toEqual([{ id: `use_${id}` }]);
  }, 180_000);

  test("a job whose instances keep dying fails with worker_crashed after JOB_MAX_ATTEMPTS (2) starts, and is not counted", async () => {
    servers.push(await startChildServer(env));
    let alive = servers.filter((s) => s.proc.exitCode === null && s.proc.signalCode === null);
    expect(alive.length).toBe(3);
    const key = await childTestKey(alive[0]!, unique("crashy"));
    const id = await submitJob(alive[0]!, key, large);
    for (let start = 1; start <= 2; start++) {
      const runner = await waitFor(`start ${start}`, () => runnersOf(alive, id)[0]);
      runner.proc.kill("SIGKILL");
      await runner.proc.exited;
      alive = alive.filter((s) => s !== runner);
    }
    const last = alive[0]!;
    const end = await waitFinished(last, key, id);
    expect(end.state).toBe("failed");
    expect(end.error_class).toBe("worker_crashed");
    expect(runnersOf([last], id)).toEqual([]);
    const events = (await readStream(last, id, { lastEventId: "0-0" })).events;
    expect(events.filter((e) => e.event !== "result").map((e) => JSON.parse(e.data).stage)).toContain("retry");
    expect(JSON.parse(events.at(-1)!.data).error_class).toBe("worker_crashed");
    // The instance that ends the job marks it failed, then settles its usage (queue.ts end): the
    // row leaves `reserved` a moment after the job's state says failed.
    const rows = await settledUsage(`use_${id}`);
    expect(rows).toEqual([{ state: "failed", error_class: "worker_crashed" }]);
  }, 180_000);
});

/** A job's usage row once its end has been settled (no longer `reserved`); the test times out otherwise. */
async function settledUsage(usageId: string): Promise<{ state: string; error_class: string | null }[]> {
  return waitFor(`usage ${usageId} settled`, async () => {
    const rows = [...(await scratch.sql<{ state: string; error_class: string | null }[]>`select state, error_class from parse_usage where id = ${usageId}`)];
    return rows.length === 1 && rows[0]!.state !== "reserved" ? rows : undefined;
  }, 15_000);
}
