import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resultResponse } from "../../src/http/parse.ts";
import { eventChunks, sseResponse } from "../../src/http/sse.ts";
import { Job } from "../../src/jobs/job.ts";
import { createWorkerPool } from "../../src/jobs/pool.ts";
import { resultAs } from "../../src/jobs/result-formats.ts";
import { withUtf8 } from "../../src/jobs/result-text.ts";
import { runDocument } from "../../src/jobs/runner.ts";
import { closeInsightsPool, insightsOffThread } from "../../src/output/insights-pool.ts";
import type { DocumentInput } from "../../src/jobs/tasks.ts";

const share = (bytes: Uint8Array): SharedArrayBuffer => {
  const sab = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(sab).set(bytes);
  return sab;
};
const docOf = (bytes: Uint8Array): DocumentInput => ({ bytes: share(bytes), limits: { maxPages: 3000, maxXlsxRows: 200_000, maxXlsxInflatedBytes: 200 * 1024 * 1024 } });

// Text outside ASCII and outside Latin-1: its UTF-8 is longer than the string, and a wrong decode shows.
const TEXT = JSON.stringify({ transactions: [{ narration: "Café ₦5,000 — Ọ̀ṣun 👍" }] });
const utf8 = () => new TextEncoder().encode(TEXT);

describe("a result's JSON held as the worker's UTF-8 (src/jobs/result-text.ts)", () => {
  const pool = createWorkerPool({ threads: 2 });
  afterAll(async () => {
    await pool.destroy();
    await closeInsightsPool();
  });

  test("a parse arrives as bytes; its text, every response and the CSV made from it agree", async () => {
    const bytes = new Uint8Array(readFileSync("fixtures/replicas/alat_short.pdf"));
    const ctx = { pool, timeoutMs: 60_000, freeWorkers: () => 2 };
    const result = await runDocument(ctx, { kind: "json", doc: docOf(bytes) });
    if (result.kind !== "json" || !result.utf8) throw new Error("the worker's bytes expected");
    // In shared memory: the insights thread reads the kept bytes without a copy.
    expect(result.utf8.buffer).toBeInstanceOf(SharedArrayBuffer);
    const text = new TextDecoder().decode(result.utf8);
    expect(result.json).toBe(text);
    expect((JSON.parse(result.json) as { transactions: unknown[] }).transactions.length).toBeGreaterThan(0);
    const sent = resultResponse(result);
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(new Uint8Array(result.utf8));
    // The same parse asked as CSV from its kept JSON, and as CSV by the worker.
    const csv = await resultAs(result, "csv");
    const byWorker = await runDocument(ctx, { kind: "csv", doc: docOf(bytes) });
    if (csv?.kind !== "csv" || byWorker.kind !== "csv") throw new Error("csv expected");
    expect(csv.csv).toBe(byWorker.csv);
    expect(byWorker.json).toBe(text);
    // Its insights made from the held bytes (decoded on the insights thread) equal those made from the text.
    const fromBytes = await insightsOffThread(result.utf8, "json");
    if (fromBytes.kind !== "json") throw new Error("json asked");
    expect(fromBytes.utf8).toEqual((await insightsOffThread(text, "json") as { utf8: Uint8Array<ArrayBuffer> }).utf8);
    expect((JSON.parse(fromBytes.json) as { insights?: unknown }).insights).toBeDefined();
  }, 60_000);

  test("text beyond Latin-1 decodes as written and is sent byte for byte", async () => {
    const result = withUtf8({ kind: "json" as const }, utf8());
    expect(result.json).toBe(TEXT);
    const sent = resultResponse(result);
    expect(await sent.text()).toBe(TEXT);
    // A csv job's result read as JSON keeps the bytes.
    const asJson = await resultAs(withUtf8({ kind: "csv" as const, csv: "a,b\n" }, utf8()), "json");
    expect(asJson?.kind === "json" && asJson.utf8).toEqual(utf8());
  });

  test("a job holding the bytes counts them once, and its stream and snapshot carry the text", () => {
    const job = new Job("job_bytes", "o", "json");
    const held = utf8();
    job.succeed(withUtf8({ kind: "json" as const }, held));
    // The bytes, not the text at two bytes a character beside them.
    expect(job.size()).toBe(1024 + held.byteLength);
    const [final] = job.replay();
    expect(final?.event).toBe("result");
    expect(final?.data).toBe(TEXT);
    expect((JSON.parse(job.snapshotJson()) as { result: unknown }).result).toEqual(JSON.parse(TEXT));
    // The poll endpoint's body: the same snapshot, as bytes around the held ones.
    const body = job.snapshotBody();
    expect(body).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(body as Uint8Array)).toBe(job.snapshotJson());
  });

  test("a stream sends the held bytes as they are, and as text lines when they hold a line break", async () => {
    const held = utf8();
    const chunks = eventChunks({ id: 3, event: "result", data: held });
    expect(chunks).toEqual(["event: result\nid: 3\ndata: ", held, "\n\n"]);
    expect(chunks[1]).toBe(held);
    const broken = new TextEncoder().encode('{"a":1}\n{"b":2}');
    expect(eventChunks({ id: 4, data: broken })).toEqual(["id: 4\ndata: {\"a\":1}\ndata: {\"b\":2}\n\n"]);
    // Sent twice (a second consumer after the end gets the result again): the held bytes stay whole.
    for (let i = 0; i < 2; i++) {
      const res = sseResponse({ run: async (send) => send({ id: 3, event: "result", data: held }) }, { heartbeatMs: 60_000 });
      expect(await res.text()).toBe(`: connected\n\nevent: result\nid: 3\ndata: ${TEXT}\n\n`);
    }
    expect(held.byteLength).toBe(utf8().byteLength);
    expect(new TextDecoder().decode(held)).toBe(TEXT);
  });
});
