import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPglite } from "../../src/db/client.ts";
import { childTestKey, startChildServer } from "../helpers/child-server.ts";
import { makeStatementPdf } from "../jobs/support/statement-pdf.ts";

/**
 * Issue 29 item 17, on the real server process: a second SIGTERM (or a SIGINT after it) during
 * the drain neither kills the process nor skips the drain: the parses running and queued are
 * answered, their use is written (the metering flush), and the process exits 0.
 */
const root = mkdtempSync(join(tmpdir(), "stp-signal-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a second signal during the drain", () => {
  test("is ignored: the parses running and waiting are answered and counted, exit 0", async () => {
    const dataDir = join(root, "data");
    const server = await startChildServer({ DATA_DIR: dataDir, WORKERS: "1", TEST_MONTHLY_CAP: "10", MAX_INFLIGHT_PER_KEY: "8", SHUTDOWN_GRACE_S: "30" });
    let exitCode: number | null;
    try {
      const owner = `signal-${crypto.randomUUID().slice(0, 8)}`;
      const key = await childTestKey(server, owner);
      for (let i = 0; i < 200 && (await server.fetch("/readyz")).status !== 200; i++) await Bun.sleep(100);
      const pdf = (await makeStatementPdf({ pages: 60 })) as Uint8Array<ArrayBuffer>;
      // Three parses on one worker, one after the other.
      const parses = Array.from({ length: 3 }, () => {
        const form = new FormData();
        form.append("pdf", new Blob([pdf]), "statement.pdf");
        return server
          .fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form })
          .then(async (r) => ({ status: r.status, rows: ((await r.json()) as { transactions?: unknown[] }).transactions?.length ?? 0 }))
          .catch((e: unknown) => ({ status: 0, rows: 0, error: String(e) }));
      });
      // Signalled once the first has finished: the other two are still to run.
      for (let i = 0; i < 3000 && !server.logs.some((l) => l.msg === "parse finished"); i++) await Bun.sleep(10);
      expect(server.logs.filter((l) => l.msg === "parse finished").length).toBe(1);
      server.proc.kill("SIGTERM");
      await Bun.sleep(150);
      server.proc.kill("SIGTERM");
      await Bun.sleep(50);
      server.proc.kill("SIGINT");
      expect(await Promise.all(parses)).toEqual(Array.from({ length: 3 }, () => ({ status: 200, rows: 60 * 22 })));
      exitCode = await server.proc.exited;
      expect(exitCode).toBe(0);
      expect(server.logs.filter((l) => l.msg === "shutting down").length).toBe(1);
      const db = await openPglite(dataDir);
      try {
        const rows = await db.query<{ state: string }>(`select state from parse_usage where owner = $1`, [owner]);
        expect(rows.map((r) => r.state)).toEqual(["succeeded", "succeeded", "succeeded"]);
      } finally {
        await db.close();
      }
    } finally {
      if (server.proc.exitCode === null) server.proc.kill("SIGKILL");
    }
  }, 120_000);
});
