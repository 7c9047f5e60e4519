/**
 * Extraction alone, one thread: `bun bench/extract.ts <pdfium|pdfjs> <file.pdf>` opens the file with
 * that extractor, reads every page's text items (no layout, no assembly) and prints one JSON line:
 * { extractor, pages, openMs, readMs, msPerPage, pagesPerSecond, wasmMiB, rssMiB }. The first
 * WARM_PAGES pages are read once before the timed pass (the engine is warm, as in a running worker).
 * pdf.js gets the page-tree update the service gives it (a flat tree costs it O(pages) per page);
 * the guard that computes it is not timed.
 */
import { readFileSync } from "node:fs";
import { guardPdf } from "../src/engine/guards/index.ts";
import { pageTreeUpdate } from "../src/engine/pdf/page-tree.ts";
import { openDocument, PDF_EXTRACTORS, type PdfExtractorName } from "../src/engine/pdf/extractor.ts";
import { pdfiumMemoryBytes } from "../src/engine/pdf/pdfium/load.ts";

const WARM_PAGES = 50;
const [name, file] = process.argv.slice(2);
if (!PDF_EXTRACTORS.includes(name as PdfExtractorName) || !file) {
  console.error(`usage: bun bench/extract.ts <${PDF_EXTRACTORS.join("|")}> <file.pdf>`);
  process.exit(2);
}
const extractor = name as PdfExtractorName;
const bytes = new Uint8Array(readFileSync(file));
const update = extractor === "pdfjs" ? pageTreeUpdate(bytes, (await guardPdf(bytes, {})).pageTree) : undefined;

const warm = await openDocument(extractor, bytes, { update });
for (let n = 1; n <= Math.min(WARM_PAGES, warm.pageCount); n++) await warm.readPage(n);
await warm.close();

const t0 = performance.now();
const doc = await openDocument(extractor, bytes, { update });
const t1 = performance.now();
let items = 0;
for (let n = 1; n <= doc.pageCount; n++) items += (await doc.readPage(n)).items.length;
const t2 = performance.now();
await doc.close();
const readMs = t2 - t1;
console.log(
  JSON.stringify({
    extractor,
    pages: doc.pageCount,
    items,
    openMs: t1 - t0,
    readMs,
    msPerPage: readMs / doc.pageCount,
    pagesPerSecond: doc.pageCount / ((t2 - t0) / 1000),
    wasmMiB: pdfiumMemoryBytes() / 1048576,
    rssMiB: process.memoryUsage().rss / 1048576,
  }),
);
