import type { ProgressFn } from "../engine/types.ts";
import { AppError, parseTimeout } from "../errors.ts";
import { type PageRange, SPLIT_ABOVE_PAGES } from "./planner.ts";
import type { WorkerPool } from "./pool.ts";
import type { DocumentInput, PagesOutput, ResultKind } from "./tasks.ts";

export interface DocumentRequest {
  kind: ResultKind;
  doc: DocumentInput;
}

export type DocumentResult =
  /** `json` is the ParseResponse as serialised in the worker. */
  | { kind: "json"; json: string }
  | { kind: "csv"; json: string; csv: string }
  | { kind: "redact"; bytes: Uint8Array<ArrayBuffer>; contentType: string; redactions: number };

export interface RunnerContext {
  pool: WorkerPool;
  timeoutMs: number;
  /** Threads this document may use for its page ranges right now (at least 1). */
  freeWorkers(): number;
}

export interface RunHooks {
  onProgress?: ProgressFn;
  /** Caller gone or shutdown: aborts the document's tasks in their workers. */
  signal?: AbortSignal;
  /** Called with the thread id of each page range (tests observe the fan-out through it). */
  onRange?: (range: { first: number; last: number; threadId: number }) => void;
}

/**
 * Runs one document through the pool within the time limit. A PDF above SPLIT_ABOVE_PAGES pages
 * is split into page ranges parsed on several workers, merged in page order, then assembled in a
 * worker; anything smaller is parsed whole in one worker.
 */
export async function runDocument(ctx: RunnerContext, req: DocumentRequest, hooks: RunHooks = {}): Promise<DocumentResult> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(parseTimeout(`The document took longer than ${ctx.timeoutMs} ms to parse`)), ctx.timeoutMs);
  const onOuterAbort = () => abort.abort(hooks.signal?.reason);
  hooks.signal?.addEventListener("abort", onOuterAbort, { once: true });
  if (hooks.signal?.aborted) onOuterAbort();
  try {
    return await run(ctx, req, hooks, abort);
  } finally {
    clearTimeout(timer);
    hooks.signal?.removeEventListener("abort", onOuterAbort);
  }
}

async function run(ctx: RunnerContext, { kind, doc }: DocumentRequest, hooks: RunHooks, abort: AbortController): Promise<DocumentResult> {
  const { pool } = ctx;
  const signal = abort.signal;
  if (kind === "redact") {
    const r = await pool.run({ op: "redact", doc }, { signal });
    hooks.onProgress?.({ stage: "redact", current: 1, total: 1 });
    return { kind, bytes: r.bytes, contentType: r.contentType, redactions: r.redactions };
  }
  const csv = kind === "csv";
  const workers = ctx.freeWorkers();
  // A large PDF's first task plans the ranges and posts the plan before reading its own (the
  // first) range; the other ranges start on other threads as soon as the plan arrives.
  let done = 0;
  let total = 0;
  const others: Promise<PagesOutput>[] = [];
  const finished: PagesOutput[] = [];
  /** Ranges whose task is running (it has read a page): they finish without waiting on anything. */
  let running = 0;
  /** The planning task's `want-parts`, held until the running ranges are all in. */
  let heldReply: (() => void) | undefined;
  const failFast = (e: unknown): never => {
    // One range failed: stop the others rather than let them run to no purpose.
    if (!signal.aborted) abort.abort(e);
    throw signal.reason instanceof AppError ? signal.reason : e;
  };
  const onPage = () => hooks.onProgress?.({ stage: "extract", current: ++done, total });
  const runRange = async (range: PageRange, update: Uint8Array | undefined): Promise<PagesOutput> => {
    let started = false;
    const onMessage = (m: { type: string }) => {
      if (m.type !== "page") return;
      if (!started) running++;
      started = true;
      onPage();
    };
    const out = await pool.run({ op: "pages", doc, first: range.first, last: range.last, ...(update ? { update } : {}) }, { signal, onMessage });
    hooks.onRange?.({ ...range, threadId: out.threadId });
    finished.push(out);
    if (finished.length === others.length) heldReply?.();
    return out;
  };
  const firstTask = pool.run(
    { op: "parse", doc, csv, split: workers > 1 ? { above: SPLIT_ABOVE_PAGES, workers } : null },
    {
      signal,
      onMessage: (m, reply) => {
        if (m.type === "progress") hooks.onProgress?.(m.progress);
        else if (m.type === "page") onPage();
        else if (m.type === "split") {
          total = m.pageCount;
          for (const range of m.ranges.slice(1)) {
            const p = runRange(range, m.update).catch(failFast);
            p.catch(() => {}); // observed below; this only keeps an early failure from being "unhandled"
            others.push(p);
          }
        } else if (m.type === "want-parts") {
          hooks.onRange?.({ first: m.first, last: m.last, threadId: m.threadId });
          // The planning task assembles in place when the other ranges are in: its own lines then
          // need no serialising, copying and parsing again in another task. It may wait for ranges
          // that are running, never for one still queued (see PortReply).
          const answer = () => reply({ type: "parts", parts: finished });
          if (finished.length === others.length) answer();
          else if (running === others.length) heldReply = answer;
          else reply({ type: "parts", parts: null });
        }
      },
    },
  );
  let parsed;
  const first = await firstTask.catch(failFast);
  if ("parsed" in first) {
    parsed = first.parsed;
  } else {
    const { pageCount, producer } = first.split;
    const parts = [first.split.first, ...(await Promise.all(others))];
    hooks.onProgress?.({ stage: "assemble", current: 0, total: 1 });
    // Ranges come back in plan order (page order); the assembling worker merges and checks them.
    parsed = await pool.run({ op: "assemble", parts, pageCount, producer, bank: doc.bank, csv }, { signal });
    hooks.onProgress?.({ stage: "assemble", current: 1, total: 1 });
  }
  if (csv) return { kind, json: parsed.json, csv: parsed.csv ?? "" };
  return { kind, json: parsed.json };
}
