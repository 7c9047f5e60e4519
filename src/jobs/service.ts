import type { Config } from "../config.ts";
import type { Caller } from "../db/keys.ts";
// The pure serialiser only (no pdf.js): formatting the canned sample is not parsing.
import { toCsv } from "../engine/csv.ts";
import { AppError, jobCancelled, jobExpired, jobFinished, notFound, toAppError } from "../errors.ts";
import { newId } from "../ids.ts";
import type { Logger } from "../log.ts";
import { refuseNonStatement, sampleResponse } from "../metering/sample.ts";
import { RefusalLimit } from "../metering/refusals.ts";
import { unmeteredAdmission } from "../metering/unmetered.ts";
import type { Admission, Metering } from "../metering/types.ts";
import { RememberedJobs } from "./expired.ts";
import { DocumentGate, type Hold, shuttingDown, type Ticket } from "./gate.ts";
import { Job } from "./job.ts";
import { createOcrPool } from "./ocr-pool.ts";
import { createWorkerPool, type WorkerPool } from "./pool.ts";
import { type DocumentResult, type RunHooks, runDocument } from "./runner.ts";
import { JobStore } from "./store.ts";
import type { JobObserver } from "./observer.ts";
import type { ResultKind } from "./tasks.ts";

/** A validated upload (src/http/upload.ts). */
export interface Upload {
  bytes: Uint8Array;
  kind: ResultKind;
  bank?: string;
  password?: string;
  /** The key place and upload bytes taken before the body was read (src/http/upload.ts receiveUpload). */
  hold?: Hold;
  /** Jobs: the caller's own label, shown in the snapshot and the jobs list (form field client_reference). */
  clientReference?: string;
  /** Jobs: where the final snapshot is POSTed when the job ends (form field callback_url). */
  callbackUrl?: string;
  /** False when the caller sent `ocr=off`: a scan is refused instead of read by OCR. */
  ocr?: boolean;
  /** include=insights: the parse worker writes the answer with enrichment and insights (docs/insights.md). */
  insights?: boolean;
}

/** What a job is created with besides its upload. */
export interface SubmitOptions {
  /** The job's id, chosen by the caller (it is recorded before the job starts); a new one when absent. */
  id?: string;
  /** Made from the parse before the job ends, and kept as its result (include=insights, src/http/insights.ts). */
  finish?: (result: DocumentResult) => Promise<DocumentResult>;
}

export interface Outcome {
  result: DocumentResult;
  /** The canned sample was returned instead of a parse (caller past a free cap). */
  sample: boolean;
}

/**
 * Parses, sync and async, over the one worker pool: admission (per-key and queue limits, then
 * metering), the run itself, the job records, and the drain at shutdown.
 */
export interface ParseService {
  readonly pool: WorkerPool;
  readonly store: JobStore;
  /** `request.signal` (the caller hanging up) aborts the parse in its worker. */
  parseNow(caller: Caller, upload: Upload, request: { headers: Headers; signal?: AbortSignal }): Promise<Outcome>;
  submit(caller: Caller, upload: Upload, request: { headers: Headers }, options?: SubmitOptions): Promise<Job>;
  /** Keeps a finished sync parse as a done job under `id` (an idempotent POST /v1/parse, replayed from it). */
  keep(caller: Caller, id: string, kind: ResultKind, outcome: Outcome): void;
  /** Told when a job starts and ends (the jobs list and completion callbacks). */
  observe(observer: JobObserver): void;
  /**
   * The job `id` of `owner` (any owner's for the credential-free stream, where the id is the
   * capability). Throws 404 `job_expired` for a job the server held and has swept, else 404
   * `not_found`; another owner's job reads as unknown.
   */
  find(id: string, owner?: string): Job;
  /** Cancels a queued or running job of `owner` (see find); 409 `job_finished` once it has ended. */
  cancel(id: string, owner: string): Job;
  /** Refuses at once (429/503) when a parse by this caller would be refused; nothing is reserved. */
  checkCapacity(caller: Caller): void;
  /** Takes the caller's in-flight place and `bytes` of MAX_INFLIGHT_UPLOAD_BYTES before its upload is read (429/503 when full). */
  hold(caller: Caller, bytes: number): Hold;
  /** Only `bytes` of MAX_INFLIGHT_UPLOAD_BYTES (503 when full): a cluster job's upload, admitted in Redis. */
  holdUpload(bytes: number, owner?: string): Hold;
  /**
   * Parses a job the cluster admitted and metered (src/jobs/redis): it waits its turn in this
   * process's gate beside sync parses, without per-key or queue limits, and settles no metering
   * (the caller does, once, whichever instance ends the job).
   */
  runAdmitted(upload: Omit<Upload, "hold">, hooks: { onStart?: () => void; onProgress?: RunHooks["onProgress"]; signal?: AbortSignal }): Promise<DocumentResult>;
  ready(): boolean;
  /** Refuses new parses, lets running ones finish up to `graceMs`, fails the rest, destroys the pool. */
  shutdown(graceMs: number): Promise<void>;
}

export interface ServiceDeps {
  config: Config;
  log: Logger;
  metering: Metering;
  /** Tests swap the worker module (e.g. one that crashes). */
  workerFilename?: string;
}

const clientClosed = () => new AppError("client_closed", 499, "The client closed the request before the parse finished");

/** A signal that aborts with `reason()` when `signal` aborts, whatever reason it carried. */
function abortAs(signal: AbortSignal, reason: () => AppError): AbortSignal {
  const c = new AbortController();
  if (signal.aborted) c.abort(reason());
  else signal.addEventListener("abort", () => c.abort(reason()), { once: true });
  return c.signal;
}

/** Waits for the ticket's turn; an abort meanwhile (cancel, shutdown) gives up the place in the queue at once. */
function untilStarted(ticket: Ticket, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    ticket.started.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}

/** Shares the upload with the workers: one copy here, none per task or page. */
function share(bytes: Uint8Array): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(sab).set(bytes);
  return sab;
}

let samples: { json: DocumentResult; csv: DocumentResult } | undefined;

/** The canned sample, built once: every sample job shares these two results (issue 15, cache fairness). */
export function sampleResult(kind: ResultKind): DocumentResult {
  if (!samples) {
    const response = sampleResponse();
    const json = JSON.stringify(response);
    samples = { json: { kind: "json", json }, csv: { kind: "csv", json, csv: toCsv(response) } };
  }
  // A sample has no document to redact; the caller gets the sample statement as JSON instead.
  return kind === "csv" ? samples.csv : samples.json;
}

export function createParseService({ config, log, metering, workerFilename }: ServiceDeps): ParseService {
  const pool = createWorkerPool({
    threads: config.WORKERS,
    filename: workerFilename,
    maxHeapMb: config.WORKER_MAX_HEAP_MB,
    extractor: config.PDF_EXTRACTOR,
    warmup: config.WORKER_WARMUP,
    onError: (e) => log.error("parse worker error", { error: String(e instanceof Error ? (e.stack ?? e.message) : e) }),
  });
  const gate = new DocumentGate({
    concurrency: config.WORKERS,
    maxQueued: config.MAX_QUEUED_JOBS,
    maxPerKey: config.MAX_INFLIGHT_PER_KEY,
    maxInflightBytes: config.MAX_INFLIGHT_UPLOAD_BYTES,
    maxOwnerInflightBytes: config.MAX_INFLIGHT_UPLOAD_BYTES_PER_OWNER,
  });
  const store = new JobStore({
    ttlMs: config.JOB_RESULT_TTL_S * 1000,
    maxBytes: config.JOB_CACHE_MAX_BYTES,
    ownerMaxBytes: config.JOB_CACHE_OWNER_MAX_BYTES,
    onOverBudget: (held) => log.warn("job cache over JOB_CACHE_MAX_BYTES (every byte is other owners' unexpired results)", { held_bytes: held }),
  });
  const remembered = new RememberedJobs();
  // Failed parses are never counted: documents refused as too costly have their own bound per key.
  const refusals = new RefusalLimit({ max: config.HOSTILE_REFUSALS_PER_KEY, windowMs: config.HOSTILE_REFUSAL_WINDOW_S * 1000 });
  const stopping = new AbortController();
  const limits = { maxPages: config.MAX_PAGES, maxXlsxRows: config.MAX_XLSX_ROWS, maxXlsxInflatedBytes: config.MAX_XLSX_INFLATED_BYTES };
  const running = new Set<Promise<unknown>>();
  const observers: JobObserver[] = [];
  /** The job has its final state: kept for polls, and announced once. */
  const settle = (job: Job) => {
    store.settle(job);
    const end = { id: job.id, owner: job.owner, state: job.state === "done" ? ("done" as const) : ("failed" as const), errorClass: job.error?.errorClass, sample: job.sample };
    for (const o of observers) o.ended(end);
  };
  // Scans are read on a pool of their own (OCR_WORKERS; 0: refused as scanned_document).
  const ocrPool =
    config.OCR_WORKERS > 0
      ? createOcrPool({ threads: config.OCR_WORKERS, idleMs: config.OCR_IDLE_MS, onError: (e) => log.error("ocr worker error", { error: String(e instanceof Error ? (e.stack ?? e.message) : e) }) })
      : undefined;
  const ctx = {
    pool,
    timeoutMs: config.PARSE_TIMEOUT_MS,
    freeWorkers: () => Math.max(1, pool.threads - gate.runningCount + 1),
    ...(ocrPool
      ? {
          ocr: {
            pool: ocrPool,
            limits: {
              maxPages: config.OCR_MAX_PAGES,
              dpi: config.OCR_DPI,
              pageTimeoutMs: config.OCR_PAGE_TIMEOUT_MS,
              loadTimeoutMs: config.OCR_PAGE_TIMEOUT_MS,
              minConfidence: config.OCR_MIN_CONFIDENCE,
              minChainPercent: config.OCR_MIN_CHAIN_PERCENT,
            },
          },
        }
      : {}),
  };
  pool.warm().catch((e: unknown) => log.error("parse workers failed to start", { error: String(e) }));

  /** Per-key and queue limits first (cheap, synchronous), then metering. */
  async function admit(caller: Caller, upload: Upload, request: { headers: Headers }): Promise<{ ticket: Ticket; admission: Admission }> {
    refusals.check(caller.keyId);
    const ticket = gate.enter(upload.hold ?? caller.keyId);
    try {
      const admission = refusals.watch(caller.keyId, await metering.admit(caller, request));
      // Past a cap the engine does not run, but a file that is no statement still gets its real 4xx.
      if (admission.sample) refuseNonStatement(upload.bytes);
      return { ticket, admission };
    } catch (e) {
      ticket.release();
      throw e;
    }
  }

  /** Runs an admitted document and settles its admission exactly once. */
  async function execute(
    ticket: Ticket,
    admission: Admission,
    upload: Upload,
    {
      onStart,
      onSettled,
      onSucceeded,
      callerSignal,
      cancelSignal,
      finish,
      ...hooks
    }: RunHooks & { onStart?: () => void; onSettled?: () => void; onSucceeded?: (result: DocumentResult) => void; callerSignal?: AbortSignal; cancelSignal?: AbortSignal; finish?: SubmitOptions["finish"] },
  ): Promise<DocumentResult> {
    let startedAt = 0;
    // Shutdown, the caller hanging up (sync) and a cancel (jobs) all stop the parse, queued or running.
    const signals = [stopping.signal];
    if (callerSignal) signals.push(abortAs(callerSignal, clientClosed));
    if (cancelSignal) signals.push(cancelSignal);
    const signal = signals.length === 1 ? stopping.signal : AbortSignal.any(signals);
    try {
      await untilStarted(ticket, signal);
      if (stopping.signal.aborted) throw shuttingDown();
      startedAt = performance.now();
      onStart?.();
      const doc = { bytes: share(upload.bytes), password: upload.password, bank: upload.bank, limits };
      const parsed = await runDocument(ctx, { kind: upload.kind, doc, ocr: upload.ocr !== false, insights: upload.insights === true }, {
        ...hooks,
        signal,
        onRange: (r) => log.debug("pages read", { first: r.first, last: r.last, thread: r.threadId }),
        // A scan read by the OCR pool holds no parse thread: its running place goes to a text parse.
        onOcr: () => ticket.stepAside(),
      });
      // The parse threads are done with it: the next document starts while its use is written and
      // while its insights, if asked and not made by the worker, are made on their own thread (its key place and upload bytes
      // stay held until the answer, below).
      ticket.stepAside();
      const result = finish ? await finish(parsed) : parsed;
      // Cancelled while the last task was answering: the owner was told it is cancelled, so it is not counted.
      signal.throwIfAborted();
      // Success is decided here, in the same tick as the check above: from now on a cancel finds the
      // job finished (409) instead of being told "not counted" while the use is being written.
      onSettled?.();
      log.info("parse finished", { kind: upload.kind, bytes: upload.bytes.byteLength, ms: Math.round(performance.now() - startedAt) });
      // Bounded (src/metering/metering.ts): an unanswered write is left to the background retries.
      await admission.succeeded().catch((e: unknown) => log.error("metering: succeeded() failed", { error: String(e) }));
      // Shown done only now: a client that sees it done and then reads its usage finds it counted.
      onSucceeded?.(result);
      return result;
    } catch (e) {
      const err = toAppError(e);
      log.info("parse failed", { kind: upload.kind, error_class: err.errorClass, ms: startedAt ? Math.round(performance.now() - startedAt) : 0 });
      ticket.stepAside();
      await admission.failed(err.errorClass).catch((x: unknown) => log.error("metering: failed() failed", { error: String(x) }));
      throw err;
    } finally {
      ticket.release();
    }
  }

  function find(id: string, owner?: string): Job {
    const job = owner === undefined ? store.get(id) : store.getOwned(id, owner);
    if (job) return job;
    throw remembered.held(id, owner) ? jobExpired() : notFound("No such job");
  }

  function track<T>(p: Promise<T>): Promise<T> {
    running.add(p);
    p.finally(() => running.delete(p)).catch(() => {});
    return p;
  }

  return {
    pool,
    store,
    ready: () => pool.ready() && !stopping.signal.aborted,
    checkCapacity: (caller) => gate.check(caller.keyId),
    hold: (caller, bytes) => gate.hold(caller.keyId, bytes, caller.owner),
    holdUpload: (bytes, owner) => gate.holdBytes(bytes, owner),

    async parseNow(caller, upload, request) {
      const { ticket, admission } = await admit(caller, upload, request);
      if (admission.sample) {
        ticket.release();
        return { result: sampleResult(upload.kind), sample: true };
      }
      // A caller that hangs up stops its parse: its worker is freed for someone still waiting.
      return { result: await track(execute(ticket, admission, upload, { callerSignal: request.signal })), sample: false };
    },

    async submit(caller, upload, request, options = {}) {
      const { ticket, admission } = await admit(caller, upload, request);
      const job = new Job(options.id ?? newId("job"), caller.owner, upload.kind, upload.clientReference);
      store.add(job);
      remembered.remember(job.id, job.owner);
      if (admission.sample) {
        ticket.release();
        job.succeed(sampleResult(upload.kind), true);
        settle(job);
        return job;
      }
      const onStart = () => {
        job.start();
        for (const o of observers) o.started(job.id);
      };
      void track(
        execute(ticket, admission, upload, { onStart, onSettled: () => job.settle(), onSucceeded: (result) => job.succeed(result), onProgress: (p) => job.report(p), cancelSignal: job.signal, finish: options.finish })
          .then((result) => job.succeed(result))
          .catch((e: unknown) => {
            const err = toAppError(e);
            if (err.status >= 500) log.error("parse job failed", { job_class: err.errorClass, error: String(err.internal ?? err.message) });
            job.fail(err);
          })
          .finally(() => settle(job)),
      );
      return job;
    },

    keep(caller, id, kind, { result, sample }) {
      const job = new Job(id, caller.owner, kind);
      job.succeed(result, sample);
      store.settle(job);
      remembered.remember(id, caller.owner);
    },

    observe(observer) {
      observers.push(observer);
    },

    runAdmitted(upload, { onStart, onProgress, signal }) {
      // Metered by the caller (a cluster job, src/jobs/redis/queue.ts): execute() settles nothing.
      return track(execute(gate.enterAdmitted(), unmeteredAdmission, upload, { onStart, onProgress, cancelSignal: signal }));
    },

    find,

    cancel(id, owner) {
      const job = find(id, owner);
      // A job whose success is decided but not yet shown (its use being written) is as good as done.
      if (!job.cancel(jobCancelled())) throw jobFinished(job.finished ? job.state : "done");
      log.info("parse job cancelled", { job_id: job.id });
      return job;
    },

    async shutdown(graceMs) {
      gate.close();
      const drained = Promise.allSettled([...running]);
      const deadline = new Promise<void>((r) => setTimeout(r, graceMs).unref?.());
      await Promise.race([drained, deadline]);
      // Whatever is still running is aborted in its worker; its job fails and its stream gets the envelope.
      stopping.abort(shuttingDown());
      await drained;
      for (const job of store.unfinished()) {
        job.fail(shuttingDown());
        settle(job);
      }
      store.close();
      await Promise.all([pool.destroy(), ocrPool?.destroy()]);
    },
  };
}
