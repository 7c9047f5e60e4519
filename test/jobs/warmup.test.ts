import { afterAll, describe, expect, test } from "bun:test";
import { parseStatement } from "../../src/engine/index.ts";
import { warmupStatementPdf } from "../../src/engine/warmup/statement-pdf.ts";
import { createWorkerPool } from "../../src/jobs/pool.ts";
import { runDocument } from "../../src/jobs/runner.ts";
import { HEAP_CHECK_IDLE_MS } from "../../src/jobs/tasks.ts";
import { warmUp, WARMUP_PLAN } from "../../src/jobs/warmup.ts";
import { makeStatementPdf } from "./support/statement-pdf.ts";

const limits = { maxPages: 3000, maxXlsxRows: 200_000, maxXlsxInflatedBytes: 200 * 1024 * 1024 };
const shared = (bytes: Uint8Array) => {
  const sab = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(sab).set(bytes);
  return sab;
};

describe("the warm-up document", () => {
  test("parses as a chained statement with every row read", async () => {
    const bytes = await warmupStatementPdf({ pages: 3, rowsPerPage: 20 });
    const response = await parseStatement(bytes, {});
    expect(response.transactions.length).toBe(60);
    expect(response.checks.row_chain).toBe(true);
    expect(response.metadata.account_holder).toBe("WARMUP CUSTOMER");
  });
});

describe("warmUp", () => {
  test("runs every round on its own copy of the document and reports it", async () => {
    const seen: Uint8Array[] = [];
    const report = await warmUp(async (bytes, pages) => {
      expect(pages).toBe(2);
      seen.push(bytes);
    }, { rounds: 3, pages: 2, rowsPerPage: 5 });
    expect(report).toMatchObject({ ok: true, rounds: 3 });
    expect(seen.length).toBe(3);
    expect(seen[0]).not.toBe(seen[1]);
    expect(seen[0]).toEqual(seen[1]!);
  });

  test("a failing round is reported, never thrown", async () => {
    let calls = 0;
    const report = await warmUp(async () => {
      if (++calls === 2) throw new Error("boom in round two");
    }, { rounds: 4, pages: 1, rowsPerPage: 3 });
    expect(report.ok).toBe(false);
    expect(report.rounds).toBe(1);
    expect(report.error).toBe("boom in round two");
  });
});

describe("parse workers started with warm-up", () => {
  const pool = createWorkerPool({ threads: 2, warmup: true });
  afterAll(() => pool.destroy());

  test("every worker warms before answering its readiness ping, and then parses as usual", async () => {
    await pool.warm();
    expect(pool.ready()).toBe(true);
    const pings = await Promise.all([pool.run({ op: "ping" }), pool.run({ op: "ping" })]);
    for (const { warmup } of pings) {
      expect(warmup).toMatchObject({ ok: true, rounds: WARMUP_PLAN.rounds });
      expect(warmup!.cpuMs).toBeGreaterThan(0);
    }
    const bytes = await makeStatementPdf({ pages: 12 });
    const out = await runDocument({ pool, timeoutMs: 60_000, freeWorkers: () => 2 }, { kind: "json", doc: { bytes: shared(bytes), limits } });
    if (out.kind !== "json") throw new Error("expected json");
    expect((JSON.parse(out.json) as { transactions: unknown[] }).transactions.length).toBe(12 * 22);
  }, 120_000);

  test("the warm-up leaves no garbage that would make a worker retire at the default heap limit", async () => {
    const limited = createWorkerPool({ threads: 1, warmup: true, maxHeapMb: 256 });
    try {
      const first = await limited.run({ op: "ping" });
      expect(first.warmup!.ok).toBe(true);
      expect(first.warmup!.heapBytes!).toBeLessThan(256 * 1024 * 1024);
      // The heap check runs once the worker has been idle; a retired worker would answer as a new instance.
      await Bun.sleep(HEAP_CHECK_IDLE_MS + 300);
      expect((await limited.run({ op: "ping" })).instance).toBe(first.instance);
    } finally {
      await limited.destroy();
    }
  }, 60_000);

  test("without warm-up the ping says so", async () => {
    const cold = createWorkerPool({ threads: 1 });
    try {
      expect((await cold.run({ op: "ping" })).warmup).toBeNull();
    } finally {
      await cold.destroy();
    }
  }, 60_000);
});

describe("a worker whose warm-up fails", () => {
  const pool = createWorkerPool({ threads: 1, warmup: true, filename: new URL("./support/warmup-fails.worker.ts", import.meta.url).href });
  afterAll(() => pool.destroy());

  test("still answers readiness, reports the failure, and parses", async () => {
    await pool.warm();
    expect(pool.ready()).toBe(true);
    const { warmup } = await pool.run({ op: "ping" });
    expect(warmup).toMatchObject({ ok: false, rounds: 0 });
    expect(warmup!.error).toContain("warm-up made to fail");
    const bytes = await makeStatementPdf({ pages: 2 });
    const out = await runDocument({ pool, timeoutMs: 60_000, freeWorkers: () => 1 }, { kind: "json", doc: { bytes: shared(bytes), limits } });
    if (out.kind !== "json") throw new Error("expected json");
    expect((JSON.parse(out.json) as { transactions: unknown[] }).transactions.length).toBe(44);
  }, 60_000);
});
