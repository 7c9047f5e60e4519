/**
 * Shared checks for the redaction tests: text as two independent extractors read it (pdf.js and
 * poppler's pdftotext), leak detection in any spacing, and every literal string and decoded stream
 * of a PDF file (metadata, annotations, XMP, content).
 */
import { expect } from "bun:test";
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFStream, PDFString } from "pdf-lib";
import { latin1 } from "../../src/engine/redact/content-lexer.ts";
import { readPdfRuns, type TextRun } from "../../src/engine/redact/pdf-text.ts";
import { decodeStream } from "../../src/engine/redact/stream-data.ts";

/** pdf.js text, runs on one baseline joined by a space and ordered left to right, lines by newlines. */
export async function pdfjsText(bytes: Uint8Array): Promise<string> {
  const pages = await readPdfRuns(bytes);
  return pages
    .map((p) => {
      const runs = [...p.runs].sort((a, b) => (Math.abs(a.y - b.y) < 1 ? a.x - b.x : b.y - a.y));
      return runs.map((r, i) => (i > 0 && Math.abs(runs[i - 1]!.y - r.y) < 1 ? " " : "\n") + r.str).join("");
    })
    .join("\n\f\n");
}

/** Text as poppler reads it (raw order and layout order, both), from stdin: nothing written to disk. */
export async function pdftotextText(bytes: Uint8Array): Promise<string> {
  const out: string[] = [];
  for (const mode of ["-raw", "-layout"]) {
    const proc = Bun.spawn(["pdftotext", mode, "-", "-"], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    proc.stdin.write(bytes);
    await proc.stdin.end();
    const text = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    out.push(text);
  }
  return out.join("\n\f\n");
}

const stripped = (s: string) => s.normalize("NFKC").toLowerCase().replace(/\s+/g, "");

/**
 * Whether `needle` occurs in `text` in any spacing. Digit strings are compared with digit
 * boundaries (so "0000000000" is not "found" inside a longer reference of zeros) and with any
 * spaces or hyphens between digits; other strings are compared with all whitespace removed.
 */
export function leaks(text: string, needle: string): boolean {
  if (/^[\d\s-]+$/.test(needle)) {
    const digits = needle.replace(/\D/g, "");
    // Any spacing within a line; a number is not looked for across line breaks.
    const re = new RegExp(`(?<!\\d)${digits.split("").join("[ \\t-]*")}(?!\\d)`);
    return re.test(text);
  }
  return stripped(text).includes(stripped(needle));
}

export async function expectNoLeaks(bytes: Uint8Array, needles: string[]): Promise<void> {
  const texts = { pdfjs: await pdfjsText(bytes), pdftotext: await pdftotextText(bytes) };
  for (const [extractor, text] of Object.entries(texts)) {
    for (const n of needles) expect({ extractor, needle: n, leaked: leaks(text, n) }).toEqual({ extractor, needle: n, leaked: false });
  }
}

/** Every literal string and every decodable stream of the file, as latin-1 text. */
export async function everyStringInFile(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const parts: string[] = [];
  const visit = (o: unknown): void => {
    if (o instanceof PDFString || o instanceof PDFHexString) parts.push(o.decodeText());
    else if (o instanceof PDFArray) o.asArray().forEach(visit);
    else if (o instanceof PDFDict) for (const [, v] of o.entries()) visit(v);
    else if (o instanceof PDFStream) {
      visit(o.dict);
      const d = decodeStream(o);
      if ("bytes" in d) parts.push(latin1(d.bytes));
    }
  };
  for (const [, obj] of doc.context.enumerateIndirectObjects()) visit(obj);
  visit(doc.context.trailerInfo.Info);
  return parts.join("\n");
}

export interface PdfShape {
  pages: { width: number; height: number }[];
  info: boolean;
  xmp: boolean;
}

export async function pdfShape(bytes: Uint8Array): Promise<PdfShape> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  return {
    pages: doc.getPages().map((p) => p.getSize()),
    info: doc.context.trailerInfo.Info !== undefined,
    xmp: doc.catalog.get(PDFName.of("Metadata")) !== undefined,
  };
}

/** pdf.js runs with positions rounded to 1/100 pt, for comparing layouts. */
export async function runsOf(bytes: Uint8Array): Promise<{ page: number; str: string; x: number; y: number }[]> {
  const pages = await readPdfRuns(bytes);
  return pages.flatMap((p) => p.runs.map((r: TextRun) => ({ page: p.index, str: r.str, x: Math.round(r.x * 100) / 100, y: Math.round(r.y * 100) / 100 })));
}

/**
 * Runs of the original that hold none of the needles must appear unchanged (same text, same
 * position) in the redacted output.
 */
export async function expectOtherTextUnmoved(original: Uint8Array, redacted: Uint8Array, needles: string[]): Promise<number> {
  const before = await runsOf(original);
  const after = new Set((await runsOf(redacted)).map((r) => JSON.stringify(r)));
  const untouched = before.filter((r) => !needles.some((n) => leaks(r.str, n)));
  const missing = untouched.filter((r) => !after.has(JSON.stringify(r)));
  expect(missing).toEqual([]);
  return untouched.length;
}

/** Mean grey level (0 black .. 255 white) of a rectangle of page 1, rendered by poppler at 72 dpi. */
export async function meanGrey(bytes: Uint8Array, box: { x: number; y: number; w: number; h: number }): Promise<number> {
  const args = ["pdftoppm", "-gray", "-r", "72", "-f", "1", "-l", "1", "-x", String(Math.round(box.x)), "-y", String(Math.round(box.y)), "-W", String(Math.round(box.w)), "-H", String(Math.round(box.h)), "-"];
  const proc = Bun.spawn(args, { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  proc.stdin.write(bytes);
  await proc.stdin.end();
  const pgm = new Uint8Array(await new Response(proc.stdout).arrayBuffer());
  expect(await proc.exited).toBe(0);
  // Binary PGM: "P5\n<w> <h>\n<max>\n" then one byte per pixel.
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(latin1(pgm.subarray(0, 64)))!;
  const pixels = pgm.subarray(header[0].length);
  return pixels.reduce((a, b) => a + b, 0) / Math.max(1, pixels.length);
}
