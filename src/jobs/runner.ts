import type { ProgressFn } from "../engine/types.ts";
import { AppError, parseTimeout } from "../errors.ts";
import { type PageBlock, pagesIn } from "./claims.ts";
import { SPLIT_ABOVE_PAGES } from "./planner.ts";
import type { OcrLimits, OcrPool } from "./ocr-pool.ts";
import type { WorkerPool } from "./pool.ts";
import { type ResultText, withUtf8 } from "./result-text.ts";
import type { DocumentInput, PagesOutput, ResultKind, SplitPlan } from "./tasks.ts";

export interface DocumentRequest {
  kind: ResultKind;
  doc: DocumentInput;
  /** False: a scan is refused (scanned_document) rather than read by OCR (the `ocr=off` form field). */
  ocr?: boolean;
  /** include=insights asked at submit: the worker writes the answer with them (a scan read by OCR comes back plain). */
  insights?: boolean;
}

export type DocumentResult =
  /** `json` is the ParseResponse as serialised in the worker (src/jobs/result-text.ts); `insights`: it (and the CSV) carry enrichment and insights. */
  | ({ kind: "json"; insights?: true; timing?: ParseTiming } & ResultText)
  | ({ kind: "csv"; csv: string; insights?: true; timing?: ParseTiming } & ResultText)
  | { kind: "redact"; bytes: Uint8Array<ArrayBuffer>; contentType: string; redactions: number };

/** Where a parse's time went, for the answer's Server-Timing header (ms). */
export interface ParseTiming {
  /** From the document's first task to its answer on this thread: reading, assembling and writing it. */
  parseMs: number;
  /** Of that, writing the answer in the worker (the JSON, the CSV, the insights when asked). */
  answerMs: number;
}

export interface RunnerContext {
  pool: WorkerPool;
  timeoutMs: number;
  /** Threads this document may use to read its pages right now (at least 1). */
  freeWorkers(): number;
  /** Reads scans (PDFs the text path refuses as scanned_document); absent: scans are refused. */
  ocr?: { pool: OcrPool; limits: OcrLimits };
}

export interface RunHooks {
  onProgress?: ProgressFn;
  /** Caller gone or shutdown: aborts the document's tasks in their workers. */
  signal?: AbortSignal;
  /** Called with the thread id of each run of pages read (tests observe the fan-out through it). */
  onRange?: (range: { first: number; last: number; threadId: number }) => void;
  /**
   * The document leaves the parse pool for the OCR pool: its admission place among the documents
   * parsed at once can go to a text parse (the service gives it up: Ticket.stepAside).
   */
  onOcr?: () => void;
}

/**
 * Runs one document through the pool within the time limit. A PDF above SPLIT_ABOVE_PAGES pages
 * has its pages read on several workers (src/jobs/claims.ts) and is assembled by the task that
 * planned the split; anything smaller is parsed whole in one worker.
 */
export async function runDocument(ctx: RunnerContext, req: DocumentRequest, hooks: RunHooks = {}): Promise<DocumentResult> {
  const abort = new AbortController();
  const onTimeout = () => abort.abort(parseTimeout(`The document took longer than ${ctx.timeoutMs} ms to parse`));
  let timer = setTimeout(onTimeout, ctx.timeoutMs);
  // A scan handed to OCR gets its pages' time on top (src/jobs/ocr-pool.ts).
  const extendTimeout = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(onTimeout, ms);
  };
  const onOuterAbort = () => abort.abort(hooks.signal?.reason);
  hooks.signal?.addEventListener("abort", onOuterAbort, { once: true });
  if (hooks.signal?.aborted) onOuterAbort();
  try {
    return await run(ctx, req, hooks, abort, extendTimeout);
  } finally {
    clearTimeout(timer);
    hooks.signal?.removeEventListener("abort", onOuterAbort);
  }
}

async function run(ctx: RunnerContext, { kind, doc, ocr, insights }: DocumentRequest, hooks: RunHooks, abort: AbortController, extendTimeout: (ms: number) => void): Promise<DocumentResult> {
  const { pool } = ctx;
  const signal = abort.signal;
  const started = performance.now();
  if (kind === "redact") {
    const r = await pool.run({ op: "redact", doc }, { signal });
    hooks.onProgress?.({ stage: "redact", current: 1, total: 1 });
    return { kind, bytes: r.bytes, contentType: r.contentType, redactions: r.redactions };
  }
  const csv = kind === "csv";
  const workers = ctx.freeWorkers();
  // A large PDF's task posts a split plan before reading any page; its helpers start on other
  // threads as soon as it arrives and read pages from the back while it reads from the front.
  let done = 0;
  let total = 0;
  const helpers: PagesOutput[] = [];
  let helperPages = 0;
  /** The planning task's `want-parts`, held until the helpers have handed in every page it did not read. */
  let held: { pages: number; answer: () => void } | undefined;
  const failFast = (e: unknown): never => {
    // One task failed: stop the others rather than let them run to no purpose.
    if (!signal.aborted) abort.abort(e);
    throw signal.reason instanceof AppError ? signal.reason : e;
  };
  const onPage = () => hooks.onProgress?.({ stage: "extract", current: ++done, total });
  const report = (blocks: readonly PageBlock[], threadId: number) => {
    for (const b of blocks) hooks.onRange?.({ first: b.first, last: b.first + b.count - 1, threadId });
  };
  const runHelper = async (plan: SplitPlan): Promise<void> => {
    const { claims, update } = plan;
    const out = await pool.run({ op: "pages", doc, claims, ...(update ? { update } : {}) }, { signal, onMessage: (m) => m.type === "page" && onPage() });
    report(out.blocks, out.threadId);
    if (out.blocks.length === 0) return;
    helpers.push(out);
    helperPages += pagesIn(out.blocks);
    if (held && helperPages >= held.pages) held.answer();
  };
  const first = await pool
    .run(
      { op: "parse", doc, csv, insights: insights === true, split: workers > 1 ? { above: SPLIT_ABOVE_PAGES, workers } : null },
      {
        signal,
        onMessage: (m, reply) => {
          if (m.type === "progress") hooks.onProgress?.(m.progress);
          else if (m.type === "page") onPage();
          else if (m.type === "split") {
            total = m.pageCount;
            const { type: _, ...plan } = m;
            // Not awaited: a helper queued behind another document starts after every page is
            // claimed and reads none, and the result does not wait for it.
            for (let h = 0; h < m.helpers; h++) runHelper(plan).catch(failFast).catch(() => {});
          } else if (m.type === "want-parts") {
            report(m.blocks, m.threadId);
            const pages = total - pagesIn(m.blocks);
            const answer = () => reply({ type: "parts", parts: helpers });
            if (helperPages >= pages) answer();
            else held = { pages, answer };
          }
        },
      },
    )
    // A scan goes to the OCR pool before failFast would abort the document.
    .catch((e: unknown): typeof SCANNED => (ctx.ocr && ocr !== false && isScan(e) && !signal.aborted ? SCANNED : failFast(e)));
  if (first === SCANNED) {
    const { pool: ocrPool, limits } = ctx.ocr!;
    extendTimeout(ctx.timeoutMs + limits.maxPages * limits.pageTimeoutMs);
    hooks.onOcr?.();
    const out = await ocrPool.read({ bytes: doc.bytes, password: doc.password, bank: doc.bank, csv }, limits, { onProgress: hooks.onProgress, signal });
    return csv ? { kind: "csv", json: out.json, csv: out.csv ?? "" } : { kind: "json", json: out.json };
  }
  const parsed = first.parsed;
  const made = { ...(parsed.insights ? { insights: true as const } : {}), timing: { parseMs: performance.now() - started, answerMs: parsed.answerMs } };
  if (csv) return withUtf8({ kind: "csv" as const, csv: parsed.csv ?? "", ...made }, parsed.utf8);
  return withUtf8({ kind: "json" as const, ...made }, parsed.utf8);
}

const SCANNED: unique symbol = Symbol("scanned");
const isScan = (e: unknown) => e instanceof AppError && e.errorClass === "scanned_document";
