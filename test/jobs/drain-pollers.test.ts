import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/log.ts";
import { startServer } from "../../src/server.ts";
import { sharedDb, unique } from "../helpers/db.ts";
import { ADMIN_TOKEN, type TestServer } from "../helpers/server.ts";
import { form, get, newKey, submit } from "./support/http.ts";
import { makeStatementPdf } from "./support/statement-pdf.ts";

/**
 * Issue 29 item 10: a job that ends during the drain was counted, so its owner must be able to
 * fetch it. A poller asks every second or so: the listener stays open for the rest of the grace
 * period, not just until the last job ends.
 */
async function start(grace: string, lines: string[]): Promise<TestServer> {
  const config = loadConfig({}, { PORT: "0", HOST: "127.0.0.1", ADMIN_TOKEN, WORKERS: "1", LOG_LEVEL: "info", TEST_MONTHLY_CAP: "1000", SHUTDOWN_GRACE_S: grace });
  const running = await startServer({ config, db: await sharedDb(), log: createLogger("info", (l) => lines.push(l)) });
  const f = (path: string, init?: RequestInit) => fetch(running.url + path, init);
  return { ...running, fetch: f, admin: (path, init = {}) => f(path, { ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.headers as Record<string, string> | undefined) } }) };
}

const refused = (server: TestServer) => server.fetch("/healthz").then(() => "answered", () => "refused");

describe("drain: results stay fetchable for the grace period", () => {
  test("a job that ends during the drain is polled and fetched a second after it ended; the listener closes at the grace's end", async () => {
    const lines: string[] = [];
    const server = await start("6", lines);
    const { key } = await newKey(server, unique());
    const job = await submit(server, key, form(await makeStatementPdf({ pages: 15 })));
    const started = Date.now();
    const stopped = server.stop();
    for (let i = 0; i < 3000 && !lines.some((l) => l.includes('"parse finished"')); i++) await Bun.sleep(10);
    expect(lines.some((l) => l.includes('"parse finished"'))).toBe(true);
    // A poller's interval after the job ended.
    await Bun.sleep(1000);
    const poll = await get(server, job.poll_url, key);
    expect(poll.status).toBe(200);
    expect(((await poll.json()) as { state: string }).state).toBe("done");
    const result = await get(server, `${job.poll_url}/result`, key);
    expect(result.status).toBe(200);
    expect(((await result.json()) as { transactions: unknown[] }).transactions.length).toBe(15 * 22);
    await stopped;
    expect(Date.now() - started).toBeGreaterThanOrEqual(6000 - 50);
    expect(await refused(server)).toBe("refused");
  }, 60_000);

  test("with no job to wait for, the listener closes at once", async () => {
    const server = await start("6", []);
    expect((await server.fetch("/healthz")).status).toBe(200);
    const started = Date.now();
    await server.stop();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await refused(server)).toBe("refused");
  }, 30_000);
});
