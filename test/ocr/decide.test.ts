/**
 * Which PDFs the text path hands to OCR (issue 24 class 7), without running OCR: a garbage
 * invisible layer over a scan is refused as scanned_document by the text path (the OCR pool then
 * reads it), while an invisible layer that reads as a statement keeps the text path.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { textIsInvisibleOverScans } from "../../src/engine/ocr/decide.ts";
import { parseStatement } from "../../src/engine/index.ts";
import type { AppError } from "../../src/errors.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");
const bytes = (p: string) => new Uint8Array(readFileSync(join(FIXTURES, p)));

describe("the text path's decision to treat a PDF as a scan", () => {
  test("a garbage invisible layer over a full-page image is scanned_document, not a statement", async () => {
    const e = (await parseStatement(bytes("scans/heritage-garbage-layer.pdf")).catch((x: unknown) => x)) as AppError;
    expect(e.errorClass).toBe("scanned_document");
    expect(e.message).toContain("invisible layer");
  });

  test("the garbage layer is invisible text over a page image; a text statement is not", async () => {
    expect(await textIsInvisibleOverScans(bytes("scans/heritage-garbage-layer.pdf"))).toBe(true);
    expect(await textIsInvisibleOverScans(bytes("heritage/statement.pdf"))).toBe(false);
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
