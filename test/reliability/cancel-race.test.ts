import { afterAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/log.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { unique } from "../helpers/db.ts";
import { createScratchDb, type ScratchDb } from "../helpers/postgres-server.ts";
import { ADMIN_TOKEN } from "../helpers/server.ts";
import { makeStatementPdf } from "../jobs/support/statement-pdf.ts";

/**
 * Issue 29 item 13 on the real PostgreSQL server: a cancel that arrives while a finished parse's
 * use is being written must not be answered "cancelled, not counted" when the write then commits
 * a success. The write is held for a moment by a row lock from another connection (what a busy
 * database does by itself), and the cancel is sent meanwhile; what the cancel answers and what
 * the database holds must agree.
 */
let scratch: ScratchDb;
let server: RunningServer;
afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
});

describe("cancel vs success", () => {
  test("a cancel during the success write is refused (409 job_finished) and the parse is counted once", async () => {
    scratch = await createScratchDb("stp_cancel_race");
    const config = loadConfig({}, { DATABASE_URL: scratch.url, PORT: "0", HOST: "127.0.0.1", ADMIN_TOKEN, WORKERS: "1", TEST_MONTHLY_CAP: "100", LOG_LEVEL: "silent" });
    server = await startServer({ config, log: createLogger("silent") });
    const owner = unique("race");
    const made = await fetch(`${server.url}/v1/keys/test`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" }, body: JSON.stringify({ owner }) });
    const { key } = (await made.json()) as { key: string };
    const auth = { authorization: `Bearer ${key}` };
    const form = new FormData();
    form.append("pdf", new File([(await makeStatementPdf({ pages: 5 })) as Uint8Array<ArrayBuffer>], "statement.pdf"));
    const created = await fetch(`${server.url}/v1/parse/jobs`, { method: "POST", headers: auth, body: form });
    expect(created.status).toBe(202);
    const { poll_url } = (await created.json()) as { poll_url: string };

    let cancel: { status: number; body: Record<string, unknown> } | undefined;
    await scratch.sql.begin(async (tx) => {
      // The reservation row is locked: the success write (update ... where state = 'reserved') waits.
      for (let i = 0; i < 400; i++) {
        if ((await tx`select id from parse_usage where owner = ${owner} for update`).length === 1) break;
        await Bun.sleep(25);
      }
      // Wait until the parse has ended and its write is blocked on the lock.
      let blocked = false;
      for (let i = 0; i < 600 && !blocked; i++) {
        const waiting = await scratch.sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like 'update parse_usage%'`;
        blocked = waiting.length > 0;
        if (!blocked) await Bun.sleep(25);
      }
      expect(blocked).toBe(true);
      const res = await fetch(`${server.url}${poll_url}`, { method: "DELETE", headers: auth });
      cancel = { status: res.status, body: (await res.json()) as Record<string, unknown> };
    });
    // The lock is gone: the write completes. What was said and what is counted must agree.
    let state = "reserved";
    for (let i = 0; i < 100 && state === "reserved"; i++) {
      state = (await scratch.sql<{ state: string }[]>`select state from parse_usage where owner = ${owner}`)[0]!.state;
      if (state === "reserved") await Bun.sleep(50);
    }
    expect({ cancel: cancel!.status, errorClass: cancel!.body.error_class, state }).toEqual({ cancel: 409, errorClass: "job_finished", state: "succeeded" });
    const snapshot = (await (await fetch(`${server.url}${poll_url}`, { headers: auth })).json()) as { state: string };
    expect(snapshot.state).toBe("done");
  }, 60_000);
});
