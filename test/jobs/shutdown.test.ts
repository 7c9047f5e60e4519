import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/log.ts";
import { startServer } from "../../src/server.ts";
import { sharedDb, unique } from "../helpers/db.ts";
import { ADMIN_TOKEN, type TestServer } from "../helpers/server.ts";
import { makeStatementPdf } from "./support/statement-pdf.ts";
import { form, get, newKey, readSse, submit, waitFinished } from "./support/http.ts";

/** A server this file stops itself (startTestServer would stop it again after the file). */
async function start(overrides: Record<string, string>): Promise<TestServer> {
  const config = loadConfig({}, { PORT: "0", HOST: "127.0.0.1", ADMIN_TOKEN, LOG_LEVEL: "silent", TEST_MONTHLY_CAP: "1000", ...overrides });
  const running = await startServer({ config, db: await sharedDb(), log: createLogger("silent") });
  const f = (path: string, init?: RequestInit) => fetch(running.url + path, init);
  const admin = (path: string, init: RequestInit = {}) =>
    f(path, { ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.headers as Record<string, string> | undefined) } });
  return { ...running, fetch: f, admin };
}

describe("graceful shutdown", () => {
  test("stop() lets a running job finish and ends its stream with the result, then refuses connections", async () => {
    // The listener stays open for the whole grace when a job was running (drain-pollers.test.ts): a short one here.
    const server = await start({ WORKERS: "2", SHUTDOWN_GRACE_S: "15" });
    const f = server.fetch;

    const { key } = await newKey(server, unique());
    const created = await submit(server, key, form(await makeStatementPdf({ pages: 12 })));
    const stream = await server.fetch(created.stream_url);
    expect(stream.status).toBe(200);
    const reading = readSse(stream);
    await server.stop();
    const { events } = await reading;
    const last = events.at(-1)!;
    expect(last.event).toBe("result");
    expect(JSON.parse(last.data).transactions.length).toBe(12 * 22);
    expect(await f("/healthz").then(() => "answered", () => "refused")).toBe("refused");
  }, 60_000);

  test("past the grace period, running and queued jobs fail with service_unavailable on their streams", async () => {
    const server = await start({ WORKERS: "1", SHUTDOWN_GRACE_S: "0" });
    const { key } = await newKey(server, unique());
    const bytes = await makeStatementPdf({ pages: 30 });
    const jobs = [await submit(server, key, form(bytes)), await submit(server, key, form(bytes))];
    const streams = await Promise.all(jobs.map((j) => server.fetch(j.stream_url)));
    const reading = streams.map((s) => readSse(s));
    await server.stop();
    for (const r of reading) {
      const last = (await r).events.at(-1)!;
      expect(last.event).toBe("result");
      expect(JSON.parse(last.data).error_class).toBe("service_unavailable");
    }
  }, 60_000);

  test("during the grace /readyz answers 503 draining, new parses get 503, and a job finishing meanwhile can be polled and fetched (issue 15 item 14)", async () => {
    const server = await start({ WORKERS: "2", SHUTDOWN_GRACE_S: "20" });
    const { key } = await newKey(server, unique());
    const long = await submit(server, key, form(await makeStatementPdf({ pages: 60 })));
    const short = await submit(server, key, form(await makeStatementPdf({ pages: 1 })), "?format=csv");
    const stopped = server.stop();

    const ready = await server.fetch("/readyz");
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { status: string }).status).toBe("draining");
    const refused = await server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form(await makeStatementPdf({ pages: 1 })) });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).not.toBeNull();

    // The short job ends during the grace while the long one still runs: both can be read.
    const snap = await waitFinished(server, key, short.job_id);
    expect(snap.state).toBe("done");
    const csv = await get(server, `/v1/parse/jobs/${short.job_id}/result`, key);
    expect(csv.status).toBe(200);
    expect((await csv.text()).split("\n").length).toBeGreaterThan(22);
    const longSnap = (await (await get(server, long.poll_url, key)).json()) as { state: string };
    expect(["queued", "running", "done"]).toContain(longSnap.state);

    await stopped;
    expect(await server.fetch("/healthz").then(() => "answered", () => "refused")).toBe("refused");
  }, 120_000);
});
