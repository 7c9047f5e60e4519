/**
 * Piscina worker entry: every parse, page extraction, assembly and redaction runs here, never on
 * the main thread. Each task answers a `Result` value (errors cross threads as data, see
 * src/errors.ts) and, when it has a progress port, posts `end` before returning.
 */
import type { MessagePort } from "node:worker_threads";
import { threadId } from "node:worker_threads";
import { workerData } from "piscina";
import { assembleStatement, extractPdfPages, inspectDocument, parseStatement, toCsv } from "../src/engine/index.ts";
import { assertHasText } from "../src/engine/pdf/extract.ts";
import { redactDocument } from "../src/engine/redact/index.ts";
import type { ExtractedDocument, PageText, ParseResponse } from "../src/engine/types.ts";
import { AppError, internalError, type Result } from "../src/errors.ts";
import { mergePages } from "../src/jobs/planner.ts";
import {
  type DocumentInput,
  type Parsed,
  type ParseWorkerData,
  type PortMessage,
  RECYCLE_EXIT_CODE,
  type TaskOutputs,
  type WorkerAnswer,
  type WorkerTask,
} from "../src/jobs/tasks.ts";

const post = (port: MessagePort, m: PortMessage) => port.postMessage(m);

const { maxHeapBytes } = ((workerData as ParseWorkerData | undefined) ?? { maxHeapBytes: 0 });
const instance = Math.random().toString(36).slice(2, 10);
let retiring = false;

/**
 * True when the heap is still over the limit after a full collection (garbage left by the task
 * just finished is no reason to retire). pdf.js keeps caches per worker that can grow over many
 * documents; a fresh thread is the dependable way to give that memory back.
 */
function overHeapLimit(): boolean {
  if (maxHeapBytes <= 0 || process.memoryUsage().heapUsed <= maxHeapBytes) return false;
  Bun.gc(true);
  return process.memoryUsage().heapUsed > maxHeapBytes;
}

/**
 * The engine may hand the bytes to pdf.js, which can detach or keep them; one private copy per
 * task (not per page) keeps the shared upload intact for the document's other tasks.
 */
const ownCopy = (doc: DocumentInput): Uint8Array => new Uint8Array(doc.bytes).slice();

const serialise = (response: ParseResponse, csv: boolean): Parsed =>
  csv ? { json: JSON.stringify(response), csv: toCsv(response) } : { json: JSON.stringify(response) };

async function parse(task: Extract<WorkerTask, { op: "parse" }>): Promise<TaskOutputs["parse"]> {
  const { doc, port } = task;
  const bytes = ownCopy(doc);
  if (task.splitAbove !== null) {
    const info = await inspectDocument(bytes, { password: doc.password, maxPages: doc.limits.maxPages });
    if (info.kind === "pdf" && info.pageCount > task.splitAbove) return { split: { pageCount: info.pageCount, producer: info.producer } };
  }
  const response = await parseStatement(bytes, {
    bank: doc.bank,
    password: doc.password,
    limits: doc.limits,
    onProgress: (progress) => post(port, { type: "progress", progress }),
  });
  return { parsed: serialise(response, task.csv) };
}

async function pages(task: Extract<WorkerTask, { op: "pages" }>): Promise<TaskOutputs["pages"]> {
  const { doc, port } = task;
  const extracted = await extractPdfPages(ownCopy(doc), {
    password: doc.password,
    first: task.first,
    last: task.last,
    onPage: (n: number) => post(port, { type: "page", number: n }),
  });
  return { pagesJson: JSON.stringify(extracted), threadId };
}

function assemble(task: Extract<WorkerTask, { op: "assemble" }>): TaskOutputs["assemble"] {
  const pages = mergePages(
    task.parts.map((p) => JSON.parse(p) as PageText[]),
    task.pageCount,
  );
  // The whole-document path checks this inside the engine; split pages are checked here, merged.
  assertHasText(pages);
  const doc: ExtractedDocument = { kind: "pdf", pageCount: task.pageCount, producer: task.producer, pages };
  return serialise(assembleStatement(doc, { bank: task.bank }), task.csv);
}

async function redact(task: Extract<WorkerTask, { op: "redact" }>): Promise<TaskOutputs["redact"]> {
  const r = await redactDocument(ownCopy(task.doc), { password: task.doc.password, bank: task.doc.bank });
  // Response bodies need an ArrayBuffer-backed view; copy only if the engine handed back a shared one.
  const bytes = r.bytes.buffer instanceof ArrayBuffer ? (r.bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(r.bytes);
  return { bytes, redactions: r.redactions, contentType: r.contentType };
}

async function run(task: WorkerTask): Promise<TaskOutputs[keyof TaskOutputs]> {
  switch (task.op) {
    case "ping":
      return { threadId, instance };
    case "parse":
      return parse(task);
    case "pages":
      return pages(task);
    case "assemble":
      return assemble(task);
    case "redact":
      return redact(task);
  }
}

export default async function handle(task: WorkerTask): Promise<WorkerAnswer> {
  // Retire before touching the task: the pool sees the exit code and runs the task on another
  // worker. (Exiting right after the previous task could race with the next one being handed in.)
  if (retiring) process.exit(RECYCLE_EXIT_CODE);
  try {
    return { ok: true, value: await run(task) };
  } catch (e) {
    const error = e instanceof AppError ? e : internalError(e);
    if (!(e instanceof AppError)) console.error("parse worker:", e instanceof Error ? (e.stack ?? e.message) : e);
    return { ok: false, error: error.toJSON() } satisfies Result<never>;
  } finally {
    if ("port" in task) {
      post(task.port, { type: "end" });
      task.port.close();
    }
    retiring = overHeapLimit();
  }
}
