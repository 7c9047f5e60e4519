import type { MessagePort } from "node:worker_threads";
import type { Result } from "../errors.ts";
import type { EngineLimits, PageText, ParseResponse, Progress } from "../engine/types.ts";

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
   * Parses the whole document in this worker, unless it is a PDF with more than `splitAbove`
   * pages: then it answers `{ split }` at once so the caller can fan the pages out.
   */
  | { op: "parse"; doc: DocumentInput; csv: boolean; splitAbove: number | null; port: MessagePort }
  /** Extracts the text of pages first..last (1-based, inclusive). */
  | { op: "pages"; doc: DocumentInput; first: number; last: number; port: MessagePort }
  /** Layout inference and assembly over pages extracted by `pages` tasks, merged in page order. */
  | { op: "assemble"; pages: PageText[]; pageCount: number; producer: string; bank?: string; csv: boolean }
  | { op: "redact"; doc: DocumentInput };

export interface Parsed {
  response: ParseResponse;
  /** Present when the task asked for CSV. */
  csv?: string;
}

export type ParseOutput = { split: { pageCount: number; producer: string } } | { parsed: Parsed };
export interface PagesOutput {
  pages: PageText[];
  /** Worker thread that extracted the range (lets tests see the fan-out). */
  threadId: number;
}
export interface RedactOutput {
  bytes: Uint8Array<ArrayBuffer>;
  redactions: number;
  contentType: string;
}

export interface TaskOutputs {
  ping: { threadId: number };
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
export type PortMessage = { type: "progress"; progress: Progress } | { type: "page"; number: number } | { type: "end" };
