/**
 * PDFium's WebAssembly memory: what the worker's recycle check counts (pdfiumMemoryBytes, see
 * workers/parse.worker.ts overHeapLimit) is the wasm memory's real size, it never shrinks, and
 * reading the same document again and again does not grow it: every document, page and text
 * page handle and every malloc'd block is freed (the memory would grow, or a document-sized block
 * would no longer fit where it did).
 */
import { describe, expect, test } from "bun:test";
import { statementPdf } from "../../bench/generate.ts";
import { openDocument } from "../../src/engine/pdf/extractor.ts";
import { openPdfium } from "../../src/engine/pdf/pdfium/document.ts";
import { droppedAfterTrap, pdfium, pdfiumMemoryBytes } from "../../src/engine/pdf/pdfium/load.ts";
import { readPdfiumPage } from "../../src/engine/pdf/pdfium/text.ts";
import { AppError } from "../../src/errors.ts";

async function readAll(bytes: Uint8Array, password?: string): Promise<number> {
  const doc = await openDocument("pdfium", bytes, { password });
  try {
    let items = 0;
    for (let n = 1; n <= doc.pageCount; n++) items += (await doc.readPage(n)).items.length;
    await doc.info();
    return items;
  } finally {
    await doc.close();
  }
}

describe("PDFium's wasm memory", () => {
  test("is counted at its real size, never shrinks, and does not grow over repeated reads (nothing leaks)", async () => {
    const bytes = await statementPdf(60);
    const items = await readAll(bytes);
    expect(items).toBeGreaterThan(60 * 30);
    const ex = await pdfium();
    expect(pdfiumMemoryBytes()).toBe(ex.memory.buffer.byteLength);
    expect(pdfiumMemoryBytes()).toBeGreaterThan(bytes.byteLength);
    await readAll(bytes);
    const settled = pdfiumMemoryBytes();
    // Where the allocator puts a document-sized block: a leaked block from a pass would sit there.
    const probe = () => {
      const at = ex.malloc(bytes.byteLength);
      ex.free(at);
      return at;
    };
    const spot = probe();
    for (let pass = 0; pass < 25; pass++) expect(await readAll(bytes)).toBe(items);
    expect(pdfiumMemoryBytes()).toBe(settled);
    expect(probe()).toBe(spot);
  }, 60_000);

  test("failed opens free their copy of the document too", async () => {
    const bytes = await statementPdf(60);
    // A broken cross-reference and body: PDFium refuses it after copying it into its heap.
    const broken = bytes.slice(0, Math.floor(bytes.byteLength / 2));
    broken.fill(0x20, 0, 16);
    const ex = await pdfium();
    const probe = () => {
      const at = ex.malloc(broken.byteLength);
      ex.free(at);
      return at;
    };
    await openDocument("pdfium", broken).catch(() => undefined);
    const before = pdfiumMemoryBytes();
    const spot = probe();
    for (let k = 0; k < 40; k++) {
      const e = await openDocument("pdfium", broken).then(
        async (d) => (await d.close(), undefined),
        (err: unknown) => err,
      );
      expect(e instanceof AppError && e.errorClass).toBe("unsupported_format");
    }
    expect(pdfiumMemoryBytes()).toBe(before);
    expect(probe()).toBe(spot);
  }, 60_000);

  test("a trap inside PDFium drops the thread's instance; the next document gets a fresh one", async () => {
    const bytes = await statementPdf(3);
    const want = await readAll(bytes);
    const doc = await openPdfium(bytes);
    const before = await pdfium();
    // A document handle pointing past the end of the wasm memory: PDFium's first read of it traps.
    const err = (() => {
      try {
        readPdfiumPage({ ...doc, handle: 0x7ffffff0 }, 1);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(WebAssembly.RuntimeError);
    expect(droppedAfterTrap(err)).toBe(true);
    expect(pdfiumMemoryBytes()).toBe(0);
    // Closing a document of the dropped instance calls nothing of it.
    doc.close();
    expect(await readAll(bytes)).toBe(want);
    expect(await pdfium()).not.toBe(before);
  }, 60_000);

  test("Bun's heapUsed counts the wasm memory, so the worker's recycle check sees it without adding it", async () => {
    const ex = await pdfium();
    Bun.gc(true);
    const heapBefore = process.memoryUsage().heapUsed;
    const wasmBefore = pdfiumMemoryBytes();
    // Grow the wasm memory by 64 MiB (a block that does not fit in what it has), then free the block:
    // the memory stays grown, as after a large document.
    const size = wasmBefore + 64 * 1024 * 1024;
    const block = ex.malloc(size);
    expect(block).not.toBe(0);
    ex.free(block);
    Bun.gc(true);
    const grown = pdfiumMemoryBytes() - wasmBefore;
    expect(grown).toBeGreaterThanOrEqual(size - wasmBefore);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeGreaterThanOrEqual(grown);
  }, 60_000);
});
