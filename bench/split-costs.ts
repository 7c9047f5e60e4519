/**
 * `bun bench/split-costs.ts [statement.pdf] [pdfium|pdfjs]`: measures, on one thread, what the tasks of a split
 * parse spend besides reading pages, for src/jobs/planner.ts (SplitCosts, firstRangeBonus), and the
 * lines' hop between workers (JSON text before, src/jobs/lines-wire.ts now). Without a file it
 * generates the 2,000-page statement of `npm run bench`. Best of several runs: on a busy machine,
 * run it twice and keep the lower figures.
 */
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import { guardPdf } from "../src/engine/guards/index.ts";
import { byteFacts, pageFacts } from "../src/engine/integrity/index.ts";
import { type Line, pageLines } from "../src/engine/layout/lines.ts";
import { DEFAULT_PDF_EXTRACTOR, openDocument, PDF_EXTRACTORS, type PdfExtractorName } from "../src/engine/pdf/extractor.ts";
import { pageTreeUpdate } from "../src/engine/pdf/page-tree.ts";
import { decodeLines, LinesEncoder } from "../src/jobs/lines-wire.ts";
import { statementPdf } from "./generate.ts";

const args = process.argv.slice(2);
const extractor = (args.find((a) => (PDF_EXTRACTORS as readonly string[]).includes(a)) ?? DEFAULT_PDF_EXTRACTOR) as PdfExtractorName;
const file = args.find((a) => a.endsWith(".pdf"));
const bytes = file ? new Uint8Array(await Bun.file(file).arrayBuffer()) : await statementPdf(2000);
console.log(`extractor: ${extractor}`);

async function best(name: string, f: () => unknown, runs = 5): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    min = Math.min(min, performance.now() - t);
  }
  console.log(`${name.padEnd(44)} ${min.toFixed(1)} ms`);
  return min;
}

const guard = await guardPdf(bytes, { maxPages: 3000 });
await best("guard (before the split)", () => guardPdf(bytes, { maxPages: 3000 }));
// Only pdf.js is handed the balanced page tree, as in the workers.
const update = extractor === "pdfjs" ? pageTreeUpdate(bytes, guard.pageTree) : undefined;
const open = await best("open again (a range task)", async () => (await openDocument(extractor, bytes, { update })).close());
const pdf = await openDocument(extractor, bytes, { update });
const pageCount = pdf.pageCount;
const { port1, port2 } = new MessageChannel();
const clone = <T>(v: T): T => {
  port1.postMessage(v);
  return receiveMessageOnPort(port2)!.message as T;
};

/** Reads a range as a range task does (lines encoded page by page), timing the encoding apart. */
async function readRange(first: number, last: number) {
  const lines: Line[] = [];
  const encoder = new LinesEncoder();
  let encode = 0;
  const t = performance.now();
  for (let n = first; n <= last; n++) {
    const page = await pdf.readPage(n);
    const built = pageLines(page);
    pageFacts(page);
    port1.postMessage({ type: "page", number: n });
    for (const line of built) lines.push(line);
    const e = performance.now();
    encoder.add(built);
    encode += performance.now() - e;
  }
  while (receiveMessageOnPort(port2));
  const e = performance.now();
  const wire = encoder.finish();
  encode += performance.now() - e;
  return { read: performance.now() - t - encode, encode, lines, wire };
}

const sample = Math.min(200, pageCount);
let read = Number.POSITIVE_INFINITY;
for (let i = 0; i < 3; i++) read = Math.min(read, (await readRange(pageCount - sample + 1, pageCount)).read);
console.log(`${"read a page (text, lines, page facts)".padEnd(44)} ${(read / sample).toFixed(2)} ms`);
const facts = await best("byte facts (the planning task)", () => byteFacts(bytes, { maxPages: pageCount, objectStreams: guard.objectStreams }));

const half = Math.floor(pageCount / 2);
const range = await readRange(half + 1, pageCount);
await pdf.close();
const json = await best(`hop as JSON (${pageCount - half} pages)`, () => JSON.parse((clone({ json: JSON.stringify(range.lines) }) as { json: string }).json));
const wire = await best(`hop as wire form, after encoding (${pageCount - half} pages)`, () => decodeLines(clone(range.wire)));
console.log(`${"  encoding, page by page while reading".padEnd(44)} ${range.encode.toFixed(1)} ms`);

const per = (ms: number, pages: number) => Number((ms / pages).toFixed(3));
console.log("\nSplitCosts:", {
  readPerPage: per(read, sample),
  open: Math.round(open),
  encodePerPage: per(range.encode + wire, pageCount - half),
  byteFactsPerPage: per(facts, pageCount),
});
console.log(`lines' hop: JSON ${json.toFixed(0)} ms, wire ${(range.encode + wire).toFixed(0)} ms (${range.lines.length} lines)`);
