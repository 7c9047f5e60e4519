/**
 * Insights asked at submit are made in the parse worker from the parse's objects
 * (src/output/insights-inline.ts), not from its JSON on the insights thread (src/output/insights.ts).
 * Both must answer the same bytes: on every corpus document parsed by the engine (the in-memory
 * response, not a JSON round trip of it), and through the worker pool for a whole parse and a split
 * one (pages read on two threads, assembled by the planning task).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parseStatement } from "../../src/engine/index.ts";
import { responseJson } from "../../src/engine/response-json.ts";
import { AppError } from "../../src/errors.ts";
import { createWorkerPool, type WorkerPool } from "../../src/jobs/pool.ts";
import type { DocumentInput, PagesOutput, Parsed } from "../../src/jobs/tasks.ts";
import { answerWithInsights } from "../../src/output/insights-inline.ts";
import { insightsOutput } from "../../src/output/insights.ts";
import { corpusFiles } from "../helpers/corpus-snapshot.ts";

/** What the insights thread answers for a plain parse's JSON: the enriched JSON and CSV. */
async function viaThreadPath(plainJson: string): Promise<{ json: string; csv: string }> {
  const out = await insightsOutput(plainJson, "csv");
  if (out.kind !== "csv") throw new Error("csv asked");
  return { json: out.json, csv: out.csv };
}

const files = corpusFiles();
const decoder = new TextDecoder();

test(`in the worker's way = the insights thread's, byte for byte, JSON and CSV, on every corpus document the engine parses (${files.length} files)`, async () => {
  let compared = 0;
  let withRows = 0;
  for (const file of files) {
    const response = await parseStatement(new Uint8Array(readFileSync(file))).catch((e: unknown) => (e instanceof AppError ? null : Promise.reject(e)));
    if (response === null) continue;
    const expected = await viaThreadPath(responseJson(response));
    const inline = answerWithInsights(response, true);
    expect({ file, json: decoder.decode(inline.utf8), csv: inline.csv }).toEqual({ file, ...expected });
    // Without CSV: the same JSON, and no CSV.
    const plain = answerWithInsights(response, false);
    expect({ file, json: decoder.decode(plain.utf8), csv: plain.csv }).toEqual({ file, json: expected.json, csv: undefined });
    compared++;
    if (response.transactions.length > 0) withRows++;
  }
  // The corpus is fixtures/ (each bank's statements, xlsx and html exports): nearly all parse.
  expect(compared).toBeGreaterThanOrEqual(80);
  expect(withRows).toBeGreaterThanOrEqual(80);
}, 300_000);

const LIMITS = { maxPages: 3000, maxXlsxRows: 200_000, maxXlsxInflatedBytes: 200 * 1024 * 1024 };
const docOf = (bytes: Uint8Array): DocumentInput => {
  const sab = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(sab).set(bytes);
  return { bytes: sab, limits: LIMITS };
};

/** The planning task's protocol as src/jobs/runner.ts drives it, splitting any PDF with pages enough for a helper. */
/** The worker's answer with its JSON as text (it arrives as UTF-8 bytes). */
const textOf = ({ utf8, answerMs: _, ...rest }: Parsed) => ({ json: new TextDecoder().decode(utf8), ...rest });

async function splitParse(pool: WorkerPool, bytes: Uint8Array, insights: boolean): Promise<{ parsed: Parsed; split: boolean }> {
  const doc = docOf(bytes);
  const helpers: Promise<PagesOutput>[] = [];
  let split = false;
  const out = await pool.run(
    { op: "parse", doc, csv: true, insights, split: { above: 1, workers: 2 } },
    {
      onMessage: (m, reply) => {
        if (m.type === "split") for (let h = 0; h < m.helpers; h++) helpers.push(pool.run({ op: "pages", doc, claims: m.claims, ...(m.update ? { update: m.update } : {}) }));
        else if (m.type === "want-parts") {
          void Promise.all(helpers).then((parts) => {
            const read = parts.filter((p) => p.blocks.length > 0);
            split ||= read.length > 0;
            reply({ type: "parts", parts: read });
          });
        }
      },
    },
  );
  return { parsed: out.parsed, split };
}

describe("through the parse workers", () => {
  const pool = createWorkerPool({ threads: 2 });
  afterAll(() => pool.destroy());
  // The longest corpus PDFs: those split (at least 2 x MIN_PAGES_PER_TASK pages), and a short one parsed whole.
  const pdfs = files
    .filter((f) => f.endsWith(".pdf"))
    .map((f) => ({ f, size: readFileSync(f).byteLength }))
    .sort((a, b) => b.size - a.size)
    .map((x) => x.f);

  test("a parse task with insights answers the thread's bytes and is marked; without, plain and unmarked; whole and split", async () => {
    await pool.warm();
    let splitSeen = 0;
    let compared = 0;
    for (const file of [...pdfs.slice(0, 6), pdfs.at(-1)!]) {
      const bytes = new Uint8Array(readFileSync(file));
      // A PDF the engine refuses (encrypted with no password given) has no parse to explain.
      const plain = await pool.run({ op: "parse", doc: docOf(bytes), csv: true, split: null }).then((o) => o.parsed, (e: unknown) => (e instanceof AppError ? null : Promise.reject(e)));
      if (plain === null) continue;
      compared++;
      expect(plain.insights).toBeUndefined();
      const expected = await viaThreadPath(textOf(plain).json);
      const whole = (await pool.run({ op: "parse", doc: docOf(bytes), csv: true, insights: true, split: null })).parsed;
      expect({ file, ...textOf(whole) }).toEqual({ file, ...expected, insights: true });
      const parts = await splitParse(pool, bytes, true);
      expect({ file, ...textOf(parts.parsed) }).toEqual({ file, ...expected, insights: true });
      if (parts.split) splitSeen++;
    }
    expect(compared).toBeGreaterThanOrEqual(5);
    expect(splitSeen).toBeGreaterThanOrEqual(2);
  }, 300_000);
});
