/**
 * Harder PDFs for the redactor: overprinted text, a Type 3 font, an operator split across two
 * content streams, junk in a content stream, and text it cannot decode (refused, never leaked).
 */
import { describe, expect, test } from "bun:test";
import { deflateSync } from "node:zlib";
import { PDFDocument, PDFName, PDFRawStream, StandardFonts } from "pdf-lib";
import { AppError } from "../../src/errors.ts";
import { redactDocument } from "../../src/engine/redact/index.ts";
import { expectNoLeaks, expectOtherTextUnmoved, meanGrey } from "./redact-support.ts";

const NAME = "ADEBAYO OKONKWO";

/** One A4 page whose content streams are given; fonts F1 (Helvetica) and T3 (Type 3) available. */
async function pdfWith(streams: (string | PDFRawStream)[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const ctx = doc.context;
  const helv = await doc.embedFont(StandardFonts.Helvetica);
  // A Type 3 font drawing nothing, 600 units wide per glyph in a 1/1000 glyph space; codes 65-90
  // are the capital letters by name, 32 the space.
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const procs = ctx.obj(Object.fromEntries([...letters, "space"].map((n) => [n === "space" ? "space" : n, ctx.register(ctx.stream("600 0 d0"))])));
  const type3 = ctx.register(
    ctx.obj({
      Type: "Font",
      Subtype: "Type3",
      FontBBox: [0, 0, 600, 700],
      FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
      CharProcs: procs,
      Encoding: { Type: "Encoding", Differences: [32, "space", 65, ...letters.split("")] },
      FirstChar: 32,
      LastChar: 90,
      Widths: Array.from({ length: 59 }, () => 600),
      Resources: {},
    }),
  );
  const page = doc.addPage([595, 842]);
  page.node.set(PDFName.of("Resources"), ctx.obj({ Font: { F1: helv.ref, T3: type3 } }));
  page.node.set(PDFName.of("Contents"), ctx.obj(streams.map((s) => ctx.register(typeof s === "string" ? ctx.flateStream(s) : s))));
  return doc.save();
}

const header = `BT /F1 9 Tf 50 800 Td (Account Name:) Tj 80 0 Td (${NAME}) Tj ET`;
const kept = "BT /F1 9 Tf 50 600 Td (POS PURCHASE 12,500.50) Tj ET";

describe("harder PDFs", () => {
  test("overprinted text (drawn twice, slightly offset, as fake bold) is removed in both copies", async () => {
    const bytes = await pdfWith([`${header}\nBT /F1 9 Tf 50 700 Td (${NAME}) Tj ET BT /F1 9 Tf 50.3 700 Td (${NAME}) Tj ET\n${kept}`]);
    const r = await redactDocument(bytes);
    await expectNoLeaks(r.bytes, [NAME]);
    expect(await expectOtherTextUnmoved(bytes, r.bytes, [NAME])).toBeGreaterThanOrEqual(2);
  });

  test("a Type 3 font's glyphs are measured through its FontMatrix and cut", async () => {
    const bytes = await pdfWith([`${header}\nBT /T3 10 Tf 50 700 Td (TRANSFER ${NAME} OK) Tj ET\n${kept}`]);
    const r = await redactDocument(bytes);
    await expectNoLeaks(r.bytes, [NAME]);
    expect(r.redactions).toBe(2);
    expect(await expectOtherTextUnmoved(bytes, r.bytes, [NAME])).toBeGreaterThanOrEqual(2);
  });

  test("an operation split across two content streams of a page", async () => {
    const bytes = await pdfWith([`${header}\nBT /F1 9 Tf 50 700 Td`, `(${NAME}) Tj ET\n${kept}`]);
    const r = await redactDocument(bytes);
    await expectNoLeaks(r.bytes, [NAME]);
    expect(r.redactions).toBe(2);
  });

  test("junk operators and stray delimiters in a content stream do not stop the redaction", async () => {
    const bytes = await pdfWith([`${header}\n} ) ]] foo 1 2 bar <<>> BT /F1 9 Tf 50 700 Td (${NAME}) Tj ET\n${kept}`]);
    const r = await redactDocument(bytes);
    await expectNoLeaks(r.bytes, [NAME]);
  });

  test("an account number printed masked only, and a name printed with a title, are removed", async () => {
    const bytes = await pdfWith([
      `BT /F1 9 Tf 50 800 Td (Account Name:) Tj 80 0 Td (MR. ${NAME}) Tj ET BT /F1 9 Tf 50 780 Td (Account No:) Tj 80 0 Td (******4321) Tj ET`,
      `BT /F1 9 Tf 50 700 Td (TRANSFER FROM ${NAME} ******4321) Tj ET\n${kept}`,
    ]);
    const r = await redactDocument(bytes);
    await expectNoLeaks(r.bytes, [NAME, "******4321"]);
    expect(r.redactions).toBe(4);
  });

  test("boxes land in the page's default space even when the content leaves a scaled state open", async () => {
    // The page ends two saves deep inside a half-size cm: boxes drawn there would land at half size.
    const bytes = await pdfWith([`${header}\nq 0.5 0 0 0.5 0 0 cm q\n${kept}`]);
    const r = await redactDocument(bytes);
    await expectNoLeaks(r.bytes, [NAME]);
    // The name stood at x 130.. (top-left pixel row 842 - 800 - 6 = 36 at 72 dpi): it must be black there.
    expect(await meanGrey(r.bytes, { x: 132, y: 37, w: 40, h: 5 })).toBeLessThan(40);
  });

  test("text in a stream it cannot decode is refused with unsupported_format, never returned", async () => {
    // Flate with a TIFF predictor: pdf.js reads it, the redactor does not decode predictors.
    const data = new TextEncoder().encode(`BT /F1 9 Tf 50 700 Td (${NAME}) Tj ET`);
    const diff = data.map((b, i) => (b - (i > 0 ? data[i - 1]! : 0)) & 0xff);
    const doc = await PDFDocument.create();
    const predicted = doc.context.flateStream(new Uint8Array(0));
    const stream = PDFRawStream.of(predicted.dict, new Uint8Array(deflateSync(diff)));
    stream.dict.set(PDFName.of("DecodeParms"), doc.context.obj({ Predictor: 2, Colors: 1, BitsPerComponent: 8, Columns: data.length }));
    const bytes = await pdfWith([header, stream, kept]);
    let error: unknown;
    try {
      await redactDocument(bytes);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).errorClass).toBe("unsupported_format");
    expect((error as AppError).message).toContain("cannot be removed");
  });
});
