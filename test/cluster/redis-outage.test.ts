import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ChildServer, childTestKey, startChildServer } from "../helpers/child-server.ts";
import { unique } from "../helpers/db.ts";
import { createScratchDb, type ScratchDb } from "../helpers/postgres-server.ts";
import { makeStatementPdf } from "../jobs/support/statement-pdf.ts";
import { authed, form, type ThrowawayRedis, throwawayRedis, waitFinished, waitFor } from "./support.ts";

/**
 * Issue 18, README "When Redis dies": a server on a Redis of its own (a throwaway redis-server
 * without persistence, so the machine's shared one is never stopped). With Redis gone, job
 * endpoints answer 503 with Retry-After, /readyz names `redis`, and the sync parse still works;
 * once Redis is back on the same port, the server reconnects by itself and jobs run again.
 */
let redis: ThrowawayRedis | undefined;
let scratch: ScratchDb;
let server: ChildServer;

beforeAll(async () => {
  redis = await throwawayRedis("outage", "");
  await redis.start();
  scratch = await createScratchDb("stp_redis_outage");
  server = await startChildServer({ DATABASE_URL: scratch.url, REDIS_URL: redis.url, WORKERS: "1", TEST_MONTHLY_CAP: "100" });
}, 60_000);

afterAll(async () => {
  await server?.stop().catch(() => {});
  await redis?.remove();
  await scratch?.drop();
});

describe("Redis goes away and comes back", () => {
  test("jobs get 503 with Retry-After and /readyz names redis while it is away; sync parses go on; jobs run again once it is back", async () => {
    const key = await childTestKey(server, unique("outage"));
    const pdf = await makeStatementPdf({ pages: 2 });
    const submit = () => server.fetch("/v1/parse/jobs", { method: "POST", ...authed(key), body: form(pdf) });
    const before = await submit();
    expect(before.status).toBe(202);
    const { job_id } = (await before.json()) as { job_id: string };
    expect((await waitFinished(server, key, job_id)).state).toBe("done");

    await redis!.stop();
    const refused = await submit();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(((await refused.json()) as { error_class: string }).error_class).toBe("service_unavailable");
    expect((await server.fetch(`/v1/parse/jobs/${job_id}`, authed(key))).status).toBe(503);
    const ready = await server.fetch("/readyz");
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, { ok: boolean }> }).checks.redis?.ok).toBe(false);
    const sync = await server.fetch("/v1/parse", { method: "POST", ...authed(key), body: form(pdf) });
    expect(sync.status).toBe(200);
    expect(server.logs.some((l) => l.msg === "Redis connection lost; reconnecting")).toBe(true);

    await redis!.start();
    await waitFor("/readyz to be 200 again", async () => ((await server.fetch("/readyz")).status === 200 ? true : undefined), 30_000);
    const after = await submit();
    expect(after.status).toBe(202);
    const again = (await after.json()) as { job_id: string };
    expect((await waitFinished(server, key, again.job_id, 60_000)).state).toBe("done");
    // Redis kept nothing on disk: the job from before the outage is gone with it.
    expect((await server.fetch(`/v1/parse/jobs/${job_id}`, authed(key))).status).toBe(404);
  }, 120_000);
});
