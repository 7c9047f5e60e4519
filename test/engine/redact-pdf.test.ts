import { beforeAll, describe, expect, test } from "bun:test";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { redactDocument, type Redacted } from "../../src/engine/redact/index.ts";
import { ACCOUNT, buildCleanPdf, buildStatementPdf, EMAIL, HOLDER, KEPT, PLANTED, type Fixture } from "./redact-fixture.ts";
import { everyStringInFile, expectNoLeaks, expectOtherTextUnmoved, leaks, meanGrey, pdfjsText, pdfShape, pdftotextText } from "./redact-support.ts";

let fixture: Fixture;
let result: Redacted;

beforeAll(async () => {
  fixture = await buildStatementPdf();
  result = await redactDocument(fixture.bytes);
});

describe("redacting a generated statement", () => {
  test("the fixture really carries every planted value where both extractors see it", async () => {
    const texts = [await pdfjsText(fixture.bytes), await pdftotextText(fixture.bytes)];
    for (const text of texts) for (const n of PLANTED) expect({ n, found: leaks(text, n) }).toEqual({ n, found: true });
  });

  test("no planted value survives in the text pdf.js or pdftotext extract, in any spacing", async () => {
    expect(result.contentType).toBe("application/pdf");
    await expectNoLeaks(result.bytes, PLANTED);
  });

  test("counts every occurrence: 16 on page 1 (forms and annotation included), 2 on page 2, 2 on page 3, the /ActualText and the bookmark", () => {
    expect(result.redactions).toBe(22);
    expect(result.warnings).toEqual([]);
  });

  test("every other text run keeps its text and position", async () => {
    const checked = await expectOtherTextUnmoved(fixture.bytes, result.bytes, PLANTED);
    expect(checked).toBeGreaterThan(30);
    const texts = [await pdfjsText(result.bytes), await pdftotextText(result.bytes)];
    for (const text of texts) for (const k of KEPT) expect({ k, found: leaks(text, k) }).toEqual({ k, found: true });
  });

  test("page count, page sizes and rotation are unchanged", async () => {
    const before = await pdfShape(fixture.bytes);
    const after = await pdfShape(result.bytes);
    expect(after.pages).toEqual(before.pages);
    const rotations = async (b: Uint8Array) => (await PDFDocument.load(b)).getPages().map((p) => p.getRotation().angle);
    expect(await rotations(result.bytes)).toEqual(await rotations(fixture.bytes));
  });

  test("the information dictionary, XMP metadata and the thumbnail are gone, and no string or stream of the file holds the data", async () => {
    const before = await pdfShape(fixture.bytes);
    expect(before.info && before.xmp).toBe(true);
    const after = await pdfShape(result.bytes);
    expect({ info: after.info, xmp: after.xmp }).toEqual({ info: false, xmp: false });
    const thumb = async (b: Uint8Array) => (await PDFDocument.load(b)).getPages()[0]!.node.get(PDFName.of("Thumb")) !== undefined;
    expect(await thumb(fixture.bytes)).toBe(true);
    expect(await thumb(result.bytes)).toBe(false);
    const original = await everyStringInFile(fixture.bytes);
    const redacted = await everyStringInFile(result.bytes);
    for (const n of [HOLDER, ACCOUNT, EMAIL]) {
      expect(leaks(original, n)).toBe(true);
      expect({ n, leaked: leaks(redacted, n) }).toEqual({ n, leaked: false });
    }
  });

  test("the annotation that names the holder is removed; the link without personal data stays", async () => {
    const subtypes = async (b: Uint8Array) => {
      const doc = await PDFDocument.load(b);
      const annots = doc.getPages()[0]!.node.Annots();
      return (annots?.asArray() ?? []).map((a) => (doc.context.lookup(a) as PDFDict).get(PDFName.of("Subtype"))?.toString());
    };
    expect(await subtypes(fixture.bytes)).toEqual(["/FreeText", "/Link"]);
    expect(await subtypes(result.bytes)).toEqual(["/Link"]);
  });

  test("an opaque box is drawn where the name stood", async () => {
    expect(await meanGrey(fixture.bytes, fixture.nameBox)).toBeGreaterThan(120);
    expect(await meanGrey(result.bytes, fixture.nameBox)).toBeLessThan(30);
  });

  test("redacting the output again finds nothing more and changes no text", async () => {
    const again = await redactDocument(result.bytes);
    expect(again.redactions).toBe(0);
    expect(await pdfjsText(again.bytes)).toBe(await pdfjsText(result.bytes));
  });
});

describe("a statement without personal data", () => {
  test("comes back with a count of 0 and the same text in the same places", async () => {
    const clean = await buildCleanPdf();
    const r = await redactDocument(clean);
    expect(r.redactions).toBe(0);
    expect(await pdfjsText(r.bytes)).toBe(await pdfjsText(clean));
    expect(await expectOtherTextUnmoved(clean, r.bytes, [])).toBeGreaterThanOrEqual(2);
    expect((await pdfShape(r.bytes)).info).toBe(false);
  });
});
