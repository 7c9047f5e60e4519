/**
 * A split parse (pages read on two threads, lines handed over in the wire form, assembled by the
 * planning task) must answer byte for byte what the whole parse answers, on the corpus statements
 * themselves and not only on a generated one (test/jobs/pool.test.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { assembleLines } from "../../src/engine/assemble.ts";
import { type Line, pageLines } from "../../src/engine/layout/lines.ts";
import { DEFAULT_PDF_EXTRACTOR, readPages } from "../../src/engine/pdf/extractor.ts";
import { responseJson } from "../../src/engine/response-json.ts";
import { AppError } from "../../src/errors.ts";
import { MIN_PAGES_PER_TASK } from "../../src/jobs/planner.ts";
import { createWorkerPool, type WorkerPool } from "../../src/jobs/pool.ts";
import type { DocumentInput, PagesOutput } from "../../src/jobs/tasks.ts";
import { assembleFromCuts, corpusFiles } from "../helpers/corpus-snapshot.ts";

const LIMITS = { maxPages: 3000, maxXlsxRows: 200_000, maxXlsxInflatedBytes: 200 * 1024 * 1024 };
const docOf = (bytes: Uint8Array): DocumentInput => {
  const sab = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(sab).set(bytes);
  return { bytes: sab, limits: LIMITS };
};
const outcome = (p: Promise<string>) => p.catch((e: unknown) => (e instanceof AppError ? `error ${e.errorClass}: ${e.message}` : Promise.reject(e)));

/**
 * The planning task's protocol as src/jobs/runner.ts drives it, with a split threshold of one page
 * (the service splits above SPLIT_ABOVE_PAGES): any PDF with pages enough for a helper splits.
 */
async function splitParse(pool: WorkerPool, bytes: Uint8Array, helpersRead: number[]): Promise<string> {
  const doc = docOf(bytes);
  const helpers: Promise<PagesOutput>[] = [];
  const out = await pool.run(
    { op: "parse", doc, csv: false, split: { above: 1, workers: 2 } },
    {
      onMessage: (m, reply) => {
        if (m.type === "split") for (let h = 0; h < m.helpers; h++) helpers.push(pool.run({ op: "pages", doc, claims: m.claims, ...(m.update ? { update: m.update } : {}) }));
        else if (m.type === "want-parts") {
          void Promise.all(helpers).then((parts) => {
            const read = parts.filter((p) => p.blocks.length > 0);
            helpersRead.push(read.length);
            reply({ type: "parts", parts: read });
          });
        }
      },
    },
  );
  return new TextDecoder().decode(out.parsed.utf8);
}

const pdfs = corpusFiles().filter((f) => f.endsWith(".pdf"));

describe("split and assembled equals whole, on the corpus", () => {
  const pool = createWorkerPool({ threads: 2 });
  afterAll(() => pool.destroy());

  test("every corpus PDF with pages enough for a helper: the split parse's JSON equals the whole parse's", async () => {
    await pool.warm();
    let split = 0;
    for (const file of pdfs) {
      const bytes = new Uint8Array(readFileSync(file));
      const helpersRead: number[] = [];
      const parts = await outcome(splitParse(pool, bytes, helpersRead));
      const whole = await outcome(pool.run({ op: "parse", doc: docOf(bytes), csv: false, split: null }).then((o) => new TextDecoder().decode(o.parsed.utf8)));
      expect({ file, json: parts }).toEqual({ file, json: whole });
      if (helpersRead.some((n) => n > 0)) split++;
    }
    // The corpus holds statements long enough to split (at least 2 x MIN_PAGES_PER_TASK pages).
    expect(split).toBeGreaterThanOrEqual(3);
  }, 300_000);

  test("every multi-page corpus PDF: lines cut into 1-3 page blocks, half through the wire form, assemble to the same response", async () => {
    let multi = 0;
    for (const file of pdfs) {
      const bytes = new Uint8Array(readFileSync(file));
      const doc = await readPages(DEFAULT_PDF_EXTRACTOR, bytes.slice(), { first: 1, last: Number.MAX_SAFE_INTEGER }).catch(() => null);
      if (!doc || doc.pages.length < 2) continue;
      multi++;
      const lines: Line[] = doc.pages.flatMap(pageLines);
      const whole = await outcome(Promise.resolve().then(() => responseJson(assembleLines(lines, doc.producer))));
      expect({ file, json: await outcome(assembleFromCuts(bytes.slice())) }).toEqual({ file, json: whole });
    }
    expect(multi).toBeGreaterThan(2 * MIN_PAGES_PER_TASK);
  }, 300_000);
});
