/**
 * OCR speed (issue 25): `bun bench/ocr.ts` prints JSON lines:
 * - seconds per page of a 4-page scan (two pages of fixtures/scans/zenith-scan.pdf, two of
 *   fidelity-outlined.pdf, joined in memory) read by the OCR pool with 1 and with 2 workers, each
 *   pool warmed by one page per thread first (the engines' load is reported apart);
 * - the text path's throughput (fixtures/zenith/statement.pdf parsed again and again on a 1-thread
 *   parse pool for BENCH_SECONDS) alone and while the OCR pool (1 worker) reads the 4-page scan;
 * - each scan fixture's outcome (rows, verdict, repairs, or the refusal).
 * Nothing is written to disk. Numbers depend on the machine's load; docs/ocr.md quotes a run.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { createOcrPool, type OcrLimits } from "../src/jobs/ocr-pool.ts";
import { createWorkerPool } from "../src/jobs/pool.ts";
import type { DocumentInput } from "../src/jobs/tasks.ts";

const ROOT = join(import.meta.dir, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const limits: OcrLimits = { maxPages: 20, dpi: 300, pageTimeoutMs: 120_000, loadTimeoutMs: 60_000, minConfidence: 60, minChainPercent: 100 };
const shared = (b: Uint8Array) => {
  const sab = new SharedArrayBuffer(b.byteLength);
  new Uint8Array(sab).set(b);
  return sab;
};
const file = (p: string) => new Uint8Array(readFileSync(join(ROOT, p)));
const never = new AbortController().signal;

/** `count` copies of a scan fixture's page as one PDF. */
async function pages(name: string, count: number): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  const src = await PDFDocument.load(file(`fixtures/scans/${name}.pdf`));
  for (const p of await out.copyPages(src, Array.from({ length: count }, () => 0))) out.addPage(p);
  return out.save();
}

async function fourPageScan(): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const name of ["zenith-scan", "fidelity-outlined"]) {
    const src = await PDFDocument.load(file(`fixtures/scans/${name}.pdf`));
    for (const p of await out.copyPages(src, [0, 0])) out.addPage(p);
  }
  return out.save();
}

async function ocrSecondsPerPage(threads: number, scan: SharedArrayBuffer) {
  const pool = createOcrPool({ threads, idleMs: 60_000 });
  try {
    // One page per thread first, so every thread's engine is loaded before the timed run.
    const warmStart = performance.now();
    await pool.read({ bytes: shared(await pages("fidelity-outlined", threads)), csv: false }, limits, { signal: never }).catch(() => {});
    const warmS = (performance.now() - warmStart) / 1000;
    const t0 = performance.now();
    await pool.read({ bytes: scan, csv: false }, limits, { signal: never }).catch((e: unknown) => console.error(String(e)));
    const s = (performance.now() - t0) / 1000;
    return { bench: "ocr", workers: threads, pages: 4, seconds: round(s), secondsPerPage: round(s / 4), warmUpWithEngineLoadS: round(warmS), loadAverage: loadavg().map(round) };
  } finally {
    await pool.destroy();
  }
}

async function textThroughput(during?: () => Promise<unknown>) {
  const pool = createWorkerPool({ threads: 1 });
  await pool.warm();
  const doc: DocumentInput = { bytes: shared(file("fixtures/zenith/statement.pdf")), limits: { maxPages: 3000, maxXlsxRows: 200_000, maxXlsxInflatedBytes: 200 << 20 } };
  let parses = 0;
  const end = performance.now() + SECONDS * 1000;
  const background = during?.();
  while (performance.now() < end) {
    await pool.run({ op: "parse", doc, csv: false, split: null });
    parses++;
  }
  await background;
  await pool.destroy();
  return { bench: "text-path", whileOcr: during !== undefined, seconds: SECONDS, parses, parsesPerSecond: round(parses / SECONDS), loadAverage: loadavg().map(round) };
}

async function outcomes() {
  const pool = createOcrPool({ threads: 1, idleMs: 60_000 });
  try {
    for (const name of ["zenith-scan", "zenith-stamp", "heritage-photo", "fidelity-outlined", "heritage-garbage-layer"]) {
      try {
        const r = JSON.parse((await pool.read({ bytes: shared(file(`fixtures/scans/${name}.pdf`)), csv: false }, limits, { signal: never })).json);
        console.log(JSON.stringify({ bench: "outcome", name, rows: r.transactions.length, reconcilable: r.row_wise_reconcilable, verdict: r.checks.verdict, ocr: r.checks.ocr }));
      } catch (e) {
        console.log(JSON.stringify({ bench: "outcome", name, refused: (e as { errorClass?: string }).errorClass, message: (e as Error).message }));
      }
    }
  } finally {
    await pool.destroy();
  }
}

const round = (x: number) => Math.round(x * 100) / 100;
const scan = shared(await fourPageScan());
if (process.argv.includes("--outcomes")) await outcomes();
for (const threads of [1, 2]) console.log(JSON.stringify(await ocrSecondsPerPage(threads, scan)));
console.log(JSON.stringify(await textThroughput()));
const ocrPool = createOcrPool({ threads: 1, idleMs: 60_000 });
console.log(JSON.stringify(await textThroughput(() => ocrPool.read({ bytes: scan, csv: false }, limits, { signal: never }).catch(() => {}))));
await ocrPool.destroy();
