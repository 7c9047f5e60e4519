/**
 * PDF_EXTRACTOR in the workers: a pool of each extractor parses a PDF that is split into page
 * ranges (the planning task reads page count, producer and information facts from its extractor;
 * pdf.js also gets the page-tree update, PDFium none) and the same PDF whole; all four results are
 * the same JSON.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import type { PdfExtractorName } from "../../src/engine/pdf/extractor-name.ts";
import type { ParseResponse } from "../../src/engine/types.ts";
import { createWorkerPool } from "../../src/jobs/pool.ts";
import { runDocument } from "../../src/jobs/runner.ts";
import type { DocumentInput } from "../../src/jobs/tasks.ts";
import { makeStatementPdf } from "./support/statement-pdf.ts";

const doc = (bytes: Uint8Array): DocumentInput => {
  const sab = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(sab).set(bytes);
  return { bytes: sab, limits: { maxPages: 3000, maxXlsxRows: 200_000, maxXlsxInflatedBytes: 200 * 1024 * 1024 } };
};

describe("worker pools with PDF_EXTRACTOR=pdfium and =pdfjs", () => {
  const pools = { pdfium: createWorkerPool({ threads: 2, extractor: "pdfium" }), pdfjs: createWorkerPool({ threads: 2, extractor: "pdfjs" }) };
  afterAll(() => Promise.all(Object.values(pools).map((p) => p.destroy())));

  test("split and whole, both extractors: the same JSON", async () => {
    const bytes = await makeStatementPdf({ pages: 24 });
    const results: string[] = [];
    for (const extractor of ["pdfium", "pdfjs"] as PdfExtractorName[]) {
      const pool = pools[extractor];
      await pool.warm();
      const ranges: number[] = [];
      const split = await runDocument({ pool, timeoutMs: 120_000, freeWorkers: () => 2 }, { kind: "json", doc: doc(bytes) }, { onRange: (r) => ranges.push(r.threadId) });
      expect(new Set(ranges).size).toBe(2);
      const whole = await runDocument({ pool, timeoutMs: 120_000, freeWorkers: () => 1 }, { kind: "json", doc: doc(bytes) });
      if (split.kind !== "json" || whole.kind !== "json") throw new Error("expected json results");
      expect(split.json).toBe(whole.json);
      results.push(split.json);
    }
    expect(results[0]).toBe(results[1]!);
    const response = JSON.parse(results[0]!) as ParseResponse;
    expect(response.transactions.length).toBe(24 * 22);
    expect(response.integrity?.producer).toBeTruthy();
  }, 120_000);
});

describe("PDF_EXTRACTOR configuration", () => {
  test("pdfium by default; pdfjs when asked; anything else stops the start naming the variable", () => {
    expect(loadConfig({}).PDF_EXTRACTOR).toBe("pdfium");
    expect(loadConfig({ PDF_EXTRACTOR: "pdfjs" }).PDF_EXTRACTOR).toBe("pdfjs");
    expect(() => loadConfig({ PDF_EXTRACTOR: "mupdf" })).toThrow(ConfigError);
    expect(() => loadConfig({ PDF_EXTRACTOR: "mupdf" })).toThrow(/PDF_EXTRACTOR/);
  });
});
