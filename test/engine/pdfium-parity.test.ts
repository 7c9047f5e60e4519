/**
 * PDF_EXTRACTOR=pdfium against pdf.js on the whole PDF corpus: every fixture folder, every test
 * PDF and the real statements in fixtures/real. The engine's full JSON result (transactions,
 * metadata, reconciliation, integrity with its producer, dates and signals) must be byte-identical,
 * and a document one extractor refuses, the other refuses with the same class and message. The
 * document facts each extractor reads (page count, producer, information dictionary, XMP tools)
 * are compared too, since the split path reads them in the planning task.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseStatement } from "../../src/engine/index.ts";
import { openDocument, type PdfExtractorName } from "../../src/engine/pdf/extractor.ts";
import { AppError } from "../../src/errors.ts";

const ROOT = join(import.meta.dir, "..", "..");
const SAMPLES = join(ROOT, "fixtures", "real");

function pdfsUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : pdfsUnder(path);
    return name.toLowerCase().endsWith(".pdf") ? [path] : [];
  });
}

// fixtures/ holds the real samples (fixtures/real) too.
const corpus = [...pdfsUnder(join(ROOT, "fixtures")), ...pdfsUnder(join(ROOT, "test"))].sort();

/** The engine's answer as text: the JSON result, or the error's class and message. */
async function outcome(bytes: Uint8Array, extractor: PdfExtractorName): Promise<string> {
  try {
    return JSON.stringify(await parseStatement(bytes.slice(), { extractor }));
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return `${e.errorClass}: ${e.message}`;
  }
}

async function facts(bytes: Uint8Array, extractor: PdfExtractorName) {
  try {
    const doc = await openDocument(extractor, bytes.slice());
    try {
      return { pageCount: doc.pageCount, producer: await doc.producer(), info: await doc.info() };
    } finally {
      await doc.close();
    }
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return `${e.errorClass}: ${e.message}`;
  }
}

describe("PDFium and pdf.js give the same engine result on every PDF of the corpus", () => {
  test("the corpus is all there (fixtures, test data, real samples)", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(170);
    expect(corpus.filter((p) => p.startsWith(SAMPLES)).length).toBeGreaterThanOrEqual(5);
    expect(corpus.some((p) => p.includes(join("fixtures", "wild")))).toBe(true);
    expect(corpus.some((p) => p.includes(join("test", "engine", "producers")))).toBe(true);
  });

  test("identical JSON results (or identical refusals) and document facts", async () => {
    const differences: string[] = [];
    let parsed = 0;
    for (const path of corpus) {
      const bytes = new Uint8Array(readFileSync(path));
      const name = relative(ROOT, path);
      const [js, pf] = [await outcome(bytes, "pdfjs"), await outcome(bytes, "pdfium")];
      if (js !== pf) differences.push(`${name}: result differs\n  pdf.js: ${js.slice(0, 300)}\n  pdfium: ${pf.slice(0, 300)}`);
      if (js.startsWith("{")) parsed++;
      const [fj, fp] = [await facts(bytes, "pdfjs"), await facts(bytes, "pdfium")];
      if (JSON.stringify(fj) !== JSON.stringify(fp)) differences.push(`${name}: document facts differ\n  pdf.js: ${JSON.stringify(fj)}\n  pdfium: ${JSON.stringify(fp)}`);
    }
    expect(differences).toEqual([]);
    // Most of the corpus parses: the comparison is over real results, not over two refusals.
    expect(parsed).toBeGreaterThan(corpus.length * 0.8);
  }, 120_000);
});
