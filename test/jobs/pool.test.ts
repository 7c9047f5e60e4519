import { afterAll, describe, expect, test } from "bun:test";
import { PDFDocument } from "pdf-lib";
import type { ParseResponse, Progress } from "../../src/engine/types.ts";
import { AppError } from "../../src/errors.ts";
import { DEFAULT_PDF_EXTRACTOR, PDF_EXTRACTORS } from "../../src/engine/pdf/extractor-name.ts";
import { Worker } from "node:worker_threads";
import { CLAIM_PAGES, createClaims, type PageBlock, PageClaims } from "../../src/jobs/claims.ts";
import { helperCount, orderBlocks } from "../../src/jobs/planner.ts";
import { createWorkerPool, type RunOptions, type TaskInput, type WorkerPool } from "../../src/jobs/pool.ts";
import { runDocument } from "../../src/jobs/runner.ts";
import { type DocumentInput, HEAP_CHECK_EVERY, HEAP_CHECK_IDLE_MS, type PagesOutput, type PortReply } from "../../src/jobs/tasks.ts";
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

describe("PageClaims / helperCount / orderBlocks", () => {
  const pagesOf = (blocks: PageBlock[]) => blocks.flatMap((b) => Array.from({ length: b.count }, (_, i) => b.first + i));

  test("front and back claims meet in the middle, each page once, the set-apart pages going to a helper's first claim", () => {
    const buffer = createClaims(24, 1);
    const planner = new PageClaims(buffer);
    const helper = new PageClaims(buffer);
    // The helper's first claim is the last CLAIM_PAGES pages, whatever the planner has read.
    expect(planner.front()).toEqual({ first: 1, count: CLAIM_PAGES });
    expect(helper.back()).toEqual({ first: 24 - CLAIM_PAGES + 1, count: CLAIM_PAGES });
    expect(helper.back()).toEqual({ first: 20 - CLAIM_PAGES + 1, count: CLAIM_PAGES });
    const rest: PageBlock[] = [];
    for (let b = planner.front(); b; b = planner.front()) rest.push(b);
    expect(pagesOf(rest)).toEqual(Array.from({ length: 12 }, (_, i) => i + 5));
    expect(helper.back()).toBeNull();
    expect(planner.exhausted()).toBe(true);
  });

  test("a helper that never starts leaves its set-apart pages to the planner", () => {
    const planner = new PageClaims(createClaims(10, 2));
    const got: PageBlock[] = [];
    for (let b = planner.front(); b; b = planner.front()) got.push(b);
    expect(pagesOf(got)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(new PageClaims(createClaims(3, 2)).back()).toEqual({ first: 1, count: 3 });
  });

  test("threads claiming at once from both ends get every page exactly once", async () => {
    const pageCount = 200_000;
    const buffer = createClaims(pageCount, 3);
    const go = new SharedArrayBuffer(4);
    const helpers = Array.from({ length: 3 }, () => new Worker(new URL("./support/claimer.ts", import.meta.url), { workerData: { buffer, go } }));
    const message = (w: Worker) => new Promise<unknown>((resolve, reject) => (w.once("message", resolve), w.once("error", reject)));
    await Promise.all(helpers.map(message));
    const answers = helpers.map((w) => message(w) as Promise<PageBlock[]>);
    Atomics.store(new Int32Array(go), 0, 1);
    Atomics.notify(new Int32Array(go), 0);
    const planner = new PageClaims(buffer);
    const own: PageBlock[] = [];
    for (let b = planner.front(1); b; b = planner.front(1)) own.push(b);
    const all = [own, ...(await Promise.all(answers))];
    await Promise.all(helpers.map((w) => w.terminate()));
    expect(pagesOf(all.flat()).sort((a, b) => a - b)).toEqual(Array.from({ length: pageCount }, (_, i) => i + 1));
    // The planner and the helpers both claimed: they ran at once (on 2 cores one helper may wake too late to get any).
    expect(own.length).toBeGreaterThan(0);
    expect(all.slice(1).flat().length).toBeGreaterThan(0);
  }, 60_000);

  test("helpers: one per other worker, none with fewer than MIN_PAGES_PER_TASK pages on an even share", () => {
    expect(helperCount(2000, 2)).toBe(1);
    expect(helperCount(2000, 1)).toBe(0);
    expect(helperCount(24, 4)).toBe(3);
    expect(helperCount(9, 4)).toBe(1);
    expect(helperCount(7, 2)).toBe(0);
  });

  test("orders blocks by first page and refuses gaps, overlaps and short covers", () => {
    expect(orderBlocks([{ first: 3, count: 2 }, { first: 1, count: 2 }], 4).map((p) => p.first)).toEqual([1, 3]);
    expect(() => orderBlocks([{ first: 1, count: 1 }, { first: 3, count: 1 }], 3)).toThrow();
    expect(() => orderBlocks([{ first: 1, count: 2 }, { first: 2, count: 2 }], 3)).toThrow();
    expect(() => orderBlocks([{ first: 1, count: 2 }], 3)).toThrow();
  });
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
    expect(new Set(ranges.map((r) => r.threadId)).size).toBe(2);
    // The runs of pages the two threads read cover the document once; the helper's first claim
    // is the last pages (set apart for it), the planning task's the first.
    const covered = ranges.flatMap((r) => Array.from({ length: r.last - r.first + 1 }, (_, i) => r.first + i)).sort((a, b) => a - b);
    expect(covered).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const threadOf = (page: number) => ranges.find((r) => r.first <= page && page <= r.last)!.threadId;
    expect(threadOf(24)).not.toBe(threadOf(1));
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

  type Timing = "queued helper" | "running helper" | "finished helper";
  /**
   * The real worker, its planning tasks held after posting their split plan until told to go
   * (support/held-split.worker.ts): a running helper is then sure to claim pages, where on a
   * loaded machine the planning task could otherwise claim them all before the helper's thread ran.
   */
  const held = createWorkerPool({ threads: 2, filename: new URL("./support/held-split.worker.ts", import.meta.url).href });
  afterAll(() => held.destroy());
  /**
   * The pool as the runner sees it, with the timing of one split document under the test's
   * control, relative to the planning task asking for the helper's pages (`want-parts`): the
   * helper "queued" (not started until then), "running" (started, its result held until then) or
   * "finished" (the question held until it is in). The planning task reads on once the helper
   * has read a page (queued: at once). Records the ops that ran and the helper's output.
   */
  function timedPool(timing: Timing): WorkerPool & { ops: string[]; helpers: Promise<PagesOutput>[] } {
    const pool = held;
    const ops: string[] = [];
    const helpers: Promise<PagesOutput>[] = [];
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
      helpers,
      run: (async (task: TaskInput, options: RunOptions = {}) => {
        ops.push(task.op);
        if (task.op === "pages") {
          if (timing === "queued helper") await asked.opened;
          const onMessage = options.onMessage;
          const out = pool.run(task, { ...options, onMessage: (m, reply) => (started.open(), onMessage?.(m, reply)) });
          helpers.push(out);
          const value = await out;
          if (timing === "running helper") await asked.opened;
          return value;
        }
        const onMessage = options.onMessage;
        return pool.run(task, {
          ...options,
          onMessage: (m, reply) => {
            if (m.type === "split") {
              onMessage?.(m, reply);
              const go = () => reply({ type: "go" } as unknown as PortReply);
              if (timing === "queued helper") go();
              else void started.opened.then(go);
              return;
            }
            if (m.type !== "want-parts") return onMessage?.(m, reply);
            const ask = () => (onMessage?.(m, reply), asked.open());
            // Sleeps: the runner's own .then()s on a finished helper run first.
            if (timing === "finished helper") void Promise.all(helpers).then(() => Bun.sleep(0)).then(ask);
            else if (timing === "running helper") void started.opened.then(() => Bun.sleep(0)).then(ask);
            else ask();
          },
        });
      }) as WorkerPool["run"],
    };
  }

  for (const timing of ["queued helper", "running helper", "finished helper"] as const) {
    const queued = timing === "queued helper";
    test(`split with a ${timing}: ${queued ? "the planning task reads every page" : "both threads read"}, same result as whole`, async () => {
      const bytes = await makeStatementPdf({ pages: 24 });
      const timed = timedPool(timing);
      const progress: Progress[] = [];
      const ranges: { first: number; last: number; threadId: number }[] = [];
      const split = await runDocument(
        { pool: timed, timeoutMs: 120_000, freeWorkers: () => 2 },
        { kind: "csv", doc: doc(bytes) },
        { onProgress: (p) => progress.push(p), onRange: (r) => ranges.push(r) },
      );
      const covered = ranges.flatMap((r) => Array.from({ length: r.last - r.first + 1 }, (_, i) => r.first + i)).sort((a, b) => a - b);
      expect(covered).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
      expect(new Set(ranges.map((r) => r.threadId)).size).toBe(queued ? 1 : 2);
      // A helper that starts after every page is claimed reads none, and the result did not wait for it.
      const [helper] = await Promise.all(timed.helpers);
      expect(helper!.blocks.length === 0).toBe(queued);
      expect(timed.ops).toEqual(["parse", "pages"]);
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
      // Split: at least the planning task's run of pages; whole: none.
      expect(ranges > 0).toBe(workers === 2);
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
    const bytes = await Bun.file(new URL("../../fixtures/real/firstbank.pdf", import.meta.url)).bytes();
    const parsed = await runDocument({ pool, timeoutMs: 60_000, freeWorkers: () => 1 }, { kind: "csv", doc: doc(bytes) });
    expect(parsed.kind).toBe("csv");
    if (parsed.kind === "csv") expect(parsed.csv.startsWith("bank,account,date,time,narration,debit,credit,balance,derived_balance,reference,currency")).toBe(true);
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
