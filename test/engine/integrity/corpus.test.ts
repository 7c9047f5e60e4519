/**
 * Every genuine document this project has (the real samples, the fixture corpus, the producer
 * corpus, the wild corpus) ends without `likely_edited`: the integrity report must not accuse a
 * bank's own export. Sheets get the agreed empty report.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseStatement } from "../../../src/engine/index.ts";
import { sniff } from "../../../src/engine/sniff.ts";
import { rejection } from "../../helpers/errors.ts";

const ROOT = join(import.meta.dir, "../../..");
const DOCUMENT = /\.(pdf|xlsx|xls)$/;

function documents(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return documents(path);
    return DOCUMENT.test(name) ? [path] : [];
  });
}

const corpus = [join(ROOT, "fixtures"), join(ROOT, "test/engine/producers")].flatMap(documents).sort();
// The samples' encrypted documents need a password nobody has: they never reach the report.
// The scans (fixtures/scans) have no text to read: the text engine refuses them, OCR reads them
// (test/ocr), so here they only have to be refused as scans, never read as a statement.
const scans = corpus.filter((path) => path.includes("fixtures/scans/"));
const readable = corpus.filter((path) => !/real\/encrypted\./.test(path) && !scans.includes(path));

describe("scans reach the text engine as scans", () => {
  test("there are scans", () => expect(scans.length).toBeGreaterThanOrEqual(3));
  for (const path of scans) {
    test(relative(ROOT, path), async () => {
      const e = await rejection(parseStatement(new Uint8Array(readFileSync(path))));
      expect(e.errorClass).toBe("scanned_document");
    });
  }
});

describe("genuine documents are never likely_edited", () => {
  test("the corpus is all there", () => {
    expect(readable.filter((p) => p.endsWith(".pdf")).length).toBeGreaterThanOrEqual(80);
    expect(readable.some((p) => p.includes("fixtures/real/zenith.pdf"))).toBe(true);
  });

  for (const path of readable) {
    test(relative(ROOT, path), async () => {
      const bytes = new Uint8Array(readFileSync(path));
      const r = await parseStatement(bytes);
      const integrity = r.integrity!;
      if (sniff(bytes) === "pdf") {
        expect(integrity.verdict).not.toBe("likely_edited");
        expect(integrity.signals.filter((s) => s.severity === "high")).toEqual([]);
        expect(integrity.fonts_per_page.length).toBeGreaterThan(0);
      } else {
        expect(integrity).toEqual({ verdict: "no_signals", signals: [], producer: "", creator: "", created_at: null, modified_at: null, incremental_updates: 0, fonts_per_page: [] });
      }
    });
  }
});
