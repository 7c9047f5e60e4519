/** A document the engine cannot read gives the same AppError from redaction as from a parse. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { AppError } from "../../src/errors.ts";
import { parseStatement } from "../../src/engine/index.ts";
import { redactDocument } from "../../src/engine/redact/index.ts";

const SAMPLES = join(import.meta.dir, "../../fixtures/real");

async function failure(p: Promise<unknown>): Promise<{ errorClass: string; status: number }> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    const a = e as AppError;
    return { errorClass: a.errorClass, status: a.status };
  }
  throw new Error("expected a failure");
}

const blankPdf = async () => {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]);
  return doc.save();
};

const CASES: { name: string; bytes: () => Promise<Uint8Array> | Uint8Array; errorClass: string }[] = [
  { name: "a PDF that needs a password", bytes: () => new Uint8Array(readFileSync(join(SAMPLES, "encrypted.pdf"))), errorClass: "encrypted_source" },
  { name: "a password-protected workbook", bytes: () => new Uint8Array(readFileSync(join(SAMPLES, "encrypted.xlsx"))), errorClass: "encrypted_source" },
  { name: "bytes that are no document", bytes: () => new TextEncoder().encode("just some text, not a statement"), errorClass: "unsupported_format" },
  { name: "a truncated PDF", bytes: () => new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog >>"), errorClass: "unsupported_format" },
  { name: "a PDF with no text layer", bytes: blankPdf, errorClass: "scanned_document" },
];

describe.each(CASES)("redacting $name", ({ bytes, errorClass }) => {
  test(`fails with ${errorClass}, exactly as a parse does`, async () => {
    const input = await bytes();
    const fromParse = await failure(parseStatement(input));
    const fromRedact = await failure(redactDocument(input));
    expect(fromParse.errorClass).toBe(errorClass);
    expect(fromRedact).toEqual(fromParse);
  });
});
