import type { Progress } from "../engine/types.ts";
import type { AppError } from "../errors.ts";
import { envelope } from "../http/errors.ts";
import { FORMAT_VERSION } from "../version.ts";
import { ProgressPace } from "./progress-pace.ts";
import { jsonBytesHeld } from "./result-text.ts";
import type { DocumentResult } from "./runner.ts";
import type { ResultKind } from "./tasks.ts";

export type JobState = "queued" | "running" | "done" | "failed";

/** One SSE message: progress as default `data:` lines, the end as `event: result`. */
export interface JobEvent {
  id: number;
  event?: "result";
  data: string;
  /** `data` as UTF-8 bytes on one line, where the result is held so (src/jobs/result-text.ts): a stream sends these. */
  utf8?: Uint8Array;
}

/** SPEC 2.5 snapshot, built for the poll endpoint; `result` is spliced in by snapshotJson(). */
export interface JobSnapshot {
  job_id: string;
  state: JobState;
  result_kind: ResultKind;
  progress: Progress;
  format_version: string;
  redactions: number;
  sample: boolean;
  result_url?: string;
  error?: string;
  error_class?: string;
  /** The caller's own label for the job (client_reference at creation). */
  client_reference?: string;
}

export const jobPaths = (id: string) => ({
  poll_url: `/v1/parse/jobs/${id}`,
  stream_url: `/v1/parse/jobs/${id}/stream`,
  result_url: `/v1/parse/jobs/${id}/result`,
});

/**
 * A parse job's record and its event source. Progress only moves forward within a stage and is
 * paced (progress-pace.ts); the final `result` event is built once and kept, so a consumer that
 * arrives late still gets it.
 */
export class Job {
  state: JobState = "queued";
  outcome?: DocumentResult;
  error?: AppError;
  sample = false;
  /** Set while an SSE consumer is attached (one at a time). */
  streaming = false;
  /**
   * The parse succeeded and its use is being written: a cancel is refused from now on (the parse is
   * counted), while the job shows `done` only once the write has landed (or been left to the
   * background retries), so a client that sees `done` and then reads its usage finds it counted.
   */
  private settling = false;
  /** Aborted by cancel(): the parse's worker tasks stop (src/jobs/service.ts). */
  private readonly cancelling = new AbortController();
  private seq = 0;
  private final?: JobEvent;
  private readonly listeners = new Set<(e: JobEvent) => void>();
  private readonly pace = new ProgressPace((p) => this.emit({ id: ++this.seq, data: JSON.stringify(p) }), { stage: "queued", current: 0, total: 0 });

  constructor(
    readonly id: string,
    readonly owner: string,
    readonly kind: ResultKind,
    readonly clientReference?: string,
  ) {}

  get finished(): boolean {
    return this.state === "done" || this.state === "failed";
  }

  /** The latest step, sent to a stream or not yet (a poll shows it at once). */
  get progress(): Progress {
    return this.pace.latest;
  }

  /** Aborts with the cancel error once the owner cancels the job. */
  get signal(): AbortSignal {
    return this.cancelling.signal;
  }

  /**
   * A worker took the job: it is running, and its progress says which stage it is in from now on
   * (never `queued` while running), before the first page is read.
   */
  start(): void {
    if (this.state !== "queued") return;
    this.state = "running";
    this.pace.report({ stage: this.kind === "redact" ? "redact" : "extract", current: 0, total: 0 });
  }

  /**
   * Ends a queued or running job as failed with `error` (job_cancelled) and aborts its parse.
   * False when it had already finished.
   */
  cancel(error: AppError): boolean {
    if (this.finished || this.settling) return false;
    this.fail(error);
    this.cancelling.abort(error);
    return true;
  }

  /** Success is decided (see `settling`); succeed() follows once its use is written. */
  settle(): void {
    if (!this.finished) this.settling = true;
  }

  report(p: Progress): void {
    if (!this.finished) this.pace.report(p);
  }

  succeed(outcome: DocumentResult, sample = false): void {
    if (this.finished) return;
    this.pace.flush();
    this.state = "done";
    this.outcome = outcome;
    this.sample = sample;
    // Read when sent: the result's text is made from its bytes then (src/jobs/result-text.ts), not
    // kept beside them for as long as the job is held.
    const body = () => this.resultBody();
    this.final = {
      id: ++this.seq,
      event: "result",
      get data() {
        return body();
      },
      ...(outcome.kind !== "redact" && outcome.utf8 ? { utf8: outcome.utf8 } : {}),
    };
    this.emit(this.final);
  }

  fail(error: AppError): void {
    if (this.finished) return;
    this.pace.stop();
    this.state = "failed";
    this.error = error;
    this.final = { id: ++this.seq, event: "result", data: JSON.stringify(envelope(error)) };
    this.emit(this.final);
  }

  /**
   * The events a new consumer should see first: the latest progress, or the final event; only
   * those newer than `afterId` (the Last-Event-ID of a reconnecting EventSource).
   */
  replay(afterId = 0): JobEvent[] {
    const latest = this.final ?? (this.seq > 0 ? { id: this.seq, data: JSON.stringify(this.progress) } : undefined);
    return latest && latest.id > afterId ? [latest] : [];
  }

  subscribe(fn: (e: JobEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  snapshot(): JobSnapshot {
    const s: JobSnapshot = {
      job_id: this.id,
      state: this.state,
      result_kind: this.kind,
      progress: this.progress,
      format_version: FORMAT_VERSION,
      redactions: this.outcome?.kind === "redact" ? this.outcome.redactions : 0,
      sample: this.sample,
    };
    if (this.kind !== "json") s.result_url = jobPaths(this.id).result_url;
    if (this.state === "failed" && this.error) {
      s.error = this.error.message;
      s.error_class = this.error.errorClass;
    }
    if (this.clientReference !== undefined) s.client_reference = this.clientReference;
    return s;
  }

  /**
   * The snapshot as JSON, with `result` (once done, json and csv jobs) spliced in from the text the
   * worker serialised, so a large result is never rebuilt as objects on this thread.
   */
  snapshotJson(): string {
    const o = this.outcome;
    if (this.state !== "done" || !o || o.kind === "redact") return JSON.stringify(this.snapshot());
    return `${this.resultHead()}${o.json}}`;
  }

  /**
   * snapshotJson() as the poll endpoint sends it: once done with a result held as UTF-8 bytes, the
   * snapshot's bytes around those of the result (one copy, no text decoded and encoded again).
   */
  snapshotBody(): string | Uint8Array<ArrayBuffer> {
    const o = this.outcome;
    if (this.state !== "done" || !o || o.kind === "redact" || !o.utf8) return this.snapshotJson();
    const head = new TextEncoder().encode(this.resultHead());
    const out = new Uint8Array(head.byteLength + o.utf8.byteLength + 1);
    out.set(head);
    out.set(o.utf8, head.byteLength);
    out[out.byteLength - 1] = 0x7d; // }
    return out;
  }

  /** The snapshot's JSON up to its `result`'s value: `{…,"result":`. */
  private resultHead(): string {
    return `${JSON.stringify(this.snapshot()).slice(0, -1)},"result":`;
  }

  /** Rough bytes held by the finished job, for the cache's byte budget. */
  size(): number {
    const o = this.outcome;
    // Strings count two bytes a character. A done parse's final event is its JSON, made from the
    // outcome when sent (so counted once, as the outcome); other final events are small texts.
    if (!o || o.kind === "redact") return 1024 + (this.final?.data.length ?? 0) * 2 + (o ? o.bytes.byteLength : 0);
    return 1024 + jsonBytesHeld(o) + (o.kind === "csv" ? o.csv.length * 2 : 0);
  }

  /** What the `result` event carries: the ParseResponse, or for redaction where to fetch the bytes. */
  private resultBody(): string {
    const o = this.outcome;
    if (!o) return "null";
    if (o.kind !== "redact") return o.json;
    return JSON.stringify({ format_version: FORMAT_VERSION, result_url: jobPaths(this.id).result_url, redactions: o.redactions, content_type: o.contentType });
  }

  private emit(e: JobEvent): void {
    for (const fn of this.listeners) fn(e);
  }
}
