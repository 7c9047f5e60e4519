import type { MessagePort } from "node:worker_threads";
import type { Result } from "../errors.ts";
import type { ByteFacts, InfoFacts, PageFacts } from "../engine/integrity/index.ts";
import type { EngineLimits, Progress } from "../engine/types.ts";
import type { PdfExtractorName } from "../engine/pdf/extractor-name.ts";
import type { LinesWire } from "./lines-wire.ts";

/**
 * The messages that cross the thread boundary between the main thread and a parse worker. Only
 * plain data travels: the upload is one SharedArrayBuffer every task of a document reads, errors
 * travel as `Result` values, and progress goes over a MessagePort handed to the task.
 */

/** What the caller asked for; decides the worker's last step and the result endpoint's body. */
export type ResultKind = "json" | "csv" | "redact";

export interface DocumentInput {
  /** The upload, shared (not copied) with every task of the document. */
  bytes: SharedArrayBuffer;
  password?: string;
  bank?: string;
  limits: Required<EngineLimits>;
}

export type WorkerTask =
  /** Loads the engine; answers once it is ready (readiness probe). */
  | { op: "ping" }
  /**
   * Parses the whole document in this worker, unless it is a PDF with more than `split.above`
   * pages: then it plans page ranges for `split.workers` threads, posts the plan (`split` port
   * message) so the caller can start the other ranges at once, reads the first range itself with
   * the document it already opened, then asks for the other ranges (`want-parts`): with them it
   * answers `{ parsed }`, assembled in place; without, `{ split }` for an `assemble` task.
   */
  | { op: "parse"; doc: DocumentInput; csv: boolean; split: { above: number; workers: number } | null; port: MessagePort }
  /**
   * Extracts the text of pages first..last (1-based, inclusive); `update` is the plan's page-tree
   * update, appended to this task's copy of the upload.
   */
  | { op: "pages"; doc: DocumentInput; first: number; last: number; update?: Uint8Array; port: MessagePort }
  /** Layout inference and assembly over the range tasks' lines (`parts`, any order). */
  | { op: "assemble"; parts: PagesOutput[]; pageCount: number; producer: string; bank?: string; csv: boolean }
  | { op: "redact"; doc: DocumentInput };

/**
 * Big values cross threads as JSON text made in the worker: the main thread then only copies a
 * string, instead of rebuilding (and later serialising) an object graph of thousands of rows
 * while it should be answering requests.
 */
export interface Parsed {
  /** The ParseResponse, serialised. */
  json: string;
  /** Present when the task asked for CSV. */
  csv?: string;
}

export interface SplitPlan {
  pageCount: number;
  producer: string;
  /** Contiguous, in page order; the first one is read by the task that planned them. */
  ranges: { first: number; last: number }[];
  /** Incremental update that balances a flat page tree for pdf.js (src/engine/pdf/page-tree.ts); PDFium needs none. */
  update?: Uint8Array;
}
export type ParseOutput =
  /** The first range's lines, for an `assemble` task. */
  | { split: SplitPlan & { first: PagesOutput } }
  /** The whole document, or a split one assembled in place. */
  | { parsed: Parsed };
/**
 * A range's pages as layout lines (pageLines of each page, built in the worker that read them, so
 * that work is spread over the threads instead of left to the one assembling).
 */
export interface PagesOutput {
  first: number;
  /** Pages read, from `first` on. */
  count: number;
  /** Line[] of the range in page order, in the columnar wire form (src/jobs/lines-wire.ts). */
  lines: LinesWire;
  /** Some page of the range has text (a document with none at all is a scan). */
  hasText: boolean;
  /** Worker thread that extracted the range (lets tests see the fan-out). */
  threadId: number;
  /** Integrity facts of each page read (size, text-layer signals), in page order. */
  pageFacts: PageFacts[];
  /**
   * Integrity facts of the whole document, read once by the planning task and carried by the first
   * range's output to whichever task assembles.
   */
  documentFacts?: { info: InfoFacts; bytes: ByteFacts };
}
export interface RedactOutput {
  bytes: Uint8Array<ArrayBuffer>;
  redactions: number;
  contentType: string;
}

/**
 * Exit code of a worker retiring because its heap outgrew WORKER_MAX_HEAP_MB. It exits on the
 * task after the one that grew it, before touching that task, so the pool can run it elsewhere.
 */
export const RECYCLE_EXIT_CODE = 75;

/**
 * A worker checks its heap (WORKER_MAX_HEAP_MB) with a forced full collection: a few hundred ms
 * after a large task. Run right after each task, it held up whatever came next on the thread (the
 * next document of a batch), so it runs once the worker has been idle this long, and a new task
 * cancels it; under steady load it still runs after every HEAP_CHECK_EVERY-th task (after the
 * answer, or before the next task if that arrives first).
 */
export const HEAP_CHECK_IDLE_MS = 500;
export const HEAP_CHECK_EVERY = 4;

/** Piscina `workerData` of every parse worker. */
export interface ParseWorkerData {
  /** Retire after a task that leaves the heap (heapUsed, PDFium's wasm memory included) above this many bytes (0: never). */
  maxHeapBytes: number;
  /** PDF text extractor (PDF_EXTRACTOR); absent: the engine's default. */
  extractor?: PdfExtractorName;
}

export interface TaskOutputs {
  /** `instance` is random per worker start (thread ids can be reused by a replacement). */
  ping: { threadId: number; instance: string };
  parse: ParseOutput;
  pages: PagesOutput;
  assemble: Parsed;
  redact: RedactOutput;
}

export type TaskOutput<T extends WorkerTask> = TaskOutputs[T["op"]];
export type WorkerAnswer = Result<TaskOutputs[keyof TaskOutputs]>;

/**
 * Progress port protocol. `end` is always the last message a task posts: its return value can
 * overtake messages still queued on the port, so the main thread waits for `end` before it
 * treats the task's progress as complete.
 */
export type PortMessage =
  | { type: "progress"; progress: Progress }
  | { type: "page"; number: number }
  | ({ type: "split" } & SplitPlan)
  /** The planning task has read its range (first..last) and asks for the others' (answered with PortReply). */
  | { type: "want-parts"; first: number; last: number; threadId: number }
  | { type: "end" };

/**
 * The main thread's answer to `want-parts`: every other range's output, once they are all in;
 * null at once when some range's task has not started yet. A planning task may wait for running
 * tasks, never for queued ones: two documents' planning tasks each waiting for a range queued
 * behind the other would hold both threads for ever.
 */
export type PortReply = { type: "parts"; parts: PagesOutput[] | null };
