/** The content-stream machinery under the redactor: tokenising, glyph placement, rewriting. */
import { describe, expect, test } from "bun:test";
import { PDFDocument, StandardFonts, type PDFDict } from "pdf-lib";
import { parseToUnicode } from "../../src/engine/redact/cmap.ts";
import { latin1, parseContent } from "../../src/engine/redact/content-lexer.ts";
import { IDENTITY, interpret, unitFromBytes, type PlacedGlyph } from "../../src/engine/redact/interpret.ts";
import { rewriteShow, rewriteUnit } from "../../src/engine/redact/rewrite.ts";

const enc = (s: string) => new TextEncoder().encode(s);

describe("parseContent", () => {
  test("reads operands of every kind and the byte range of each operation", () => {
    const src = "q 1 0 0 1 10 20 cm BT /F1 9 Tf (a\\(b\\)c\\\\ \\101\\n) Tj <414 > Tj [(x) -12.5 (y)] TJ ET /P <</MCID 3>> BDC EMC % note\nQ";
    const ops = parseContent(enc(src));
    expect(ops.map((o) => o.operator)).toEqual(["q", "cm", "BT", "Tf", "Tj", "Tj", "TJ", "ET", "BDC", "EMC", "Q"]);
    const tj = ops[4]!.operands[0]!;
    expect(tj.kind === "string" && latin1(tj.bytes)).toBe("a(b)c\\ A\n");
    const hex = ops[5]!.operands[0]!;
    expect(hex.kind === "string" && [...hex.bytes]).toEqual([0x41, 0x40]);
    const arr = ops[6]!.operands[0]!;
    expect(arr.kind === "array" && arr.items.map((i) => i.kind)).toEqual(["string", "number", "string"]);
    expect(ops[8]!.operands[1]!.kind).toBe("dict");
    for (const op of ops) expect(src.slice(op.start, op.end).trimEnd().endsWith(op.operator)).toBe(true);
  });

  test("skips inline image data, even when it holds operator-like bytes", () => {
    const src = "BI /W 2 /H 1 /BPC 8 /CS /G ID \x00Tj(EI\xff EI Q";
    const ops = parseContent(Uint8Array.from(src, (c) => c.charCodeAt(0)));
    expect(ops.map((o) => o.operator)).toEqual(["BI", "Q"]);
  });

  test("nested parentheses stay one string; malformed input ends without throwing", () => {
    const ops = parseContent(enc("(a (nested) b) Tj [(unclosed"));
    expect(ops).toHaveLength(1);
    const s = ops[0]!.operands[0]!;
    expect(s.kind === "string" && latin1(s.bytes)).toBe("a (nested) b");
  });
});

describe("parseToUnicode", () => {
  test("reads bfchar, bfrange (incrementing and array forms) and the code length", () => {
    const cmap = parseToUnicode(
      "1 begincodespacerange <0000> <FFFF> endcodespacerange 2 beginbfchar <0003> <0020> <0011> <00410042> endbfchar 2 beginbfrange <0024> <0026> <0061> <0030> <0031> [<0058> <0059>] endbfrange",
    );
    expect(cmap.codeLengths).toEqual([2]);
    expect([3, 0x11, 0x24, 0x25, 0x26, 0x30, 0x31].map((c) => cmap.map.get(c))).toEqual([" ", "AB", "a", "b", "c", "X", "Y"]);
  });
});

async function helveticaResources(): Promise<PDFDict> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  await doc.save(); // writes the font dictionary
  return doc.context.obj({ Font: { F1: font.ref } }) as PDFDict;
}

function glyphsOf(content: string, resources: PDFDict) {
  const unit = unitFromBytes("test", enc(content));
  const glyphs: PlacedGlyph[] = [];
  interpret(unit, resources, IDENTITY, { units: new Map(), skipped: [] }, (g) => glyphs.push(g));
  return { unit, glyphs };
}

describe("interpret", () => {
  test("places glyphs from the standard-14 widths, Tc, Tw, Tz and TJ adjustments", async () => {
    const res = await helveticaResources();
    // Helvetica: A = 667, space = 278 (thousandths of the font size).
    const { glyphs } = glyphsOf("BT /F1 10 Tf 2 0 0 2 100 500 Tm 1 Tc 3 Tw 50 Tz [(A) -1000 ( A)] TJ ET", res);
    expect(glyphs.map((g) => g.text)).toEqual(["A", " ", "A"]);
    const x = glyphs.map((g) => Math.round(g.origin[0] * 1000) / 1000);
    // Each advance is (w * 10 + Tc [+ Tw]) * 0.5 in text space, doubled by Tm; -1000 moves 10 * 0.5 * 2.
    const a = (6.67 + 1) * 0.5 * 2;
    const gap = 10 * 0.5 * 2;
    const space = (2.78 + 1 + 3) * 0.5 * 2;
    expect(x).toEqual([100, Math.round((100 + a + gap) * 1000) / 1000, Math.round((100 + a + gap + space) * 1000) / 1000]);
    expect(glyphs[0]!.origin[1]).toBe(500);
  });

  test("a form XObject inherits the caller's text state and is placed by cm and its /Matrix", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    await doc.save();
    const form = doc.context.register(doc.context.stream("BT (A) Tj ET", { Type: "XObject", Subtype: "Form", BBox: [0, 0, 10, 10], Matrix: [1, 0, 0, 1, 5, 0] }));
    const res = doc.context.obj({ Font: { F1: font.ref }, XObject: { X: form } }) as PDFDict;
    const { glyphs } = glyphsOf("BT /F1 10 Tf ET q 1 0 0 1 100 200 cm /X Do Q", res);
    expect(glyphs.map((g) => [g.text, g.origin])).toEqual([["A", [105, 200]]]);
    expect(glyphs[0]!.unit.key).toBe(form.toString());
  });
});

describe("rewriteShow", () => {
  test("replaces cut glyphs by an adjustment equal to their advance and merges adjustments", async () => {
    const res = await helveticaResources();
    const { unit } = glyphsOf("BT /F1 10 Tf 0.5 Tc 2 Tw [(AB)-100( C)] TJ ET", res);
    const show = unit.shows.get(4)!; // BT Tf Tc Tw TJ
    // Cut "B" (667), " " (278, word spacing applies) and keep A, C. B: -(667 + 0.5*1000/10) = -717;
    // the -100 adjustment; space: -(278 + (0.5+2)*1000/10) = -528.
    expect(rewriteShow(show, new Set([1, 2]))).toBe("[(A) -1345 (C)] TJ");
  });

  test("keeps the line-moving meaning of ' and \"", async () => {
    const res = await helveticaResources();
    const { unit } = glyphsOf("BT /F1 10 Tf 12 TL (AB) ' 1 2 (AB) \" ET", res);
    // Operations: BT Tf TL ' " ET.
    expect(rewriteShow(unit.shows.get(3)!, new Set([0]))).toBe("T* [-667 (B)] TJ");
    expect(rewriteShow(unit.shows.get(4)!, new Set([1]))).toBe("1 Tw 2 Tc T* [(A) -867] TJ");
  });

  test("rewriteUnit changes only the operators with cuts and copies every other byte", async () => {
    const res = await helveticaResources();
    const src = "BT /F1 10 Tf (keep) Tj\n(AB) Tj ET % trailing";
    const { unit } = glyphsOf(src, res);
    // Operations: BT Tf Tj Tj ET; the second Tj loses both glyphs.
    unit.cuts.set(3, new Set([0, 1]));
    expect(latin1(rewriteUnit(unit))).toBe("BT /F1 10 Tf (keep) Tj\n [-1334] TJ  ET % trailing");
  });
});
