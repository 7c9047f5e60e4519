import type { MessagePort } from "node:worker_threads";
import type { Result } from "../errors.ts";
import type { PageFacts } from "../engine/integrity/index.ts";
import type { EngineLimits, Progress } from "../engine/types.ts";
import type { PdfExtractorName } from "../engine/pdf/extractor-name.ts";
import type { PageBlock } from "./claims.ts";
import type { LinesWire } from "./lines-wire.ts";
import type { WarmupReport } from "./warmup.ts";

/**
 * The messages that cross the thread boundary between the main thread and a parse worker. Only
 * plain data travels: the upload is one SharedArrayBuffer every task of a document reads, errors
 * travel as `Result` values, and progress goes over a MessagePort handed to the task.
 */

/**
 * What the caller asked for; decides the worker's last step and the result endpoint's body. An
 * xlsx parse is a json parse in the worker: the workbook is made from its JSON when it is fetched.
 */
export type ResultKind = "json" | "csv" | "xlsx" | "redact";

export interface DocumentInput {
  /** The upload, shared (not copied) with every task of the document. */
  bytes: SharedArrayBuffer;
  password?: string;
  bank?: string;
  limits: Required<EngineLimits>;
}

export type WorkerTask =
  /** Loads the engine (and PDFium, when it is the extractor); answers once it is ready (readiness probe). */
  | { op: "ping" }
  /**
   * Parses the whole document in this worker, unless it is a PDF with more than `split.above`
   * pages and `split.workers` is above 1: then it posts a `split` port message (the caller starts
   * the helper tasks at once), reads pages from the front of the shared claims
   * (src/jobs/claims.ts) while the helpers read from the back, asks for the helpers' pages
   * (`want-parts`) once every page is claimed, and assembles the statement itself.
   * With `insights`, the answer is written with enrichment and insights (docs/insights.md), made
   * here from the parse's objects rather than from its JSON on another thread.
   */
  | { op: "parse"; doc: DocumentInput; csv: boolean; insights?: boolean; split: { above: number; workers: number } | null; port: MessagePort }
  /**
   * Reads pages claimed from the back of `claims` until every page is claimed; `update` is the
   * plan's page-tree update, appended to this task's copy of the upload.
   */
  | { op: "pages"; doc: DocumentInput; claims: SharedArrayBuffer; update?: Uint8Array; port: MessagePort }
  | { op: "redact"; doc: DocumentInput };

/**
 * Big values cross threads as JSON made in the worker, instead of an object graph of thousands of
 * rows the main thread would rebuild (and later serialise) while it should be answering requests.
 * The JSON goes as UTF-8 bytes in a SharedArrayBuffer, which crosses threads without a copy: what
 * an HTTP answer sends as it is, and what the insights thread reads when a kept result is asked
 * for insights (a copy of 26 MB into that thread took ~170 ms). A string would be copied on the way
 * (a 59 MB answer took 130-280 ms from the worker's return to the main thread's hands, four times
 * as long for text outside Latin-1) and encoded again by every response that sends it
 * (docs/benchmarks.md, "The answer as bytes"). Nothing writes to the bytes once they are made.
 */
export interface Parsed {
  /** The ParseResponse, serialised, as UTF-8 (in a SharedArrayBuffer). */
  utf8: Uint8Array;
  /** Present when the task asked for CSV. */
  csv?: string;
  /** The JSON (and CSV) carry enrichment and insights; absent when the task did not ask or they could not be made. */
  insights?: true;
  /** How long writing this answer took the worker (the JSON, the CSV, the insights when asked), ms. */
  answerMs: number;
}

export interface SplitPlan {
  pageCount: number;
  /** Helper tasks to start, each reading pages from the back of `claims`. */
  helpers: number;
  /** The shared page counter (src/jobs/claims.ts). */
  claims: SharedArrayBuffer;
  /** Incremental update that balances a flat page tree for pdf.js (src/engine/pdf/page-tree.ts); PDFium needs none. */
  update?: Uint8Array;
}
/** The whole document parsed, or a split one assembled by its planning task. */
export type ParseOutput = { parsed: Parsed };
/** A run of pages read, and how many layout lines its pages gave (so the lines can be cut back into runs). */
export interface ReadBlock extends PageBlock {
  lines: number;
}

/**
 * The pages a helper task read, as layout lines (pageLines of each page, built in the worker that
 * read them, so that work is spread over the threads instead of left to the one assembling).
 */
export interface PagesOutput {
  /** The runs of pages read, in the order they were read (the lines' order); none when the helper started after every page was claimed. */
  blocks: ReadBlock[];
  /** Line[] of the blocks in read order, in the columnar wire form (src/jobs/lines-wire.ts). */
  lines: LinesWire;
  /** Some page read has text (a document with none at all is a scan). */
  hasText: boolean;
  /** Worker thread that read the pages (lets tests see the fan-out). */
  threadId: number;
  /** Integrity facts of each page read, in read order. */
  pageFacts: PageFacts[];
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
  /** Warm the engine before answering the first ping (WORKER_WARMUP, src/jobs/warmup.ts); absent: no warm-up. */
  warmup?: boolean;
}

export interface TaskOutputs {
  /** `instance` is random per worker start (thread ids can be reused by a replacement). */
  ping: { threadId: number; instance: string; /** Null when the worker was started without warm-up. */ warmup: WarmupReport | null };
  parse: ParseOutput;
  pages: PagesOutput;
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
  /**
   * Every page is claimed: the planning task has read `blocks` and asks for the helpers' pages
   * (answered with PortReply once they are all in).
   */
  | { type: "want-parts"; blocks: PageBlock[]; threadId: number }
  | { type: "end" };

/**
 * The main thread's answer to `want-parts`: the outputs of the helpers that read pages, once they
 * are all in. The planning task never waits for a helper still queued: a helper claims pages only
 * once it runs, and one that starts after every page is claimed reads none (two documents'
 * planning tasks each waiting for a helper queued behind the other would hold both threads for ever).
 */
export type PortReply = { type: "parts"; parts: PagesOutput[] };
