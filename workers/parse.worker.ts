/**
 * Piscina worker entry: every parse, page extraction, assembly and redaction runs here, never on
 * the main thread. Each task answers a `Result` value (errors cross threads as data, see
 * src/errors.ts) and, when it has a progress port, posts `end` before returning.
 */
import type { MessagePort } from "node:worker_threads";
import { MessageChannel, threadId } from "node:worker_threads";
import { workerData } from "piscina";
import { assembleLines } from "../src/engine/assemble.ts";
import { assembleParts } from "../src/engine/parallel/assemble-parts.ts";
import { type HeadScan, scanHead, speculateTail } from "../src/engine/parallel/tail-scan.ts";
import { parseStatement, toCsv } from "../src/engine/index.ts";
import { type Line, pageLines } from "../src/engine/layout/lines.ts";
import { guardPdf } from "../src/engine/guards/index.ts";
import { type ByteFacts, byteFacts, type DocumentFacts, type InfoFacts, integrityOf, type PageFacts, pageFacts } from "../src/engine/integrity/index.ts";
import { checkPageCount } from "../src/engine/pdf/extract.ts";
import { DEFAULT_PDF_EXTRACTOR, type OpenedPdf, openDocument } from "../src/engine/pdf/extractor.ts";
import { pdfium, pdfiumMemoryBytes } from "../src/engine/pdf/pdfium/load.ts";
import { pageTreeUpdate } from "../src/engine/pdf/page-tree.ts";
import { sniff } from "../src/engine/sniff.ts";
import { redactDocument } from "../src/engine/redact/index.ts";
import { responseBytes } from "../src/engine/response-json.ts";
import { answerWithInsights } from "../src/output/insights-inline.ts";
import type { ParseResponse } from "../src/engine/types.ts";
import { AppError, internalError, type Result, scannedDocument } from "../src/errors.ts";
import { assembleOrScanPages, lineTexts } from "../src/engine/ocr/decide.ts";
import { createClaims, type PageBlock, PageClaims } from "../src/jobs/claims.ts";
import { decodeLines, LinesEncoder } from "../src/jobs/lines-wire.ts";
import { helperCount, orderBlocks } from "../src/jobs/planner.ts";
import { warmUp, type WarmupReport } from "../src/jobs/warmup.ts";
import {
  type DocumentInput,
  type PagesOutput,
  type Parsed,
  type PortReply,
  type ParseWorkerData,
  type PortMessage,
  HEAP_CHECK_EVERY,
  HEAP_CHECK_IDLE_MS,
  type ReadBlock,
  RECYCLE_EXIT_CODE,
  type TaskOutputs,
  type WorkerAnswer,
  type WorkerTask,
} from "../src/jobs/tasks.ts";

const post = (port: MessagePort, m: PortMessage) => port.postMessage(m);

const { maxHeapBytes, extractor = DEFAULT_PDF_EXTRACTOR, warmup = false } = ((workerData as ParseWorkerData | undefined) ?? { maxHeapBytes: 0 });
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
  if (maxHeapBytes <= 0 || heapBytes() <= maxHeapBytes) return false;
  Bun.gc(true);
  return heapBytes() > maxHeapBytes;
}

const heapBytes = () => Math.max(process.memoryUsage().heapUsed, pdfiumMemoryBytes());

/**
 * The engine may hand the bytes to pdf.js, which can detach or keep them; one private copy per
 * task (not per page) keeps the shared upload intact for the document's other tasks.
 */
const ownCopy = (doc: DocumentInput): Uint8Array => new Uint8Array(doc.bytes).slice();

/**
 * The answer's text. With insights, they are made here from the response's objects
 * (src/output/insights-inline.ts): no second JSON parse on the insights thread. Should they fail,
 * the plain answer goes back without the `insights` mark and the caller makes them on their thread.
 */
function serialise(response: ParseResponse, options: { csv: boolean; insights?: boolean }): Parsed {
  const t0 = performance.now();
  return { ...answerOf(response, options), answerMs: performance.now() - t0 };
}

function answerOf(response: ParseResponse, { csv, insights }: { csv: boolean; insights?: boolean }): Omit<Parsed, "answerMs"> {
  if (insights) {
    try {
      const { utf8, csv: table } = answerWithInsights(response, csv, shared);
      return { utf8, ...(table === undefined ? {} : { csv: table }), insights: true };
    } catch (e) {
      console.error("parse worker: insights:", e instanceof Error ? (e.stack ?? e.message) : e);
    }
  }
  const utf8 = responseBytes(response, { allocate: shared });
  return csv ? { utf8, csv: toCsv(response) } : { utf8 };
}

/**
 * The answer's JSON goes into shared memory (src/jobs/tasks.ts Parsed): the main thread receives
 * it without a copy, and so does the insights thread when the kept result is read with insights.
 */
const shared = (size: number): Uint8Array => new Uint8Array(new SharedArrayBuffer(size));

async function parse(task: Extract<WorkerTask, { op: "parse" }>): Promise<TaskOutputs["parse"]> {
  const { doc, port } = task;
  const bytes = ownCopy(doc);
  if (task.split !== null) {
    const split = await splitAndAssemble(bytes, task.split, task);
    if (split) return split;
  }
  const response = await parseStatement(bytes, {
    bank: doc.bank,
    password: doc.password,
    limits: doc.limits,
    extractor,
    onProgress: (progress) => post(port, { type: "progress", progress }),
  });
  return { parsed: serialise(response, task) };
}

/**
 * A PDF above `split.above` pages is opened once here (pdf.js: with its page tree balanced if
 * flat), the split posted before any page is read (the caller starts the helpers on other threads
 * right away), then this task computes the document's integrity facts and reads pages from the
 * front of the shared claims while the helpers read from the back (src/jobs/claims.ts). Once every
 * page is claimed it asks for the helpers' pages and assembles the statement. Null: parse whole.
 */
async function splitAndAssemble(
  bytes: Uint8Array,
  split: { above: number; workers: number },
  { doc, port, csv, insights }: Extract<WorkerTask, { op: "parse" }>,
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
  let own: ClaimedLines;
  let producer: string;
  let documentFacts: { info: InfoFacts; bytes: ByteFacts };
  try {
    checkPageCount(pdf.pageCount, doc.limits.maxPages);
    const helpers = helperCount(pdf.pageCount, split.workers);
    if (pdf.pageCount <= split.above || helpers === 0) return null;
    const claims = createClaims(pdf.pageCount, helpers);
    post(port, { type: "split", pageCount: pdf.pageCount, helpers, claims, ...(update ? { update } : {}) });
    producer = await pdf.producer();
    // While the helpers read their first pages: whoever is ahead reads more of the rest.
    documentFacts = {
      info: await pdf.info(),
      bytes: byteFacts(bytes, { password: doc.password, maxPages: pdf.pageCount, objectStreams: report.objectStreams }),
    };
    own = await readClaimed(pdf, new PageClaims(claims), "front", port);
  } finally {
    closeAfterAnswer(pdf);
  }
  // While the helper scans the last pages (see pages): the table scan of the first ones.
  const head = ownsHead(own.blocks, pdf.pageCount) ? scanHead(own.lines) : null;
  const parts = await askForParts(port, own.blocks);
  post(port, { type: "progress", progress: { stage: "assemble", current: 0, total: 1 } });
  const hasText = own.hasText || parts.some((p) => p.hasText);
  // The helper's scan of the last pages, when it read them all (a prefix and a suffix: ownsHead, endsDocument).
  const tail = head && parts.length === 1 ? (parts[0]!.lines.tail ?? null) : null;
  const blocks = [...linesByBlock(own.blocks, own.lines, own.pageFacts), ...parts.flatMap((p) => linesByBlock(p.blocks, decodeLines(p.lines), p.pageFacts))];
  // Nothing of the lines is held past assembly: the JSON is written with them already garbage.
  own.lines = [];
  parts.length = 0;
  // Scanned pages among text pages go to OCR, as for a document parsed whole (src/engine/ocr/decide.ts).
  const texts = lineTexts(blocks.flatMap((b) => b.lines));
  const assemble = () => assembleBlocks(blocks.splice(0), hasText, pdf.pageCount, { producer, documentFacts, bank: doc.bank, head, tail });
  const response = await assembleOrScanPages(assemble, texts, pdf.pageCount, bytes, doc.password);
  const parsed = serialise(response, { csv, insights });
  post(port, { type: "progress", progress: { stage: "assemble", current: 1, total: 1 } });
  return { parsed };
}

/** The helpers' outputs, once they have handed in every page this task did not read (see PortReply). */
function askForParts(port: MessagePort, blocks: ReadBlock[]): Promise<PagesOutput[]> {
  return new Promise((resolve) => {
    port.once("message", (r: PortReply) => resolve(r.parts));
    post(port, { type: "want-parts", blocks: blocks.map(({ first, count }) => ({ first, count })), threadId });
  });
}

/**
 * A helper: reads pages from the back of the claims of a document whose `parse` task already
 * sniffed and guarded these same (shared, never written) bytes, so neither is repeated here.
 */
async function pages(task: Extract<WorkerTask, { op: "pages" }>): Promise<TaskOutputs["pages"]> {
  const { doc, port } = task;
  const claims = new PageClaims(task.claims);
  const encoder = new LinesEncoder();
  // Started after every page was claimed (queued behind another document): nothing to open.
  if (claims.exhausted()) return { blocks: [], lines: encoder.finish(), hasText: false, threadId, pageFacts: [] };
  const pdf = await openDocument(extractor, new Uint8Array(doc.bytes), { password: doc.password, update: task.update });
  try {
    const kept: Line[][] = [];
    const read = await readClaimed(pdf, claims, "back", port, encoder, kept);
    const lines = encoder.finish();
    // Pages that end the document: their table scanned here while the planning task scans its own.
    const tail = endsDocument(read.blocks, pdf.pageCount) ? speculateTail(inPageOrder(read.blocks, kept)) : null;
    if (tail !== null) lines.tail = tail;
    return { blocks: read.blocks, lines, hasText: read.hasText, threadId, pageFacts: read.pageFacts };
  } finally {
    closeAfterAnswer(pdf);
  }
}

/** The planning task read one run of pages from the first, and not all of them: a helper read the rest. */
const ownsHead = (blocks: ReadBlock[], pageCount: number) => blocks.length === 1 && blocks[0]!.first === 1 && blocks[0]!.count < pageCount;

/** A helper's blocks are one run of pages ending with the document's last. */
function endsDocument(blocks: ReadBlock[], pageCount: number): boolean {
  const sorted = [...blocks].sort((a, b) => a.first - b.first);
  return sorted.length > 0 && sorted.every((b, k) => k === 0 || sorted[k - 1]!.first + sorted[k - 1]!.count === b.first) && sorted.at(-1)!.first + sorted.at(-1)!.count === pageCount + 1;
}

/** Lines of the blocks (kept per block, in read order) in page order. */
const inPageOrder = (blocks: ReadBlock[], kept: Line[][]): Line[] =>
  blocks
    .map((b, k) => ({ first: b.first, lines: kept[k]! }))
    .sort((a, b) => a.first - b.first)
    .flatMap((b) => b.lines);

/** What one task read: its blocks in read order, each with the number of lines its pages gave. */
interface ClaimedLines {
  blocks: ReadBlock[];
  /** Lines of the blocks in read order (empty when they went to an encoder). */
  lines: Line[];
  /** Some page read has text (a document with none at all is a scan). */
  hasText: boolean;
  pageFacts: PageFacts[];
}

/**
 * Reads pages claimed from one end until every page is claimed, each into lines: a page's text
 * items are garbage as soon as its lines are built, which keeps the heap (and the collections it
 * costs) small. With an `encoder` (a helper's lines go to another worker), each page's lines go to
 * it while they are fresh, and `lines` stays empty.
 */
async function readClaimed(pdf: OpenedPdf, claims: PageClaims, end: "front" | "back", port: MessagePort, encoder?: LinesEncoder, kept?: Line[][]): Promise<ClaimedLines> {
  const out: ClaimedLines = { blocks: [], lines: [], hasText: false, pageFacts: [] };
  for (let block = claims[end](); block; block = claims[end]()) {
    let lineCount = 0;
    const blockLines: Line[] = [];
    for (let n = block.first; n < block.first + block.count; n++) {
      const page = await pdf.readPage(n);
      out.hasText ||= page.items.length > 0;
      const built = pageLines(page);
      lineCount += built.length;
      if (encoder) encoder.add(built);
      else for (const line of built) out.lines.push(line);
      if (kept) for (const line of built) blockLines.push(line);
      out.pageFacts.push(pageFacts(page));
      post(port, { type: "page", number: n });
    }
    // Claims from the front follow one another: one block.
    const last = out.blocks.at(-1);
    if (last && last.first + last.count === block.first) {
      last.count += block.count;
      last.lines += lineCount;
      kept?.at(-1)!.push(...blockLines);
    } else {
      out.blocks.push({ ...block, lines: lineCount });
      kept?.push(blockLines);
    }
  }
  return out;
}

/** A run of pages read, with its lines and page facts. */
interface BlockLines extends PageBlock {
  lines: Line[];
  facts: PageFacts[];
}

/** Cuts one task's lines and page facts (in read order) into its blocks. */
function linesByBlock(blocks: ReadBlock[], lines: Line[], facts: PageFacts[]): BlockLines[] {
  let l = 0;
  let f = 0;
  return blocks.map((b) => {
    const cut = { first: b.first, count: b.count, lines: lines.slice(l, l + b.lines), facts: facts.slice(f, f + b.count) };
    l += b.lines;
    f += b.count;
    return cut;
  });
}

/** Every task's blocks (any order) merged in page order, assembled, with the planning task's document facts judged. */
function assembleBlocks(
  blocks: BlockLines[],
  hasText: boolean,
  pageCount: number,
  ctx: { producer: string; documentFacts: { info: InfoFacts; bytes: ByteFacts }; bank: string | undefined; head: HeadScan | null; tail: string | null },
): ParseResponse {
  const ordered = orderBlocks(blocks, pageCount);
  // The whole-document path checks this inside the engine (assertHasText); split documents here.
  if (pageCount > 0 && !hasText) throw scannedDocument();
  // The first block is the planning task's own (ownsHead), scanned already; the helper's follow.
  const response =
    ctx.head && ctx.tail !== null
      ? assembleParts({ lines: ordered[0]!.lines, scan: ctx.head }, ordered.slice(1).flatMap((b) => b.lines), ctx.tail, ctx.producer, { bank: ctx.bank })
      : assembleLines(ordered.flatMap((b) => b.lines), ctx.producer, { bank: ctx.bank });
  const facts: DocumentFacts = { ...ctx.documentFacts, pages: ordered.flatMap((b) => b.facts) };
  response.integrity = integrityOf(response, facts);
  return response;
}

async function redact(task: Extract<WorkerTask, { op: "redact" }>): Promise<TaskOutputs["redact"]> {
  const r = await redactDocument(ownCopy(task.doc), { password: task.doc.password, bank: task.doc.bank, limits: task.doc.limits, extractor });
  // Response bodies need an ArrayBuffer-backed view; copy only if the engine handed back a shared one.
  const bytes = r.bytes.buffer instanceof ArrayBuffer ? (r.bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(r.bytes);
  return { bytes, redactions: r.redactions, contentType: r.contentType };
}

async function run(task: WorkerTask): Promise<TaskOutputs[keyof TaskOutputs]> {
  switch (task.op) {
    case "ping":
      // PDFium's module is compiled once per thread (~0.1 s): a ready worker has it, so a helper's
      // first document does not start that much behind its planning task.
      if (extractor === "pdfium") await pdfium();
      warming ??= warmup ? warmUpThenCollect() : Promise.resolve(null);
      return { threadId, instance, warmup: await warming };
    case "parse":
      return parse(task);
    case "pages":
      return pages(task);
    case "redact":
      return redact(task);
  }
}

/**
 * One warm-up round (src/jobs/warmup.ts) through this worker's own task code: the document parsed
 * whole with its JSON and CSV (with insights every other round), then its pages read as a split's helper reads them (claims from the
 * back, lines encoded for the wire, the last pages' table scan) and decoded as the planning task
 * decodes them. Progress goes to a port nobody listens on.
 */
let warmupRounds = 0;
async function warmupRound(bytes: Uint8Array, pageCount: number): Promise<void> {
  const shared = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(shared).set(bytes);
  const doc: DocumentInput = { bytes: shared, limits: { maxPages: 100, maxXlsxRows: 1000, maxXlsxInflatedBytes: 1 << 24 } };
  const channel = new MessageChannel();
  try {
    // Every other round asks for insights too: they run in this worker when asked at submit, and
    // their first run here cost 290-430 ms cold (docs/insights.md).
    await parse({ op: "parse", doc, csv: true, split: null, port: channel.port2, insights: warmupRounds++ % 2 === 1 });
    const out = await pages({ op: "pages", doc, claims: createClaims(pageCount, 1), port: channel.port2 });
    decodeLines(out.lines);
  } finally {
    channel.port1.close();
    channel.port2.close();
  }
  closeDeferred();
}

/**
 * Run by a worker's first ping (the readiness probe pings each worker as the pool starts), so the
 * warm-up is done before the worker reports ready. A worker started later to replace one (heap
 * limit, crash) gets a real document first and warms on it instead: a warm-up in front of a
 * waiting document would cost it more than a cold start does, unless the document is large. Its
 * garbage is collected before the next task, so the heap check after that task (WORKER_MAX_HEAP_MB)
 * does not see it.
 */
let warming: Promise<WarmupReport | null> | undefined;
async function warmUpThenCollect(): Promise<WarmupReport> {
  const report = await warmUp(warmupRound);
  Bun.gc(true);
  return { ...report, heapBytes: heapBytes() };
}

/**
 * Documents of a split parse, closed once the task has answered: closing a 2,000-page document
 * takes PDFium ~70 ms, which the planning task's assembly (and a helper's hand-over, which the
 * planning task waits for) should not wait behind.
 */
const toClose: OpenedPdf[] = [];
const closeAfterAnswer = (pdf: OpenedPdf) => void toClose.push(pdf);
const closeDeferred = () => {
  for (const pdf of toClose.splice(0)) pdf.close().catch((e: unknown) => console.error("parse worker: closing a document:", e));
};

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
    if (toClose.length > 0) setImmediate(closeDeferred);
    if (++uncheckedTasks >= HEAP_CHECK_EVERY) setImmediate(checkHeap);
    else heapCheck = setTimeout(checkHeap, HEAP_CHECK_IDLE_MS);
  }
}
