/**
 * Assembly with the table scanned in two parts (src/engine/parallel/): for every corpus PDF cut
 * after every page, the response equals the one-pass assembly byte for byte, whether the tail's
 * speculative scan was kept or refused; and on statements that repeat their header on each page
 * it is kept (else the test would prove nothing about the joined scans).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { assembleLines } from "../../src/engine/assemble.ts";
import { type Line, pageLines } from "../../src/engine/layout/lines.ts";
import { assembleParts, joinParts } from "../../src/engine/parallel/assemble-parts.ts";
import { scanHead, speculateTail } from "../../src/engine/parallel/tail-scan.ts";
import { DEFAULT_PDF_EXTRACTOR, readPages } from "../../src/engine/pdf/extractor.ts";
import { responseJson } from "../../src/engine/response-json.ts";
import { AppError } from "../../src/errors.ts";
import { corpusFiles } from "../helpers/corpus-snapshot.ts";
import { makeStatementPdf } from "../jobs/support/statement-pdf.ts";

const outcome = (f: () => string): string => {
  try {
    return f();
  } catch (e) {
    if (e instanceof AppError) return `error ${e.errorClass}: ${e.message}`;
    throw e;
  }
};

async function pagesOf(bytes: Uint8Array): Promise<{ pages: Line[][]; producer: string } | null> {
  const doc = await readPages(DEFAULT_PDF_EXTRACTOR, bytes, { first: 1, last: Number.MAX_SAFE_INTEGER }).catch(() => null);
  return doc ? { pages: doc.pages.map(pageLines), producer: doc.producer } : null;
}

/** Every cut after page 1..n-1: the two-part assembly and whether its joined scan was kept. */
function everyCut(pages: Line[][], producer: string, whole: string): { kept: number; cuts: number } {
  let kept = 0;
  for (let k = 1; k < pages.length; k++) {
    const head = pages.slice(0, k).flat();
    const tailLines = pages.slice(k).flat();
    const tail = speculateTail(tailLines);
    const parts = outcome(() => responseJson(assembleParts({ lines: head, scan: scanHead(head) }, tailLines, tail, producer)));
    expect({ cut: k, json: parts }).toEqual({ cut: k, json: whole });
    if (joinParts({ lines: head, scan: scanHead(head) }, tailLines, tail).joined) kept++;
  }
  return { kept, cuts: pages.length - 1 };
}

describe("assembly with the table scanned in two parts", () => {
  test("a statement that repeats its header on every page: every cut keeps the helper's scan, and the response is the one-pass one", async () => {
    const doc = (await pagesOf(await makeStatementPdf({ pages: 12 })))!;
    const whole = responseJson(assembleLines(doc.pages.flat(), doc.producer));
    const { kept, cuts } = everyCut(doc.pages, doc.producer, whole);
    expect(kept).toBe(cuts);
    // Every row of both parts is in the joined table.
    const head = doc.pages.slice(0, 5).flat();
    const tailLines = doc.pages.slice(5).flat();
    const { joined } = joinParts({ lines: head, scan: scanHead(head) }, tailLines, speculateTail(tailLines));
    expect(joined!.scan.rows.length).toBe(12 * 22);
  }, 60_000);

  test("every multi-page corpus PDF, cut after every page: the same response as one pass", async () => {
    let kept = 0;
    let cuts = 0;
    for (const file of corpusFiles().filter((f) => f.endsWith(".pdf"))) {
      const doc = await pagesOf(new Uint8Array(readFileSync(file)));
      if (!doc || doc.pages.length < 2) continue;
      const whole = outcome(() => responseJson(assembleLines(doc.pages.flat(), doc.producer)));
      const r = everyCut(doc.pages, doc.producer, whole);
      kept += r.kept;
      cuts += r.cuts;
    }
    console.log(`corpus: the helper's scan was kept at ${kept} of ${cuts} cuts`);
    // Some corpus statements repeat their header per page: the joined scans were really compared.
    expect(kept).toBeGreaterThan(0);
  }, 300_000);
});
