import { type Job as BullJob, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Config } from "../../config.ts";
import type { Progress } from "../../engine/types.ts";
import { ProgressPace } from "../progress-pace.ts";
import { AppError, toAppError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import type { Metering } from "../../metering/types.ts";
import type { ParseService } from "../service.ts";
import type { JobObserver } from "../observer.ts";
import type { ClusterAdmission } from "./admission.ts";
import type { Ending, JobMeta, JobRecords } from "./results.ts";

/** BullMQ queue name (its keys: `<REDIS_PREFIX>:parse:*`). */
export const QUEUE_NAME = "parse";

/** What a queued BullMQ job carries: only the id; the upload and options are in the job's record. */
export interface QueuedJob {
  jobId: string;
}

export const instanceDied = (attempts: number) =>
  new AppError("worker_crashed", 500, `The instance parsing this job stopped ${attempts} times (crashed or killed); please retry`);

/** A reservation made under the job's id (src/metering/metering.ts admit): settled once, by whoever ends the job. */
export const reservationOf = (jobId: string) => `use_${jobId}`;

export interface QueueDeps {
  config: Pick<Config, "WORKERS" | "JOB_MAX_ATTEMPTS" | "JOB_LOCK_S" | "REDIS_PREFIX">;
  log: Logger;
  metering: Metering;
  parser: ParseService;
  records: JobRecords;
  admission: ClusterAdmission;
  instanceId: string;
  /** Connections: BullMQ's queue and worker each want their own (the worker blocks). */
  queueConnection: Redis;
  workerConnection: Redis;
}

/**
 * The cluster's job queue on BullMQ: every instance adds jobs to one queue and runs one BullMQ
 * Worker (concurrency WORKERS) that hands each job to its own Piscina pool. A job whose instance
 * dies stops renewing its lock; BullMQ's stalled-job check gives it to another instance, which
 * parses it again (the stream shows a `retry` stage), up to JOB_MAX_ATTEMPTS starts.
 */
export class ClusterQueue {
  readonly queue: Queue<QueuedJob>;
  private worker: Worker<QueuedJob> | undefined;
  /** Jobs running here, by id: a cancel from any instance aborts them (see abort). */
  private readonly running = new Map<string, AbortController>();
  /** Set at shutdown: a job aborted by it goes back to the queue for another instance. */
  private stopping = false;
  /** Told of the jobs this instance starts and ends (src/jobs/observer.ts). */
  readonly observers: JobObserver[] = [];

  constructor(private readonly deps: QueueDeps) {
    this.queue = new Queue<QueuedJob>(QUEUE_NAME, { connection: deps.queueConnection, prefix: deps.config.REDIS_PREFIX });
  }

  /** Starts this instance's worker. */
  start(): void {
    const { config, workerConnection } = this.deps;
    const lockMs = config.JOB_LOCK_S * 1000;
    this.worker = new Worker<QueuedJob>(QUEUE_NAME, (job) => this.process(job), {
      connection: workerConnection,
      prefix: config.REDIS_PREFIX,
      concurrency: config.WORKERS,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      // The processor counts attempts itself (the job's record) and ends the job as worker_crashed
      // past JOB_MAX_ATTEMPTS; BullMQ must hand a stalled job back more often than that (it would fail it itself, leaving the record unfinished).
      maxStalledCount: config.JOB_MAX_ATTEMPTS + 1,
      removeOnComplete: { count: 0 },
      removeOnFail: { count: 0 },
    });
    this.worker.on("error", (e) => this.deps.log.warn("job queue worker error", { error: String(e.message) }));
  }

  async add(jobId: string): Promise<void> {
    // Attempts beyond the first are only used by a shutdown handing a job back (see process).
    await this.queue.add("parse", { jobId }, { jobId, attempts: this.deps.config.JOB_MAX_ATTEMPTS, removeOnComplete: true, removeOnFail: true });
  }

  /** Removes a job still waiting in the queue (a cancel); a running one is aborted by its instance. */
  async removeWaiting(jobId: string): Promise<void> {
    await this.queue.remove(jobId).catch(() => 0);
  }

  /** Aborts the job if it runs here (a cancel published by any instance). */
  abort(jobId: string, reason: AppError): void {
    this.running.get(jobId)?.abort(reason);
  }

  async counts(): Promise<{ waiting: number; active: number }> {
    const c = await this.queue.getJobCounts("waiting", "active", "prioritized", "delayed");
    return { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.delayed ?? 0), active: c.active ?? 0 };
  }

  workerRunning(): boolean {
    return this.worker?.isRunning() ?? false;
  }

  /** Stops taking jobs; the running ones finish (or are handed back when the parse service aborts them). */
  async close(graceMs: number, shutdownParser: () => Promise<void>): Promise<void> {
    this.stopping = true;
    const closing = this.worker?.close() ?? Promise.resolve();
    const deadline = new Promise<void>((r) => setTimeout(r, graceMs).unref?.());
    await Promise.race([closing, deadline]);
    await shutdownParser();
    await closing.catch(() => {});
    await this.queue.close();
  }

  /**
   * Ends a job once: the first caller wins (FINISH script), then settles its metering under the
   * job's reservation and gives its admission place back. Every end path comes here.
   */
  async end(jobId: string, meta: Pick<JobMeta, "key_id" | "token">, ending: Ending): Promise<boolean> {
    const { records, metering, admission, log } = this.deps;
    const won = await records.finish(jobId, ending);
    if (won && !("outcome" in ending && ending.sample)) {
      const settle = metering.resume(reservationOf(jobId));
      const p = "error" in ending ? settle.failed(ending.error.errorClass) : settle.succeeded();
      await p.catch((e: unknown) => log.error("metering: settling a job failed", { job_id: jobId, error: String(e) }));
    }
    await admission.release({ keyId: meta.key_id, token: meta.token }).catch(() => false);
    if (won) await this.announceEnd(jobId, ending);
    return won;
  }

  /** The instance that ended the job tells the observers, once (the FINISH script has one winner). */
  private async announceEnd(jobId: string, ending: Ending): Promise<void> {
    if (this.observers.length === 0) return;
    const owner = await this.deps.records.meta(jobId).then((m) => m?.owner, () => undefined);
    if (owner === undefined) return;
    const end =
      "error" in ending
        ? { id: jobId, owner, state: "failed" as const, errorClass: ending.error.errorClass, sample: false }
        : { id: jobId, owner, state: "done" as const, sample: ending.sample === true };
    for (const o of this.observers) o.ended(end);
  }

  private async process(bull: BullJob<QueuedJob>): Promise<void> {
    const { records, parser, admission, config, log, instanceId } = this.deps;
    const id = bull.data.jobId;
    const meta = await records.meta(id);
    if (!meta || meta.state === "done" || meta.state === "failed") return;
    const attempt = await records.start(id, instanceId);
    if (attempt < 0) return;
    if (attempt === 1) for (const o of this.observers) o.started(id);
    if (attempt > config.JOB_MAX_ATTEMPTS) {
      log.error("parse job failed: its instances kept dying", { job_id: id, attempts: attempt - 1 });
      await this.end(id, meta, { error: instanceDied(attempt - 1) });
      return;
    }
    await admission.extend({ keyId: meta.key_id, token: meta.token }).catch(() => {});
    if (attempt > 1) {
      log.warn("parse job taken over from an instance that stopped", { job_id: id, attempt });
      await records.progress(id, { stage: "retry", current: attempt, total: config.JOB_MAX_ATTEMPTS });
    }
    const bytes = await records.upload(id);
    if (!bytes) {
      await this.end(id, meta, { error: new AppError("internal_error", 500, "The job's upload is no longer held; submit the document again") });
      return;
    }
    const abort = new AbortController();
    this.running.set(id, abort);
    // Paced as the in-process job's (progress-pace.ts): a 2,000-page parse is not 2,000 Redis
    // writes and stream entries. Writes go out in order, one after the other.
    let writes = Promise.resolve();
    const pace = new ProgressPace((p) => {
      writes = writes.then(() => records.progress(id, p).then(() => {}, () => {}));
    }, { stage: "queued", current: 0, total: 0 });
    const flush = () => {
      pace.flush();
      return writes;
    };
    const report = (p: Progress) => void pace.report(p);
    try {
      log.info("parse job started", { job_id: id, attempt });
      const result = await parser.runAdmitted(
        { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), kind: meta.kind, bank: meta.bank, password: meta.password },
        { onStart: () => report({ stage: meta.kind === "redact" ? "redact" : "extract", current: 0, total: 0 }), onProgress: report, signal: abort.signal },
      );
      await flush();
      abort.signal.throwIfAborted();
      await this.end(id, meta, { outcome: result });
    } catch (e) {
      await flush();
      const err = toAppError(e);
      // Shutdown stopped the parse: the job goes back to the queue (BullMQ retries it) for another instance.
      if (this.stopping && !abort.signal.aborted && bull.attemptsMade + 1 < (bull.opts.attempts ?? 1)) {
        log.info("parse job handed back at shutdown", { job_id: id });
        throw err;
      }
      if (err.status >= 500) log.error("parse job failed", { job_class: err.errorClass, error: String(err.internal ?? err.message) });
      // A cancel already ended it (and settled it); this only finds it ended.
      await this.end(id, meta, { error: err });
    } finally {
      this.running.delete(id);
    }
  }
}
