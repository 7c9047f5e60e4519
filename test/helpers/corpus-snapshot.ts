/**
 * `bun test/helpers/corpus-snapshot.ts OUT_DIR [--compare OTHER_DIR]`: every PDF, XLSX/XLS and
 * HTML fixture under fixtures/ (not fixtures/scans, which go to OCR) parsed three ways, each
 * result (the response JSON, or the error class and message) written to OUT_DIR with a
 * sha256 list (OUT_DIR/index.tsv):
 * - `whole`: parseStatement in this thread, as one document;
 * - `pool`: through the real worker pool with 2 threads as the service runs it, so a PDF above
 *   SPLIT_ABOVE_PAGES pages is split across both threads and assembled by its planning task;
 * - `cuts`: for a PDF, its pages' lines assembled from blocks cut at every 1..3 pages and sent
 *   through the columnar wire form, as a split parse hands them over (small documents too).
 * Run it before and after an engine change; `--compare` prints every document whose output
 * differs (exit code 1 when any does). A tool for changes to the engine, not a test.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { assembleLines } from "../../src/engine/assemble.ts";
import { parseStatement } from "../../src/engine/index.ts";
import { type Line, pageLines } from "../../src/engine/layout/lines.ts";
import { DEFAULT_PDF_EXTRACTOR, readPages } from "../../src/engine/pdf/extractor.ts";
import { responseJson } from "../../src/engine/response-json.ts";
import { AppError } from "../../src/errors.ts";
import { createWorkerPool } from "../../src/jobs/pool.ts";
import { runDocument } from "../../src/jobs/runner.ts";
import { decodeLines, LinesEncoder } from "../../src/jobs/lines-wire.ts";

const ROOT = new URL("../../fixtures/", import.meta.url).pathname;
const KINDS = /\.(pdf|xlsx|xls|html?)$/i;
const LIMITS = { maxPages: 3000, maxXlsxRows: 200_000, maxXlsxInflatedBytes: 200 * 1024 * 1024 };

/** Every corpus file the text path reads, sorted. */
export function corpusFiles(root = ROOT): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (relative(root, path) !== "scans") walk(path);
      } else if (KINDS.test(name)) out.push(path);
    }
  };
  walk(root);
  return out;
}

const errorText = (e: unknown) => (e instanceof AppError ? `error ${e.errorClass}: ${e.message}` : `crash: ${e instanceof Error ? e.message : String(e)}`);

/** A PDF's lines cut into blocks of 1, 2, 3, 1, 2, 3... pages, every other block through the wire form, assembled. */
export async function assembleFromCuts(bytes: Uint8Array): Promise<string> {
  const doc = await readPages(DEFAULT_PDF_EXTRACTOR, bytes, { first: 1, last: Number.MAX_SAFE_INTEGER });
  const lines: Line[] = [];
  let page = 0;
  for (let k = 0; page < doc.pages.length; k++) {
    const block = doc.pages.slice(page, page + 1 + (k % 3));
    page += block.length;
    if (k % 2 === 0) lines.push(...block.flatMap(pageLines));
    else {
      const enc = new LinesEncoder();
      for (const p of block) enc.add(pageLines(p));
      lines.push(...decodeLines(enc.finish()));
    }
  }
  const r = assembleLines(lines, doc.producer, {});
  // Integrity facts come from the document, not the lines: left out of this comparison.
  delete r.integrity;
  return responseJson(r);
}

async function snapshot(out: string): Promise<void> {
  mkdirSync(out, { recursive: true });
  const pool = createWorkerPool({ threads: 2 });
  await pool.warm();
  const index: string[] = [];
  try {
    for (const path of corpusFiles()) {
      const bytes = new Uint8Array(readFileSync(path));
      const name = relative(ROOT, path);
      const results: Record<string, string> = {};
      results.whole = await parseStatement(bytes.slice(), { limits: LIMITS }).then(responseJson, errorText);
      const sab = new SharedArrayBuffer(bytes.byteLength);
      new Uint8Array(sab).set(bytes);
      results.pool = await runDocument({ pool, timeoutMs: 300_000, freeWorkers: () => 2 }, { kind: "json", doc: { bytes: sab, limits: LIMITS }, ocr: false }).then(
        (r) => (r.kind === "json" ? r.json : "not json"),
        errorText,
      );
      if (/\.pdf$/i.test(path)) results.cuts = await assembleFromCuts(bytes.slice()).catch(errorText);
      for (const [how, text] of Object.entries(results)) {
        const file = `${name.replaceAll("/", "__")}.${how}.json`;
        writeFileSync(join(out, file), text);
        index.push(`${name}\t${how}\t${createHash("sha256").update(text).digest("hex")}`);
      }
    }
  } finally {
    await pool.destroy();
  }
  writeFileSync(join(out, "index.tsv"), `${index.join("\n")}\n`);
  console.log(`${index.length} outputs of ${new Set(index.map((l) => l.split("\t")[0])).size} documents written to ${out}`);
}

function compare(a: string, b: string): number {
  const read = (dir: string) => new Map(readFileSync(join(dir, "index.tsv"), "utf8").trim().split("\n").map((l) => { const [n, how, h] = l.split("\t"); return [`${n}\t${how}`, h] as const; }));
  const x = read(a);
  const y = read(b);
  let differ = 0;
  for (const key of new Set([...x.keys(), ...y.keys()])) {
    if (x.get(key) === y.get(key)) continue;
    differ++;
    console.log(`differs: ${key.replace("\t", " ")}`);
  }
  console.log(`${x.size} / ${y.size} outputs compared, ${differ} differ`);
  return differ;
}

if (import.meta.main) {
  const [out, flag, other] = process.argv.slice(2);
  if (!out) throw new Error("usage: bun test/helpers/corpus-snapshot.ts OUT_DIR [--compare OTHER_DIR]");
  await snapshot(out);
  // Within one run, the split and cut assemblies must equal the whole parse too.
  const own = readFileSync(join(out, "index.tsv"), "utf8").trim().split("\n").map((l) => l.split("\t"));
  const wholeOf = new Map(own.filter((r) => r[1] === "whole").map((r) => [r[0], r[2]]));
  const splitDiff = own.filter((r) => r[1] === "pool" && wholeOf.get(r[0]!) !== r[2]).map((r) => r[0]);
  console.log(`pool differs from whole: ${splitDiff.length}${splitDiff.length ? ` (${splitDiff.join(", ")})` : ""}`);
  const code = flag === "--compare" && other ? compare(other, out) : 0;
  process.exit(code > 0 || splitDiff.length > 0 ? 1 : 0);
}
