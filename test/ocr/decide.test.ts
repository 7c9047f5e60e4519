/**
 * Which pages the text path hands to OCR (issue 24 class 7, issue 25), without running OCR: pages
 * with no visible text (a scan, outlines, a garbage invisible layer over a scan) are found page by
 * page, in a document whose other pages read as a statement too; an invisible layer that reads as
 * a statement keeps the text path. The OCR pool's plan (planScan) picks the same pages and keeps
 * the others' text.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { isScannedPage, scannedPages } from "../../src/engine/ocr/decide.ts";
import { planScan } from "../../src/engine/ocr/plan.ts";
import { readPages } from "../../src/engine/pdf/extractor.ts";
import { parseStatement } from "../../src/engine/index.ts";
import type { AppError } from "../../src/errors.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");
const bytes = (p: string) => new Uint8Array(readFileSync(join(FIXTURES, p)));

describe("the text path's decision to treat a PDF as a scan", () => {
  test("a garbage invisible layer over a full-page image is scanned_document, not a statement", async () => {
    const e = (await parseStatement(bytes("scans/heritage-garbage-layer.pdf")).catch((x: unknown) => x)) as AppError;
    expect(e.errorClass).toBe("scanned_document");
    expect(e.message).toContain("page 1 (of 1) draws no visible text");
  });

  /** The pages scannedPages picks, given the text path's reading (or none). */
  async function picked(file: string): Promise<number[]> {
    const b = bytes(file);
    const { pages, pageCount, producer } = await readPages("pdfium", b, { first: 1, last: 99 });
    const doc = { kind: "pdf" as const, pageCount, producer, pages };
    const reading = await parseStatement(b).catch(() => null);
    return scannedPages(doc, b, undefined, reading);
  }

  test("a page image under invisible text or under none is a scanned page, outlines too; visible text is not", async () => {
    expect(await picked("scans/heritage-garbage-layer.pdf")).toEqual([1]);
    expect(await picked("scans/zenith-scan.pdf")).toEqual([1]);
    expect(await picked("scans/fidelity-outlined.pdf")).toEqual([1]);
    expect(await picked("heritage/statement.pdf")).toEqual([]);
    expect(await picked("unknown-ocr-layer/statement.pdf")).toEqual([]);
  });

  test("the per-page rule: no text and something drawn, or only invisible text over a page-sized image", () => {
    const page = { textObjects: 0, invisibleTextObjects: 0, pathObjects: 0, largestImageCover: 0 };
    expect(isScannedPage({ ...page, largestImageCover: 0.95 }, 0)).toBe(true);
    expect(isScannedPage({ ...page, pathObjects: 400 }, 0)).toBe(true);
    // A blank page, or one with a small logo and a few rules, is not read by OCR.
    expect(isScannedPage(page, 0)).toBe(false);
    expect(isScannedPage({ ...page, pathObjects: 4, largestImageCover: 0.05 }, 0)).toBe(false);
    expect(isScannedPage({ ...page, textObjects: 30, invisibleTextObjects: 30, largestImageCover: 0.95 }, 30)).toBe(true);
    // Visible text over a page-sized image (a background), or invisible text over no image: text path.
    expect(isScannedPage({ ...page, textObjects: 30, invisibleTextObjects: 0, largestImageCover: 1 }, 30)).toBe(false);
    expect(isScannedPage({ ...page, textObjects: 30, invisibleTextObjects: 29, largestImageCover: 1 }, 30)).toBe(false);
    expect(isScannedPage({ ...page, textObjects: 30, invisibleTextObjects: 30, largestImageCover: 0.3 }, 30)).toBe(false);
  });

  test("mixed documents: only the scanned pages are picked, though the text pages read as a statement", async () => {
    for (const [file, scans, text] of [
      ["scans/firstbank-mixed.pdf", [2], [1]],
      ["scans/cover-scan-middle.pdf", [2], [1, 3]],
      ["scans/corporate-garbage-mixed.pdf", [2], [1]],
    ] as const) {
      const e = (await parseStatement(bytes(file)).catch((x: unknown) => x)) as AppError;
      expect(e.errorClass).toBe("scanned_document");
      expect(e.message).toContain(`page ${scans[0]} (of`);
      const plan = await planScan(bytes(file), {});
      expect(plan.ocrPages).toEqual([...scans]);
      expect(plan.textPages.map((p) => p.number)).toEqual([...text]);
      expect(plan.textPages.every((p) => p.items.length > 0)).toBe(true);
    }
  });

  test("the scan's source statement itself (every page text) is read by the text path, with no page picked", async () => {
    for (const layout of ["firstbank", "unknown-cover-page", "unknown-corporate"]) {
      const r = await parseStatement(bytes(`${layout}/statement.pdf`));
      expect(r.row_wise_reconcilable).toBe(true);
      expect(r.checks.ocr).toBeUndefined();
    }
  });

  test("a text cover letter in front of a scanned page: scanned_document, and only the scanned page goes to OCR", async () => {
    const out = await PDFDocument.create();
    const cover = await PDFDocument.create();
    cover.addPage().drawText("Dear customer, please find your statement attached.", { x: 50, y: 700, size: 12, font: await cover.embedFont(StandardFonts.Helvetica) });
    const scan = await PDFDocument.load(bytes("scans/zenith-scan.pdf"));
    const [first] = await out.copyPages(cover, [0]);
    const [second] = await out.copyPages(scan, [0]);
    out.addPage(first!);
    out.addPage(second!);
    const saved = await out.save();
    const e = (await parseStatement(saved).catch((x: unknown) => x)) as AppError;
    expect(e.errorClass).toBe("scanned_document");
    const plan = await planScan(saved, {});
    expect(plan.ocrPages).toEqual([2]);
    expect(plan.textPages.map((p) => p.number)).toEqual([1]);
  });

  test("a page with no text at the end of a text statement that draws nothing is not read by OCR", async () => {
    const out = await PDFDocument.load(bytes("firstbank/statement.pdf"));
    out.addPage();
    const r = await parseStatement(await out.save());
    expect(r.row_wise_reconcilable).toBe(true);
    expect(r.transactions.length).toBe(40);
  });

  test("an invisible layer that reads as a statement keeps the text path", async () => {
    const r = await parseStatement(bytes("unknown-ocr-layer/statement.pdf"));
    expect(r.row_wise_reconcilable).toBe(true);
    expect(r.transactions.length).toBe(30);
    expect(r.checks.ocr).toBeUndefined();
  });

  test("outlined text and image-only scans have no text at all: scanned_document", async () => {
    for (const f of ["scans/fidelity-outlined.pdf", "scans/zenith-scan.pdf"]) {
      const e = (await parseStatement(bytes(f)).catch((x: unknown) => x)) as AppError;
      expect(e.errorClass).toBe("scanned_document");
    }
  });
});
