/**
 * PDFium extraction on what the corpus has little or none of, made in memory from real statements:
 * pages turned by /Rotate (content counter-rotated so it reads upright, as scanners' and printers'
 * landscape pages do), pages whose crop box sits at an offset inside a larger media box with text
 * outside it, and encrypted files (RC4, AES-128, AES-256; user and owner passwords, an empty
 * owner password). Each must give the statement's own transactions, and the same outcome as pdf.js.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { concatTransformationMatrix, PDFArray, PDFDocument, PDFName, popGraphicsState, pushGraphicsState, StandardFonts, degrees } from "pdf-lib";
import { parseStatement } from "../../src/engine/index.ts";
import { pageLines } from "../../src/engine/layout/lines.ts";
import { openPdfium } from "../../src/engine/pdf/pdfium/document.ts";
import { readPdfiumPage } from "../../src/engine/pdf/pdfium/text.ts";
import { openDocument, type PdfExtractorName } from "../../src/engine/pdf/extractor.ts";
import { AppError } from "../../src/errors.ts";
import { encryptedPdf, STATEMENT_ROWS as WANT, statementObjects } from "../hostile/encrypt.ts";
import { buildPdf } from "../hostile/generate.ts";

const SAMPLES = join(import.meta.dir, "..", "..", "fixtures", "real");
const FIXTURES = join(import.meta.dir, "..", "..", "fixtures");
const STATEMENTS = [join(SAMPLES, "firstbank.pdf"), join(SAMPLES, "opay.pdf"), join(FIXTURES, "zenith", "statement.pdf")];
const EXTRACTORS: PdfExtractorName[] = ["pdfium", "pdfjs"];

const load = (path: string) => new Uint8Array(readFileSync(path));
type Parsed = Awaited<ReturnType<typeof parseStatement>>;
const essence = (r: Parsed) => ({ transactions: r.transactions, metadata: r.metadata });

/** Every page's content wrapped in `q <cm> ... Q`, its boxes set by `boxes` from the page's size. */
async function transformed(bytes: Uint8Array, edit: (w: number, h: number) => { cm: [number, number, number, number, number, number]; media: [number, number, number, number]; crop?: [number, number, number, number]; rotate?: number; ghost?: [number, number] }): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const page of doc.getPages()) {
    const box = page.getMediaBox();
    expect([box.x, box.y]).toEqual([0, 0]);
    const e = edit(box.width, box.height);
    const ctx = doc.context;
    const start = ctx.register(ctx.contentStream([pushGraphicsState(), concatTransformationMatrix(...e.cm)]));
    const end = ctx.register(ctx.contentStream([popGraphicsState()]));
    // A single content stream becomes a one-element array, so it can be wrapped.
    const contents = page.node.get(PDFName.of("Contents"));
    if (!(page.node.Contents() instanceof PDFArray) && contents) page.node.set(PDFName.of("Contents"), ctx.obj([contents]));
    expect(page.node.wrapContentStreams(start, end)).toBe(true);
    page.setMediaBox(...e.media);
    if (e.crop) page.setCropBox(...e.crop);
    if (e.rotate) page.setRotation(degrees(e.rotate));
    // A transaction-looking line drawn outside the crop box: no reader shows it, so neither may the parse.
    if (e.ghost) page.drawText("31/12/2023 GHOST ROW OUTSIDE 999,999.99 999,999.99", { x: e.ghost[0], y: e.ghost[1], size: 8, font });
  }
  return doc.save();
}

/**
 * /Rotate r with the content turned the other way, so the displayed page is the original one:
 * cm maps the original user space into the new media box (w×h, or h×w for quarter turns).
 */
const ROTATIONS: Record<number, (w: number, h: number) => Parameters<typeof transformed>[1] extends (w: number, h: number) => infer R ? R : never> = {
  90: (w, h) => ({ cm: [0, 1, -1, 0, h, 0], media: [0, 0, h, w], rotate: 90 }),
  180: (w, h) => ({ cm: [-1, 0, 0, -1, w, h], media: [0, 0, w, h], rotate: 180 }),
  270: (w, h) => ({ cm: [0, -1, 1, 0, 0, w], media: [0, 0, h, w], rotate: 270 }),
};

async function outcome(bytes: Uint8Array, extractor: PdfExtractorName, password?: string): Promise<Parsed | string> {
  try {
    return await parseStatement(bytes.slice(), { extractor, password });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return `${e.errorClass}: ${e.message}`;
  }
}

describe("rotated pages: /Rotate 90, 180, 270 with content that reads upright", () => {
  for (const path of STATEMENTS) {
    test(path.split("/").slice(-2).join("/"), async () => {
      const original = await parseStatement(load(path), { extractor: "pdfjs" });
      expect(original.transactions.length).toBeGreaterThan(0);
      for (const [rotation, edit] of Object.entries(ROTATIONS)) {
        const bytes = await transformed(load(path), edit);
        for (const extractor of EXTRACTORS) {
          const r = await parseStatement(bytes, { extractor });
          expect({ rotation, extractor, ...essence(r) }).toEqual({ rotation, extractor, ...essence(original) });
        }
        // The displayed page is upright and its size swaps with a quarter turn, in both readers.
        const doc = await openDocument("pdfium", bytes);
        const page = await doc.readPage(1);
        await doc.close();
        const js = await openDocument("pdfjs", bytes);
        const jsPage = await js.readPage(1);
        await js.close();
        expect([page.width, page.height]).toEqual([jsPage.width, jsPage.height]);
        // Items may be cut differently where a line is drawn out of order; the lines the layout builds are the same.
        // (A line's y is its first item's baseline, so it may differ by a fraction of a point where items are cut differently.)
        const [lines, jsLines] = [pageLines(page), pageLines(jsPage)];
        expect(lines.map((l) => l.text)).toEqual(jsLines.map((l) => l.text));
        lines.forEach((l, i) => expect(Math.abs(l.y - jsLines[i]!.y)).toBeLessThan(0.5));
        expect(page.items.length).toBeGreaterThan(10);
      }
    });
  }

  test("text that is not upright on the displayed page is left out by both (a /Rotate 90 page whose content was not turned)", async () => {
    const bytes = await transformed(load(STATEMENTS[0]!), (w, h) => ({ cm: [1, 0, 0, 1, 0, 0], media: [0, 0, w, h], rotate: 90 }));
    for (const extractor of EXTRACTORS) {
      const doc = await openDocument(extractor, bytes);
      expect((await doc.readPage(1)).items).toEqual([]);
      await doc.close();
    }
  });
});

describe("cropped pages: a crop box at an offset inside a larger media box", () => {
  const DX = 72;
  const DY = 90;
  for (const path of STATEMENTS) {
    test(path.split("/").slice(-2).join("/"), async () => {
      const original = await parseStatement(load(path), { extractor: "pdfjs" });
      const bytes = await transformed(load(path), (w, h) => ({ cm: [1, 0, 0, 1, DX, DY], media: [0, 0, w + 2 * DX, h + 2 * DY], crop: [DX, DY, w, h], ghost: [4, 12] }));
      for (const extractor of EXTRACTORS) {
        const r = await parseStatement(bytes, { extractor });
        expect({ extractor, ...essence(r) }).toEqual({ extractor, ...essence(original) });
        expect(JSON.stringify(r)).not.toContain("GHOST");
      }
      // Coordinates are measured from the crop box's corner, as on screen: the same as the uncropped page's.
      const plain = await openDocument("pdfium", load(path));
      const cropped = await openDocument("pdfium", bytes);
      const [a, b] = [await plain.readPage(1), await cropped.readPage(1)];
      await plain.close();
      await cropped.close();
      expect([b.width, b.height]).toEqual([a.width, a.height]);
      expect(b.items.map((i) => [i.str, i.x.toFixed(2), i.y.toFixed(2)])).toEqual(a.items.map((i) => [i.str, i.x.toFixed(2), i.y.toFixed(2)]));
    });
  }
});

const rows = (r: Parsed | string) => (typeof r === "string" ? r : r.transactions.map((t) => [t.narration, t.debit, t.credit, t.balance]));
const NEEDS = "encrypted_source: The PDF is encrypted and needs a password (send it in the `password` form field)";
const WRONG = "encrypted_source: The PDF password is wrong";

describe("encrypted PDFs through PDFium: the same outcomes and error classes as pdf.js", () => {
  for (const cipher of ["rc4", "aes128", "aes256"] as const) {
    test(`${cipher}: user and owner passwords set`, async () => {
      const bytes = encryptedPdf(statementObjects(), cipher, "USERPW", "owner-secret");
      const cases: [string | undefined, string | string[][]][] = [
        [undefined, NEEDS],
        ["guess", WRONG],
        ["USERPW", WANT],
        // The owner password opens it too, as in readers.
        ["owner-secret", WANT],
      ];
      for (const [password, want] of cases) {
        for (const extractor of EXTRACTORS) expect({ extractor, password, got: rows(await outcome(bytes, extractor, password)) }).toEqual({ extractor, password, got: want });
      }
    });

    test(`${cipher}: only an owner password (opens without one)`, async () => {
      const bytes = encryptedPdf(statementObjects(), cipher, "", "owner-secret");
      for (const extractor of EXTRACTORS) expect(rows(await outcome(bytes, extractor))).toEqual(WANT);
    });

    test(`${cipher}: a user password and an EMPTY owner password (opens without one, as in readers)`, async () => {
      const bytes = encryptedPdf(statementObjects(), cipher, "USERPW", "");
      for (const extractor of EXTRACTORS) {
        expect(rows(await outcome(bytes, extractor))).toEqual(WANT);
        expect(rows(await outcome(bytes, extractor, "USERPW"))).toEqual(WANT);
        expect(rows(await outcome(bytes, extractor, "guess"))).toEqual(WRONG);
      }
    });
  }

  test("the real encrypted sample needs its (unpublished) password in both", async () => {
    const bytes = load(join(SAMPLES, "encrypted.pdf"));
    for (const extractor of EXTRACTORS) expect(await outcome(bytes, extractor)).toBe(NEEDS);
  });
});

describe("spacing as pdf.js measures it: the same lines and cells from both extractors", () => {
  // Each line one spacing device: TJ kerning of growing size, horizontal scaling (Tz), a scaled
  // CTM, character and word spacing, text rise, text drawn right to left, an overstruck (fake
  // bold) word, font and size changes, a jump back, fixed-width spaces, vertical text, a hyphen
  // at a line end.
  const LINES = [
    "BT /F1 10 Tf 40 800 Td [(TJ)-150(kern)-300(small)-500(mid)-580(edge)-620(big)-1200(huge)] TJ ET",
    "BT /F1 10 Tf 70 Tz 40 780 Td [(Tz70)-150(kern)-300(small)-500(mid)-700(big)-900(split)] TJ 100 Tz ET",
    "q 0.8 0 0 0.8 0 0 cm BT /F1 10 Tf 50 950 Td [(CTM08)-150(kern)-300(small)-700(big)] TJ ET Q",
    "BT /F1 10 Tf 2 Tc 40 720 Td (Char spacing two  double   triple) Tj 0 Tc ET",
    "BT /F1 10 Tf 5 Tw 40 700 Td (Word spacing five here) Tj 0 Tw ET",
    "BT /F1 10 Tf 40 680 Td (Rise) Tj 3 Ts (up) Tj 0 Ts (down) Tj ET",
    "BT /F1 10 Tf 200 660 Td (second) Tj -160 0 Td (first) Tj ET",
    "BT /F1 10 Tf 40 640 Td (Bold) Tj ET BT /F1 10 Tf 40.3 640 Td (Bold) Tj ET",
    "BT /F1 10 Tf 40 600 Td (Font) Tj /F2 10 Tf (Change) Tj /F1 12 Tf (Size) Tj ET",
    "BT /F1 10 Tf 40 580 Td (back)Tj -30 0 Td (over) Tj ET",
    "BT /F3 10 Tf 40 560 Td (Courier  two   three    four) Tj ET",
    "BT /F1 10 Tf 0 1 -1 0 500 300 Tm (Vertical text) Tj ET",
    "BT /F1 10 Tf 40 540 Td (02/01/2024 SALARY-) Tj 0 -12 Td (CREDIT 10,000.00) Tj ET",
  ];
  const page = (lines: string[]) => {
    const content = lines.join("\n");
    return buildPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R /F3 7 0 R >> >> >>",
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
    ]);
  };
  const lines = async (bytes: Uint8Array, extractor: PdfExtractorName) => {
    const doc = await openDocument(extractor, bytes);
    try {
      return pageLines(await doc.readPage(1)).map((l) => ({ text: l.text, y: Math.round(l.y), cells: l.cells.map((c) => c.text) }));
    } finally {
      await doc.close();
    }
  };

  test("every line, cell and space the same", async () => {
    const bytes = page(LINES);
    const [js, pf] = [await lines(bytes, "pdfjs"), await lines(bytes, "pdfium")];
    expect(pf).toEqual(js);
    // The comparison is over what the devices make: spaces kept, cells split at wide gaps, the
    // vertical line left out.
    expect(js.map((l) => l.text)).toContain("TJ kern small mid edge big huge");
    expect(js.find((l) => l.text.startsWith("TJ"))!.cells).toEqual(["TJ kern small mid edge", "big", "huge"]);
    expect(js.find((l) => l.text.startsWith("Tz70"))!.cells).toEqual(["Tz70 kern small mid big", "split"]);
    expect(js.some((l) => l.text.includes("Vertical"))).toBe(false);
  });

  test("a page whose text carries /ActualText is read as pdf.js reads it (the glyphs, not the replacement)", async () => {
    // PDFium would report "REPLACED" one letter at a time in place of the glyphs; the page goes to pdf.js.
    const bytes = page([
      "BT /F1 10 Tf 40 800 Td (Before) Tj ET",
      "/Span << /ActualText (REPLACED) >> BDC BT /F1 10 Tf 40 780 Td (02/01/2024 SALARY 10,000.00) Tj ET EMC",
      "/P << /MCID 3 >> BDC BT /F1 10 Tf 40 760 Td (Tagged without ActualText) Tj ET EMC",
    ]);
    const [js, pf] = [await lines(bytes, "pdfjs"), await lines(bytes, "pdfium")];
    expect(pf).toEqual(js);
    expect(pf.map((l) => l.text)).toEqual(["Before", "02/01/2024 SALARY 10,000.00", "Tagged without ActualText"]);
    // Only that page: a page with marked content but no /ActualText stays PDFium's.
    const plain = page(["/P << /MCID 3 >> BDC BT /F1 10 Tf 40 760 Td (Tagged without ActualText) Tj ET EMC"]);
    const doc = await openPdfium(plain);
    try {
      expect(readPdfiumPage(doc, 1)?.items.map((i) => i.str)).toEqual(["Tagged without ActualText"]);
    } finally {
      doc.close();
    }
    const marked = await openPdfium(bytes);
    try {
      expect(readPdfiumPage(marked, 1)).toBeUndefined();
    } finally {
      marked.close();
    }
  });

  test("two cells of a tagged page a narrow gap apart stay two items, as pdf.js ends its item at each marked-content boundary", async () => {
    // "TRX1234" in Helvetica 10 is 42.24 pt wide; the next cell starts 5 pt (0.5 em) after it, a
    // gap inside one item a space would fill. Chromium tags every table cell this way.
    const cells = (tagged: boolean) => {
      const cell = (mcid: number, x: number, text: string) => {
        const shown = `BT /F1 10 Tf ${x} 700 Td (${text}) Tj ET`;
        return tagged ? `/TD << /MCID ${mcid} >> BDC ${shown} EMC` : shown;
      };
      return page([cell(1, 40, "TRX1234"), cell(2, 87.24, "Shopping")]);
    };
    for (const extractor of ["pdfjs", "pdfium"] as const) {
      expect((await lines(cells(true), extractor))[0]!.cells).toEqual(["TRX1234", "Shopping"]);
      expect((await lines(cells(false), extractor))[0]!.cells).toEqual(["TRX1234 Shopping"]);
    }
  });

  test("the one known difference: a text matrix stretched in x alone (not Tz) moves pdf.js's space thresholds, not PDFium's", async () => {
    // pdf.js measures gaps in the text matrix's own x units; PDFium bakes Tz and the matrix into one
    // scale, so the extractor measures in the vertical scale instead (right for Tz, which is what
    // producers use to condense text). Here a 0.6 em kerning gap in a matrix squeezed to 0.6 in x.
    const bytes = page(["BT /F1 10 Tf 0.6 0 0 1 40 760 Tm [(Tm06)-150(kern)-580(wide)] TJ ET"]);
    expect((await lines(bytes, "pdfjs")).map((l) => l.text)).toEqual(["Tm06 kern wide"]);
    expect((await lines(bytes, "pdfium")).map((l) => l.text)).toEqual(["Tm06kern wide"]);
  });
});
