/**
 * Piscina worker entry: every parse, page extraction, assembly and redaction runs here, never on
 * the main thread. Each task answers a `Result` value (errors cross threads as data, see
 * src/errors.ts) and, when it has a progress port, posts `end` before returning.
 */
import type { MessagePort } from "node:worker_threads";
import { threadId } from "node:worker_threads";
import { workerData } from "piscina";
import { assembleLines } from "../src/engine/assemble.ts";
import { parseStatement, toCsv } from "../src/engine/index.ts";
import { type Line, pageLines } from "../src/engine/layout/lines.ts";
import { guardPdf } from "../src/engine/guards/index.ts";
import { byteFacts, type DocumentFacts, integrityOf, type PageFacts, pageFacts } from "../src/engine/integrity/index.ts";
import { checkPageCount } from "../src/engine/pdf/extract.ts";
import { DEFAULT_PDF_EXTRACTOR, type OpenedPdf, openDocument } from "../src/engine/pdf/extractor.ts";
import { pdfiumMemoryBytes } from "../src/engine/pdf/pdfium/load.ts";
import { pageTreeUpdate } from "../src/engine/pdf/page-tree.ts";
import { sniff } from "../src/engine/sniff.ts";
import { redactDocument } from "../src/engine/redact/index.ts";
import type { ParseResponse } from "../src/engine/types.ts";
import { AppError, internalError, type Result, scannedDocument } from "../src/errors.ts";
import { decodeLines, encodeLines, LinesEncoder } from "../src/jobs/lines-wire.ts";
import { firstRangeBonus, orderParts, planRanges, rangeCount, splitCosts } from "../src/jobs/planner.ts";
import {
  type DocumentInput,
  type PagesOutput,
  type Parsed,
  type PortReply,
  type ParseWorkerData,
  type PortMessage,
  HEAP_CHECK_EVERY,
  HEAP_CHECK_IDLE_MS,
  RECYCLE_EXIT_CODE,
  type SplitPlan,
  type TaskOutputs,
  type WorkerAnswer,
  type WorkerTask,
} from "../src/jobs/tasks.ts";

const post = (port: MessagePort, m: PortMessage) => port.postMessage(m);

const { maxHeapBytes, extractor = DEFAULT_PDF_EXTRACTOR } = ((workerData as ParseWorkerData | undefined) ?? { maxHeapBytes: 0 });
const instance = Math.random().toString(36).slice(2, 10);
let retiring = false;

/**
 * True when the heap is still over the limit after a full collection (garbage left by the task
 * just finished is no reason to retire). pdf.js keeps caches per worker that can grow over many
 * documents, and PDFium's WebAssembly memory grows to the largest document read and never shrinks
 * (free space inside it is not returned to the system either); a fresh thread is the dependable
 * way to give that memory back. Bun's heapUsed already counts ArrayBuffer and WebAssembly memory
 * (test/engine/pdfium-memory.test.ts checks it), so adding the wasm memory would count it twice;
 * it is a floor instead, should a runtime stop counting it.
 */
function overHeapLimit(): boolean {
  const used = () => Math.max(process.memoryUsage().heapUsed, pdfiumMemoryBytes());
  if (maxHeapBytes <= 0 || used() <= maxHeapBytes) return false;
  Bun.gc(true);
  return used() > maxHeapBytes;
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
  if (task.split !== null) {
    const split = await splitAndReadFirst(bytes, task.split, task);
    if (split) return split;
  }
  const response = await parseStatement(bytes, {
    bank: doc.bank,
    password: doc.password,
    limits: doc.limits,
    extractor,
    onProgress: (progress) => post(port, { type: "progress", progress }),
  });
  return { parsed: serialise(response, task.csv) };
}

/**
 * A PDF above `split.above` pages is opened once here (pdf.js: with its page tree balanced if flat): the
 * range plan is posted before any page is read (the caller starts the other ranges on other
 * threads right away), then this task reads the first range with the document already open, and
 * assembles the statement itself if the other ranges are in (or running); otherwise it answers
 * its lines for an `assemble` task. Null: parse whole.
 */
async function splitAndReadFirst(
  bytes: Uint8Array,
  split: { above: number; workers: number },
  { doc, port, csv }: Extract<WorkerTask, { op: "parse" }>,
): Promise<TaskOutputs["parse"] | null> {
  if (sniff(bytes) !== "pdf") return null;
  // The password lets the guard decrypt and measure an encrypted document's streams too.
  const report = await guardPdf(bytes, { maxPages: doc.limits.maxPages }, { password: doc.password });
  // The page tree's own claim is enough to skip opening a small PDF twice; a claim that lies low
  // only means the document is parsed whole, which is still correct.
  if (report.pagesCountClaim <= split.above) return null;
  // Only pdf.js needs a flat page tree balanced (src/engine/pdf/page-tree.ts); PDFium reads it as it is.
  const update = extractor === "pdfjs" ? pageTreeUpdate(bytes, report.pageTree) : undefined;
  const pdf = await openDocument(extractor, bytes, { password: doc.password, update });
  try {
    checkPageCount(pdf.pageCount, doc.limits.maxPages);
    if (pdf.pageCount <= split.above) return null;
    const plan: SplitPlan = {
      pageCount: pdf.pageCount,
      producer: await pdf.producer(),
      ranges: planRanges(pdf.pageCount, split.workers, firstRangeBonus(pdf.pageCount, rangeCount(pdf.pageCount, split.workers), splitCosts(extractor))),
      ...(update ? { update } : {}),
    };
    post(port, { type: "split", ...plan });
    const { first, last } = plan.ranges[0]!;
    const info = await pdf.info();
    const own = await readRange(pdf, first, last, port);
    // Read while the other ranges are still being extracted; the byte scan is linear and cheap.
    own.documentFacts = { info, bytes: byteFacts(bytes, { password: doc.password, maxPages: pdf.pageCount, objectStreams: report.objectStreams }) };
    const others = await askForParts(port, { first, last });
    if (others) {
      post(port, { type: "progress", progress: { stage: "assemble", current: 0, total: 1 } });
      const parsed = assembleParts([own, ...others], plan.pageCount, plan.producer, doc.bank, csv);
      post(port, { type: "progress", progress: { stage: "assemble", current: 1, total: 1 } });
      return { parsed };
    }
    const firstOut: PagesOutput = { first, count: own.count, lines: encodeLines(own.lines), hasText: own.hasText, threadId, pageFacts: own.pageFacts, documentFacts: own.documentFacts };
    return { split: { ...plan, first: firstOut } };
  } finally {
    await pdf.close();
  }
}

/** The other ranges' outputs if the main thread has them all already (see PortReply), else null. */
function askForParts(port: MessagePort, read: { first: number; last: number }): Promise<PagesOutput[] | null> {
  return new Promise((resolve) => {
    port.once("message", (r: PortReply) => resolve(r.parts));
    post(port, { type: "want-parts", ...read, threadId });
  });
}

/**
 * Pages first..last of a document whose `parse` task already sniffed and guarded these same
 * (shared, never written) bytes, so neither is repeated per range.
 */
async function pages(task: Extract<WorkerTask, { op: "pages" }>): Promise<TaskOutputs["pages"]> {
  const { doc, port } = task;
  const pdf = await openDocument(extractor, new Uint8Array(doc.bytes), { password: doc.password, update: task.update });
  try {
    const encoder = new LinesEncoder();
    const range = await readRange(pdf, task.first, Math.min(task.last, pdf.pageCount), port, encoder);
    return { first: range.first, count: range.count, lines: encoder.finish(), hasText: range.hasText, threadId, pageFacts: range.pageFacts };
  } finally {
    await pdf.close();
  }
}

/** A range's pages as layout lines (pageLines of each page, in page order). */
interface RangeLines {
  first: number;
  count: number;
  lines: Line[];
  /** Some page of the range has text (a document with none at all is a scan). */
  hasText: boolean;
  pageFacts: PageFacts[];
  documentFacts?: PagesOutput["documentFacts"];
}

/**
 * Reads pages first..last into lines, page by page: a page's text items are garbage as soon as
 * its lines are built, which keeps a large range's heap (and the collections it costs) small.
 * With an `encoder` (a range task's lines go to another worker), each page's lines go to it
 * while they are fresh, and `lines` stays empty.
 */
async function readRange(pdf: OpenedPdf, first: number, last: number, port: MessagePort, encoder?: LinesEncoder): Promise<RangeLines> {
  const lines: Line[] = [];
  const facts: PageFacts[] = [];
  let hasText = false;
  for (let n = first; n <= last; n++) {
    const page = await pdf.readPage(n);
    hasText ||= page.items.length > 0;
    const built = pageLines(page);
    if (encoder) encoder.add(built);
    else for (const line of built) lines.push(line);
    facts.push(pageFacts(page));
    post(port, { type: "page", number: n });
  }
  return { first, count: Math.max(0, last - first + 1), lines, hasText, pageFacts: facts };
}

/** Merges ranges (any order) in page order and assembles the statement. */
function assembleParts(parts: (PagesOutput | RangeLines)[], pageCount: number, producer: string, bank: string | undefined, csv: boolean): Parsed {
  const ordered = orderParts(parts, pageCount);
  // The whole-document path checks this inside the engine (assertHasText); split ranges here.
  if (pageCount > 0 && !ordered.some((p) => p.hasText)) throw scannedDocument();
  const lines = ordered.flatMap((p) => (Array.isArray(p.lines) ? p.lines : decodeLines(p.lines)));
  const response = assembleLines(lines, producer, { bank });
  const document = ordered.find((p) => p.documentFacts)?.documentFacts;
  // Every split parse has them (the planning task reads them); a missing one is a wiring mistake.
  if (!document) throw new Error("the planning task's integrity facts are missing from the ranges");
  const facts: DocumentFacts = { ...document, pages: ordered.flatMap((p) => p.pageFacts) };
  response.integrity = integrityOf(response, facts);
  return serialise(response, csv);
}

const assemble = (task: Extract<WorkerTask, { op: "assemble" }>): TaskOutputs["assemble"] =>
  assembleParts(task.parts, task.pageCount, task.producer, task.bank, task.csv);

async function redact(task: Extract<WorkerTask, { op: "redact" }>): Promise<TaskOutputs["redact"]> {
  const r = await redactDocument(ownCopy(task.doc), { password: task.doc.password, bank: task.doc.bank, limits: task.doc.limits, extractor });
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

// When the heap is checked: see HEAP_CHECK_IDLE_MS.
let uncheckedTasks = 0;
let heapCheck: ReturnType<typeof setTimeout> | undefined;
const checkHeap = () => {
  uncheckedTasks = 0;
  retiring ||= overHeapLimit();
};

export default async function handle(task: WorkerTask): Promise<WorkerAnswer> {
  clearTimeout(heapCheck);
  // A check that is due but lost the race with this task's arrival runs now, before it.
  if (uncheckedTasks >= HEAP_CHECK_EVERY) checkHeap();
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
    // Macrotasks run once Piscina has posted the answer.
    if (++uncheckedTasks >= HEAP_CHECK_EVERY) setImmediate(checkHeap);
    else heapCheck = setTimeout(checkHeap, HEAP_CHECK_IDLE_MS);
  }
}
