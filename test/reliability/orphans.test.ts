import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { statementPdf } from "../../bench/generate.ts";
import { type ChildServer, childTestKey, startChildServer } from "../helpers/child-server.ts";
import { unique } from "../helpers/db.ts";
import { createScratchDb, type ScratchDb } from "../helpers/postgres-server.ts";
import { makeStatementPdf } from "../jobs/support/statement-pdf.ts";

/**
 * Issue 15 item 9: a server killed with -9 mid-parse leaves its reservation 'reserved'. It used to
 * hold its cap place for METERING_RESERVATION_TTL_S (15 minutes): a test key with a cap of 1 got
 * only the canned sample after the restart. Now reservations carry the instance id and a
 * starting server releases those of instances that no longer run: on PGlite all of them (one
 * server per data directory), on PostgreSQL those whose instance lock is gone.
 */
const root = mkdtempSync(join(tmpdir(), "stp-orphans-"));
let scratch: ScratchDb | undefined;
const running: ChildServer[] = [];
afterAll(async () => {
  for (const s of running) await s.stop().catch(() => {});
  await scratch?.drop();
  rmSync(root, { recursive: true, force: true });
});

async function parseOnce(server: ChildServer, key: string, pdf: Uint8Array): Promise<{ status: number; sample: boolean }> {
  const form = new FormData();
  form.append("pdf", new File([new Uint8Array(pdf)], "statement.pdf"));
  const res = await server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
  await res.arrayBuffer();
  return { status: res.status, sample: res.headers.get("x-sample") === "true" };
}

/** Submits a long job (its reservation is written before the 202) and kills the server at once. */
async function killMidParse(server: ChildServer, key: string): Promise<void> {
  const form = new FormData();
  form.append("pdf", new File([new Uint8Array(await makeStatementPdf({ pages: 80 }))], "long.pdf"));
  const res = await server.fetch("/v1/parse/jobs", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
  expect(res.status).toBe(202);
  server.proc.kill("SIGKILL");
  await server.proc.exited;
}

describe("reservations of a server killed with -9", () => {
  test("PGlite: the restarted server releases them, so a capped key gets a real parse, not the sample", async () => {
    const env = { DATA_DIR: join(root, "data"), TEST_MONTHLY_CAP: "1", WORKERS: "1" };
    const first = await startChildServer(env);
    const key = await childTestKey(first, unique("orphan"));
    await killMidParse(first, key);
    const second = await startChildServer(env);
    running.push(second);
    const answer = await parseOnce(second, key, await makeStatementPdf({ pages: 1 }));
    expect(answer).toEqual({ status: 200, sample: false });
    // The cap (1) is now used by that parse: the next one is the sample.
    expect((await parseOnce(second, key, await makeStatementPdf({ pages: 1 }))).sample).toBe(true);
  }, 120_000);

  test("PostgreSQL: a starting server releases the reservations of an instance that died, not of one that runs", async () => {
    scratch = await createScratchDb("stp_orphans");
    const env = { DATABASE_URL: scratch.url, TEST_MONTHLY_CAP: "5", WORKERS: "1" };
    const alive = await startChildServer(env);
    running.push(alive);
    const doomed = await startChildServer(env);
    const [aliveKey, doomedKey] = [await childTestKey(alive, unique("alive")), await childTestKey(doomed, unique("doomed"))];
    // A reservation of the running instance, in flight while the other is killed and a new server
    // starts: 1,500 pages on one worker take several seconds (80 pages had finished before the check).
    const form = new FormData();
    form.append("pdf", new File([new Uint8Array(await statementPdf(1500))], "long.pdf"));
    expect((await alive.fetch("/v1/parse/jobs", { method: "POST", headers: { authorization: `Bearer ${aliveKey}` }, body: form })).status).toBe(202);
    await killMidParse(doomed, doomedKey);
    const states = async () =>
      (await scratch!.sql`select key_id, state, instance_id from parse_usage order by reserved_at`).map((r) => `${r.state}${r.instance_id ? "" : " (no instance)"}`);
    expect(await states()).toEqual(["reserved", "reserved"]);

    const third = await startChildServer(env);
    running.push(third);
    const rows = await scratch.sql<{ owner: string; state: string }[]>`select owner, state from parse_usage`;
    const byOwner = Object.fromEntries(rows.map((r) => [r.owner.split("-")[0], r.state]));
    expect(byOwner.doomed).toBe("abandoned");
    expect(["reserved", "succeeded"]).toContain(byOwner.alive!);
  }, 120_000);
});
