import type { Caller } from "../db/keys.ts";
import type { ReadinessCheck } from "../readiness.ts";
import type { Hold } from "./gate.ts";
import type { JobState } from "./job.ts";
import type { DocumentResult } from "./runner.ts";
import type { JobObserver } from "./observer.ts";
import type { Outcome, SubmitOptions, Upload } from "./service.ts";
import type { ResultKind } from "./tasks.ts";

/**
 * A parse job as the HTTP handlers see it, wherever it lives (this process's memory, or Redis
 * shared by several instances). Read once per request: a later change is seen by the next one.
 */
export interface JobView {
  readonly id: string;
  readonly state: JobState;
  /** The output the job was submitted for (format=xlsx: a json parse whose result is fetched as a workbook). */
  readonly kind: ResultKind;
  /** The canned sample was returned instead of a parse. */
  readonly sample: boolean;
  /** The SPEC 2.5 snapshot as JSON, `result` spliced in once done (src/jobs/job.ts snapshotJson). */
  snapshotJson(): Promise<string>;
  /** What the poll endpoint sends: the same snapshot, as UTF-8 bytes where the result is held so (src/jobs/result-text.ts). */
  snapshotBody(): Promise<string | Uint8Array<ArrayBuffer>>;
  /** The finished parse (done jobs only; undefined otherwise or once swept). */
  outcome(): Promise<DocumentResult | undefined>;
}

/** What GET /v1/status adds about the jobs' cluster (absent when jobs live in one process). */
export interface ClusterStatus {
  instance_id: string;
  /** Absent when Redis did not answer. */
  cluster?: {
    /** Jobs waiting for a worker, all instances. */
    queue_depth: number;
    /** Jobs being parsed, all instances. */
    running: number;
    /** Instances whose heartbeat is current. */
    instances_online: number;
    /** Parse worker threads of those instances together. */
    workers_online: number;
  };
}

/**
 * Where parse jobs live and run: created, found, cancelled, streamed and admitted. Two
 * implementations, chosen once at start (src/server.ts): in this process (src/jobs/local-backend.ts,
 * the default) or on Redis through BullMQ (src/jobs/redis/backend.ts, REDIS_URL), where any
 * instance serves any job. The synchronous POST /v1/parse never goes through it.
 *
 * Lookups throw 404 `job_expired` for a job that was held and has been swept, else 404
 * `not_found`; with `owner`, another owner's job reads as unknown.
 */
export interface JobBackend {
  /** Takes the caller's in-flight place (and upload bytes) before its upload is read; 429/503 when full. */
  hold(caller: Caller, bytes: number): Promise<Hold>;
  /**
   * The same for a sync POST /v1/parse, which runs here whatever the backend: this process's gate,
   * and with Redis also the key's cluster-wide in-flight place (so the per-key limit counts both).
   */
  holdSync(caller: Caller, bytes: number): Promise<Hold>;
  submit(caller: Caller, upload: Upload, request: { headers: Headers }, options?: SubmitOptions): Promise<{ id: string }>;
  /**
   * Keeps a finished sync parse as a done job under `id`, for as long as any job's result
   * (JOB_RESULT_TTL_S): an idempotent POST /v1/parse is replayed from it. Nothing is counted.
   */
  keep(caller: Caller, id: string, kind: ResultKind, outcome: Outcome): Promise<void>;
  /** Told when a job starts and ends, by whichever instance saw it (src/jobs/observer.ts). */
  observe(observer: JobObserver): void;
  /** `owner` undefined: the credential-free stream, where the id is the capability. */
  find(id: string, owner?: string): Promise<JobView>;
  /** Cancels a queued or running job; 409 `job_finished` once it has ended. */
  cancel(id: string, owner: string): Promise<JobView>;
  /**
   * The job's SSE stream (SPEC 6): 409 `stream_in_use` while another consumer reads it, 204 for a
   * reconnecting client that already has the result. `lastEventId` is the raw Last-Event-ID header.
   */
  stream(id: string, lastEventId: string | null, heartbeatMs: number): Promise<Response>;
  /** Checks /readyz runs besides the database and engine pool. */
  readiness(): ReadinessCheck[];
  /** Fields GET /v1/status adds (none for in-process jobs). */
  status(): Promise<ClusterStatus | undefined>;
  /** Stops taking jobs, lets running parses (jobs and sync) finish up to `graceMs`, then shuts the parse service down. */
  shutdown(graceMs: number): Promise<void>;
}
