/**
 * A scan read by the OCR pool holds no running place among the documents parsed at once (WORKERS):
 * with one parse thread, a text statement posted while a scan is being read by OCR is parsed at
 * once, not after the scan (real HTTP; one OCR worker).
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ParseResponse } from "../../src/engine/types.ts";
import { DocumentGate } from "../../src/jobs/gate.ts";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");
const server = await startTestServer({ FIRST_PARTY_IP_MONTHLY_CAP: "10000", WORKERS: "1", OCR_WORKERS: "1", PARSE_TIMEOUT_MS: "240000" });
afterAll(() => server.stop());

const issued = await server.admin("/v1/keys", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "ocr-admission", owner: unique(), tier: "first_party" }),
});
const { key } = (await issued.json()) as { key: string };
const headers = { authorization: `Bearer ${key}`, "x-first-party-client-ip": "203.0.113.9" };
const form = (file: string) => {
  const f = new FormData();
  f.append("pdf", new Blob([readFileSync(join(FIXTURES, file))]), "statement.pdf");
  return f;
};

interface Snapshot {
  state: string;
  progress: { stage: string; current: number; total: number };
}

test("a text parse posted while a scan is read by OCR is answered before the scan, with one parse thread", async () => {
  const created = await server.fetch("/v1/parse/jobs", { method: "POST", headers, body: form("scans/zenith-scan.pdf") });
  expect(created.status).toBe(202);
  const { poll_url } = (await created.json()) as { poll_url: string };
  // Wait until the scan has left the parse pool for the OCR pool.
  let snap: Snapshot;
  for (;;) {
    snap = (await (await server.fetch(poll_url, { headers })).json()) as Snapshot;
    if (snap.progress.stage === "ocr" || snap.state === "done" || snap.state === "failed") break;
    await Bun.sleep(50);
  }
  expect(snap.progress.stage).toBe("ocr");
  const res = await server.fetch("/v1/parse", { method: "POST", headers, body: form("zenith/statement.pdf") });
  expect(res.status).toBe(200);
  expect(((await res.json()) as ParseResponse).row_wise_reconcilable).toBe(true);
  // The text parse did not wait for the scan: the scan is still being read.
  snap = (await (await server.fetch(poll_url, { headers })).json()) as Snapshot;
  expect(snap.state).toBe("running");
  for (;;) {
    snap = (await (await server.fetch(poll_url, { headers })).json()) as Snapshot;
    if (snap.state === "done" || snap.state === "failed") break;
    await Bun.sleep(200);
  }
  expect(snap.state).toBe("done");
}, 180_000);

test("Ticket.stepAside: the running place goes to the next document waiting; the key's place stays held until release, and release frees nothing twice", async () => {
  const gate = new DocumentGate({ concurrency: 1, maxQueued: 4, maxPerKey: 2 });
  const scan = gate.enter("k");
  await scan.started;
  const text = gate.enter("other");
  let textStarted = false;
  void text.started.then(() => (textStarted = true));
  await Bun.sleep(0);
  expect(textStarted).toBe(false);
  scan.stepAside();
  await Bun.sleep(0);
  expect(textStarted).toBe(true);
  expect(gate.runningCount).toBe(1);
  // The scan still holds its key's place: the key's limit of 2 leaves room for one more, not two.
  const second = gate.enter("k");
  expect(() => gate.enter("k")).toThrow("At most 2 parses");
  scan.stepAside();
  scan.release();
  expect(gate.runningCount).toBe(1);
  text.release();
  await second.started;
  expect(gate.runningCount).toBe(1);
  second.release();
  expect(gate.runningCount).toBe(0);
  expect(gate.queuedCount).toBe(0);
});
