import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ChildServer, childTestKey } from "../helpers/child-server.ts";
import { unique } from "../helpers/db.ts";
import { createScratchDb, type ScratchDb } from "../helpers/postgres-server.ts";
import { statementPdf } from "../../bench/generate.ts";
import { makeStatementPdf } from "../jobs/support/statement-pdf.ts";
import { authed, dropPrefix, form, poll, readStream, runnersOf, REDIS_URL, startInstances, submitJob, uniquePrefix, waitFinished, waitFor } from "./support.ts";

/**
 * Issue 18: results kept in Redis for JOB_RESULT_TTL_S serve every instance (a csv job's bytes
 * included), and once swept every instance answers 404 job_expired to the owner (not_found to
 * anyone else), as a single instance does. Redis keeps none of the job's keys but the id's owner.
 * The queue limit holds cluster-wide too: with MAX_QUEUED_JOBS=0 the cluster takes as many jobs as
 * it has workers online (two instances × one), whichever instance they are sent to. An instance
 * stopped with SIGTERM hands a job it could not finish within SHUTDOWN_GRACE_S back to the queue.
 */
const prefix = uniquePrefix("expiry");
let scratch: ScratchDb;
let servers: ChildServer[] = [];

beforeAll(async () => {
  scratch = await createScratchDb("stp_cluster_expiry");
  servers = await startInstances(2, { DATABASE_URL: scratch.url, REDIS_URL, REDIS_PREFIX: prefix, WORKERS: "1", JOB_RESULT_TTL_S: "4", MAX_QUEUED_JOBS: "0", SHUTDOWN_GRACE_S: "0" });
}, 60_000);

afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) await s.stop().catch(() => {});
  await scratch?.drop();
  await dropPrefix(prefix);
});

describe("results on Redis expire for every instance", () => {
  test("a csv job's bytes are fetched from the other instance, then both say job_expired after JOB_RESULT_TTL_S", async () => {
    const [a, b] = servers as [ChildServer, ChildServer];
    const key = await childTestKey(a, unique("expiry"));
    const stranger = await childTestKey(a, unique("stranger"));
    const id = await submitJob(a, key, await makeStatementPdf({ pages: 2 }), "?format=csv");
    expect((await waitFinished(b, key, id)).state).toBe("done");
    const csv = await b.fetch(`/v1/parse/jobs/${id}/result`, authed(key));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect((await csv.text()).split("\n").length).toBeGreaterThan(3);
    const asJson = await a.fetch(`/v1/parse/jobs/${id}/result?format=json`, authed(key));
    expect(((await asJson.json()) as { transactions: unknown[] }).transactions.length).toBeGreaterThan(0);

    const errorClass = async (res: Response) => [res.status, ((await res.json()) as { error_class: string }).error_class];
    await waitFor("the result to be swept", async () => ((await a.fetch(`/v1/parse/jobs/${id}`, authed(key))).status === 404 ? true : undefined), 10_000);
    for (const s of servers) {
      expect(await errorClass(await s.fetch(`/v1/parse/jobs/${id}`, authed(key)))).toEqual([404, "job_expired"]);
      expect(await errorClass(await s.fetch(`/v1/parse/jobs/${id}/result`, authed(key)))).toEqual([404, "job_expired"]);
      expect(await errorClass(await s.fetch(`/v1/parse/jobs/${id}`, authed(stranger)))).toEqual([404, "not_found"]);
      expect((await readStream(s, id)).status).toBe(404);
    }
    // Nothing of the job is left in Redis but the id's owner (for job_expired).
    const { Redis } = await import("ioredis");
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      const left = await redis.keys(`${prefix}:job:{${id}}*`);
      expect(left).toEqual([`${prefix}:job:{${id}}:seen`]);
    } finally {
      redis.disconnect();
    }
  }, 60_000);
});

describe("a redact job across instances", () => {
  test("the redacted bytes kept in Redis are fetched from the other instance, with their redaction count", async () => {
    const [a, b] = servers as [ChildServer, ChildServer];
    const key = await childTestKey(a, unique("redact"));
    const body = new FormData();
    body.set("pdf", new Blob([await Bun.file(new URL("../../fixtures/real/firstbank.pdf", import.meta.url)).bytes()]), "firstbank.pdf");
    body.set("redact", "true");
    const created = await a.fetch("/v1/parse/jobs", { method: "POST", ...authed(key), body });
    expect(created.status).toBe(202);
    const { job_id } = (await created.json()) as { job_id: string };
    expect((await waitFinished(b, key, job_id)).state).toBe("done");
    const res = await b.fetch(`/v1/parse/jobs/${job_id}/result`, authed(key));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(Number(res.headers.get("x-redactions"))).toBeGreaterThan(0);
    expect(new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    const snapshot = (await (await a.fetch(`/v1/parse/jobs/${job_id}`, authed(key))).json()) as { redactions: number; result_url: string };
    expect(snapshot.redactions).toBe(Number(res.headers.get("x-redactions")));
    expect(snapshot.result_url).toBe(`/v1/parse/jobs/${job_id}/result`);
  }, 60_000);
});

describe("the queue limit across instances", () => {
  test("with MAX_QUEUED_JOBS=0, a third job while two run is 503 queue_full on either instance; a place frees when a job ends", async () => {
    const [a, b] = servers as [ChildServer, ChildServer];
    const large = await statementPdf(400);
    // Three owners: the per-key limit is not what refuses here.
    const [k1, k2, k3] = await Promise.all([1, 2, 3].map((i) => childTestKey(a, unique(`queue${i}`))));
    const first = await submitJob(a, k1!, large);
    const second = await submitJob(b, k2!, large);
    for (const s of servers) {
      const res = await s.fetch("/v1/parse/jobs", { method: "POST", ...authed(k3!), body: form(large) });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).not.toBeNull();
      expect(((await res.json()) as { error_class: string }).error_class).toBe("queue_full");
    }
    expect((await b.fetch(`/v1/parse/jobs/${first}`, { method: "DELETE", ...authed(k1!) })).status).toBe(200);
    const third = await submitJob(b, k3!, await makeStatementPdf({ pages: 2 }));
    expect((await waitFinished(a, k3!, third)).state).toBe("done");
    expect((await waitFinished(a, k2!, second)).state).toBe("done");
  }, 120_000);
});

describe("a graceful stop", () => {
  test("SIGTERM past SHUTDOWN_GRACE_S hands the running job back: the other instance parses it, and it is counted once", async () => {
    const key = await childTestKey(servers[0]!, unique("handback"));
    const id = await submitJob(servers[0]!, key, await statementPdf(400));
    const runner = await waitFor("an instance to start the job", () => runnersOf(servers, id)[0]);
    const other = servers.find((s) => s !== runner)!;
    expect(await runner.stop()).toBe(0);
    expect(runner.logs.some((l) => l.msg === "parse job handed back at shutdown")).toBe(true);
    const end = await waitFinished(other, key, id);
    expect(end.state).toBe("done");
    expect(runnersOf([other], id).length).toBe(1);
    const events = (await readStream(other, id, { lastEventId: "0-0" })).events;
    expect(events.filter((e) => e.event !== "result").map((e) => JSON.parse(e.data).stage)).toContain("retry");
    expect((await poll(other, key, id)).result?.transactions.length).toBeGreaterThan(0);
    const rows = await scratch.sql<{ state: string }[]>`select state from parse_usage where id = ${`use_${id}`}`;
    expect([...rows]).toEqual([{ state: "succeeded" }]);
  }, 120_000);
});
