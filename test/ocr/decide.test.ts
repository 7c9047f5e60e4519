/**
 * Which PDFs the text path hands to OCR (issue 24 class 7), without running OCR: a garbage
 * invisible layer over a scan is refused as scanned_document by the text path (the OCR pool then
 * reads it), while an invisible layer that reads as a statement keeps the text path.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { hasScannedPage } from "../../src/engine/ocr/decide.ts";
import { parseStatement } from "../../src/engine/index.ts";
import type { AppError } from "../../src/errors.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");
const bytes = (p: string) => new Uint8Array(readFileSync(join(FIXTURES, p)));

describe("the text path's decision to treat a PDF as a scan", () => {
  test("a garbage invisible layer over a full-page image is scanned_document, not a statement", async () => {
    const e = (await parseStatement(bytes("scans/heritage-garbage-layer.pdf")).catch((x: unknown) => x)) as AppError;
    expect(e.errorClass).toBe("scanned_document");
    expect(e.message).toContain("scanned pages");
  });

  test("a page image under invisible text or under none is a scanned page; visible text is not", async () => {
    expect(await hasScannedPage(bytes("scans/heritage-garbage-layer.pdf"))).toBe(true);
    expect(await hasScannedPage(bytes("scans/zenith-scan.pdf"))).toBe(true);
    expect(await hasScannedPage(bytes("heritage/statement.pdf"))).toBe(false);
    expect(await hasScannedPage(bytes("scans/fidelity-outlined.pdf"))).toBe(false);
  });

  test("text pages that do not read as a statement in front of a scanned page: scanned_document (OCR reads all pages)", async () => {
    const out = await PDFDocument.create();
    const cover = await PDFDocument.create();
    cover.addPage().drawText("Dear customer, please find your statement attached.", { x: 50, y: 700, size: 12, font: await cover.embedFont(StandardFonts.Helvetica) });
    const scan = await PDFDocument.load(bytes("scans/zenith-scan.pdf"));
    const [first] = await out.copyPages(cover, [0]);
    const [second] = await out.copyPages(scan, [0]);
    out.addPage(first!);
    out.addPage(second!);
    const e = (await parseStatement(await out.save()).catch((x: unknown) => x)) as AppError;
    expect(e.errorClass).toBe("scanned_document");
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
