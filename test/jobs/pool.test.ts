import { afterAll, describe, expect, test } from "bun:test";
import { PDFDocument } from "pdf-lib";
import type { ParseResponse, Progress } from "../../src/engine/types.ts";
import { AppError } from "../../src/errors.ts";
import { DEFAULT_PDF_EXTRACTOR, PDF_EXTRACTORS } from "../../src/engine/pdf/extractor-name.ts";
import { firstRangeBonus, orderParts, planRanges, rangeCount, splitCosts } from "../../src/jobs/planner.ts";
import { createWorkerPool, type RunOptions, type TaskInput, type WorkerPool } from "../../src/jobs/pool.ts";
import { runDocument } from "../../src/jobs/runner.ts";
import { type DocumentInput, HEAP_CHECK_EVERY, HEAP_CHECK_IDLE_MS } from "../../src/jobs/tasks.ts";
import { makeStatementPdf } from "./support/statement-pdf.ts";

const share = (bytes: Uint8Array): SharedArrayBuffer => {
  const sab = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(sab).set(bytes);
  return sab;
};
const doc = (bytes: Uint8Array, extra: Partial<DocumentInput> = {}): DocumentInput => ({
  bytes: share(bytes),
  limits: { maxPages: 3000, maxXlsxRows: 200_000, maxXlsxInflatedBytes: 200 * 1024 * 1024 },
  ...extra,
});

describe("planRanges / orderParts", () => {
  test("covers every page once, in order, in near-equal ranges", () => {
    expect(planRanges(24, 2)).toEqual([{ first: 1, last: 12 }, { first: 13, last: 24 }]);
    expect(planRanges(10, 3)).toEqual([{ first: 1, last: 5 }, { first: 6, last: 10 }]);
    expect(planRanges(3, 4)).toEqual([{ first: 1, last: 3 }]);
    // The first range's bonus pages come out of the others', never below the minimum range.
    expect(planRanges(2000, 2, 140)).toEqual([{ first: 1, last: 1070 }, { first: 1071, last: 2000 }]);
    expect(planRanges(10, 2, 5)).toEqual([{ first: 1, last: 6 }, { first: 7, last: 10 }]);
    // A negative bonus makes the first range smaller, never below the minimum range.
    expect(planRanges(2000, 2, -11)).toEqual([{ first: 1, last: 995 }, { first: 996, last: 2000 }]);
    expect(planRanges(12, 2, -100)).toEqual([{ first: 1, last: 4 }, { first: 5, last: 12 }]);
    for (const [pages, workers, bonus] of [[25, 4, 0], [9, 2, 0], [100, 7, 0], [100, 7, 7], [9, 2, 3], [9, 2, -3], [100, 7, -20], [2000, 3, -50]] as const) {
      const r = planRanges(pages, workers, bonus);
      expect(r[0]!.first).toBe(1);
      expect(r.at(-1)!.last).toBe(pages);
      r.slice(1).forEach((x, i) => expect(x.first).toBe(r[i]!.last + 1));
      for (const x of r) expect(x.last - x.first + 1).toBeGreaterThanOrEqual(4);
    }
  }, 60_000);
  test("the first range's bonus evens out what the planning task and the others do besides reading", () => {
    for (const [c, pages, workers] of PDF_EXTRACTORS.flatMap((e) => ([[2000, 2], [2000, 3], [500, 2], [24, 2]] as const).map(([p, w]) => [splitCosts(e), p, w] as const))) {
      const parts = rangeCount(pages, workers);
      const [first, ...others] = planRanges(pages, workers, firstRangeBonus(pages, parts, c));
      const size = (r: { first: number; last: number }) => r.last - r.first + 1;
      const planner = size(first!) * c.readPerPage + pages * c.byteFactsPerPage;
      const slowest = Math.max(...others.map((r) => c.open + size(r) * (c.readPerPage + c.encodePerPage)));
      // The planning task ends last, by at most two pages of reading: the bonus is rounded up, and
      // planRanges may give the first range one page of the remainder too.
      expect(planner).toBeGreaterThanOrEqual(slowest - c.readPerPage);
      expect(planner - slowest).toBeLessThanOrEqual(2 * c.readPerPage + 1);
    }
    // On the bench statement the byte facts outweigh opening again: the planner reads fewer pages.
    for (const e of PDF_EXTRACTORS) {
      expect(firstRangeBonus(2000, 2, splitCosts(e))).toBeLessThan(0);
      expect(firstRangeBonus(2000, 1, splitCosts(e))).toBe(0);
    }
  });
  test("orders out-of-order ranges by first page and refuses gaps, overlaps and short covers", () => {
    expect(orderParts([{ first: 3, count: 2 }, { first: 1, count: 2 }], 4).map((p) => p.first)).toEqual([1, 3]);
    expect(() => orderParts([{ first: 1, count: 1 }, { first: 3, count: 1 }], 3)).toThrow();
    expect(() => orderParts([{ first: 1, count: 2 }, { first: 2, count: 2 }], 3)).toThrow();
    expect(() => orderParts([{ first: 1, count: 2 }], 3)).toThrow();
  }, 60_000);
});

describe("worker pool with the real engine", () => {
  const pool = createWorkerPool({ threads: 2 });
  afterAll(() => pool.destroy());

  test("a large PDF's pages are parsed by more than one worker thread, merged to the same result", async () => {
    await pool.warm();
    const bytes = await makeStatementPdf({ pages: 24 });
    const ranges: { first: number; last: number; threadId: number }[] = [];
    const progress: Progress[] = [];
    const split = await runDocument(
      { pool, timeoutMs: 120_000, freeWorkers: () => 2 },
      { kind: "json", doc: doc(bytes) },
      { onRange: (r) => ranges.push(r), onProgress: (p) => progress.push(p) },
    );
    expect(ranges.length).toBe(2);
    expect(new Set(ranges.map((r) => r.threadId)).size).toBe(2);
    // On 24 pages the other task's opening the document again outweighs the byte facts: the
    // planning task reads more (see firstRangeBonus).
    const [first] = planRanges(24, 2, firstRangeBonus(24, 2, splitCosts(DEFAULT_PDF_EXTRACTOR)));
    expect(first!.last).toBeGreaterThan(12);
    expect(ranges.map((r) => [r.first, r.last]).sort((a, b) => a[0]! - b[0]!)).toEqual([[1, first!.last], [first!.last + 1, 24]]);
    // One progress message per page, counting up to the total without a gap.
    const pages = progress.filter((p) => p.stage === "extract");
    expect(pages.map((p) => p.current)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(pages.every((p) => p.total === 24)).toBe(true);
    expect(progress.slice(24)).toEqual([{ stage: "assemble", current: 0, total: 1 }, { stage: "assemble", current: 1, total: 1 }]);

    const whole = await runDocument({ pool, timeoutMs: 120_000, freeWorkers: () => 1 }, { kind: "json", doc: doc(bytes) });
    if (split.kind !== "json" || whole.kind !== "json") throw new Error("expected json results");
    expect(split.json).toBe(whole.json);
    const response = JSON.parse(split.json) as ParseResponse;
    expect(response.transactions.length).toBe(24 * 22);
    expect(response.transactions[0]!.narration).toContain("TRANSFER FROM PAYER 1");
    expect(response.transactions.at(-1)!.narration).toContain("POS PURCHASE SHOP 528");
  }, 60_000);

  type Timing = "queued ranges" | "running ranges" | "finished ranges";
  /**
   * The pool as the runner sees it, with the timing of one split document under the test's
   * control, relative to the planning task asking for the other ranges (`want-parts`): the other
   * range's task "queued" (not started until then), "running" (started, its result held until
   * then) or "finished" (the question held until it is in). Records the ops that ran.
   */
  function timedPool(timing: Timing): WorkerPool & { ops: string[] } {
    const ops: string[] = [];
    const ranges: Promise<unknown>[] = [];
    const gate = () => {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { open, opened };
    };
    const asked = gate();
    const started = gate();
    return {
      ...pool,
      ops,
      run: (async (task: TaskInput, options: RunOptions = {}) => {
        ops.push(task.op);
        if (task.op === "pages") {
          if (timing === "queued ranges") await asked.opened;
          const onMessage = options.onMessage;
          const out = pool.run(task, { ...options, onMessage: (m, reply) => (started.open(), onMessage?.(m, reply)) });
          ranges.push(out);
          const value = await out;
          if (timing === "running ranges") await asked.opened;
          return value;
        }
        const onMessage = options.onMessage;
        return pool.run(task, {
          ...options,
          onMessage: (m, reply) => {
            if (m.type !== "want-parts") return onMessage?.(m, reply);
            const ask = () => (onMessage?.(m, reply), asked.open());
            // Sleeps: the runner's own .then()s on a finished range run first.
            if (timing === "finished ranges") void Promise.all(ranges).then(() => Bun.sleep(0)).then(ask);
            else if (timing === "running ranges") void started.opened.then(() => Bun.sleep(0)).then(ask);
            else ask();
          },
        });
      }) as WorkerPool["run"],
    };
  }

  for (const timing of ["queued ranges", "running ranges", "finished ranges"] as const) {
    const inPlace = timing !== "queued ranges";
    test(`split with ${timing}: assembled ${inPlace ? "in place" : "in an assemble task"}, same result as whole`, async () => {
      const bytes = await makeStatementPdf({ pages: 24 });
      const timed = timedPool(timing);
      const progress: Progress[] = [];
      const ranges: number[] = [];
      const split = await runDocument(
        { pool: timed, timeoutMs: 120_000, freeWorkers: () => 2 },
        { kind: "csv", doc: doc(bytes) },
        { onProgress: (p) => progress.push(p), onRange: (r) => ranges.push(r.first) },
      );
      expect(timed.ops).toEqual(inPlace ? ["parse", "pages"] : ["parse", "pages", "assemble"]);
      expect(ranges.sort((a, b) => a - b)).toEqual([1, planRanges(24, 2, firstRangeBonus(24, 2, splitCosts(DEFAULT_PDF_EXTRACTOR)))[1]!.first]);
      expect(progress.filter((p) => p.stage === "assemble")).toEqual([{ stage: "assemble", current: 0, total: 1 }, { stage: "assemble", current: 1, total: 1 }]);
      const whole = await runDocument({ pool, timeoutMs: 120_000, freeWorkers: () => 1 }, { kind: "csv", doc: doc(bytes) });
      if (split.kind !== "csv" || whole.kind !== "csv") throw new Error("expected csv results");
      expect(split.json).toBe(whole.json);
      expect(split.csv).toBe(whole.csv);
    }, 60_000);
  }

  test("a large PDF without any text fails as scanned_document when split, as it does whole", async () => {
    const pdf = await PDFDocument.create();
    for (let i = 0; i < 12; i++) pdf.addPage([595, 842]).drawRectangle({ x: 40, y: 40, width: 100, height: 20 });
    const bytes = await pdf.save();
    for (const workers of [2, 1]) {
      let ranges = 0;
      const err = await runDocument(
        { pool, timeoutMs: 60_000, freeWorkers: () => workers },
        { kind: "json", doc: doc(bytes) },
        { onRange: () => ranges++ },
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).errorClass).toBe("scanned_document");
      expect(ranges).toBe(workers === 2 ? 2 : 0);
    }
  }, 60_000);

  test("PARSE_TIMEOUT aborts the task in its worker with parse_timeout, and the pool carries on", async () => {
    const bytes = await makeStatementPdf({ pages: 24 });
    const err = await runDocument({ pool, timeoutMs: 30, freeWorkers: () => 2 }, { kind: "json", doc: doc(bytes) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).errorClass).toBe("parse_timeout");
    expect(await pool.run({ op: "ping" })).toHaveProperty("threadId");
  }, 60_000);
});

describe("worker recycling", () => {
  // Any worker that has loaded the engine is over 1 MiB, so each one retires at its first check.
  const pool = createWorkerPool({ threads: 1, maxHeapMb: 1 });
  afterAll(() => pool.destroy());

  test("a worker over the heap limit retires once idle; the next task runs on its replacement", async () => {
    const first = await pool.run({ op: "ping" });
    const bytes = await Bun.file("/work/shared/samples/firstbank.pdf").bytes();
    const parsed = await runDocument({ pool, timeoutMs: 60_000, freeWorkers: () => 1 }, { kind: "csv", doc: doc(bytes) });
    expect(parsed.kind).toBe("csv");
    if (parsed.kind === "csv") expect(parsed.csv.startsWith("date,time,narration,debit,credit,balance,reference,currency")).toBe(true);
    await Bun.sleep(HEAP_CHECK_IDLE_MS + 200);
    const later = await pool.run({ op: "ping" });
    expect(later.instance).not.toBe(first.instance);
  }, 60_000);

  test("without a pause, it retires after HEAP_CHECK_EVERY tasks", async () => {
    const busy = createWorkerPool({ threads: 1, maxHeapMb: 1 });
    try {
      const seen: string[] = [];
      for (let k = 0; k <= HEAP_CHECK_EVERY; k++) seen.push((await busy.run({ op: "ping" })).instance);
      // One thread: the first HEAP_CHECK_EVERY pings on one worker, the next on its replacement.
      expect(new Set(seen.slice(0, HEAP_CHECK_EVERY)).size).toBe(1);
      expect(seen[HEAP_CHECK_EVERY]).not.toBe(seen[0]);
    } finally {
      await busy.destroy();
    }
  }, 60_000);
});

describe("worker pool failure paths", () => {
  const pool = createWorkerPool({ threads: 2, filename: new URL("./support/faulty.worker.ts", import.meta.url).href });
  afterAll(() => pool.destroy());
  const ctx = (timeoutMs = 60_000) => ({ pool, timeoutMs, freeWorkers: () => 1 });

  test("a crashed worker fails only its own task and is replaced", async () => {
    const bystander = pool.run({ op: "ping" });
    const err = await runDocument(ctx(), { kind: "json", doc: doc(new Uint8Array([1]), { bank: "crash" }) }).catch((e: unknown) => e);
    expect((err as AppError).errorClass).toBe("worker_crashed");
    expect((err as AppError).status).toBe(500);
    expect(await bystander).toHaveProperty("threadId");
    const after = await Promise.all([pool.run({ op: "ping" }), pool.run({ op: "ping" })]);
    expect(after.length).toBe(2);
  }, 60_000);

  test("a task that never returns is terminated at the time limit", async () => {
    const started = performance.now();
    const err = await runDocument(ctx(300), { kind: "json", doc: doc(new Uint8Array([1]), { bank: "hang" }) }).catch((e: unknown) => e);
    expect((err as AppError).errorClass).toBe("parse_timeout");
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await pool.run({ op: "ping" })).toHaveProperty("threadId");
  }, 60_000);
});
