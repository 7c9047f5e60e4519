/**
 * `npm run bench`: generates inputs, starts the real server on loopback (once with 1 worker, once
 * with one per core), and measures end-to-end throughput, sync latency, peak RSS and scaling,
 * beside MuPDF and pdfminer extracting text from the same file. Extraction alone (PDFium against
 * pdf.js, one thread, bench/extract.ts) and the large file end to end with PDF_EXTRACTOR=pdfjs are
 * measured too, and last bench/batch.ts (a batch of corpus statements and a 300-page statement,
 * each against mutool). Writes bench/results.md.
 * Every loop is bounded in count and time and talks only to 127.0.0.1.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { measureBatch } from "./batch.ts";
import { runJob } from "./lib/loopback.ts";
import { statementPdf, statementXlsx } from "./generate.ts";

const OUT = join(import.meta.dir, "out");
const CORES = availableParallelism();
const ADMIN = "bench-admin-token-0123456789abcdef";
const LARGE_PAGES = Number(process.env.BENCH_LARGE_PAGES ?? 2000);
const LATENCY_BUDGET_MS = 25_000; // per concurrency level
/** No single job may take longer than this; a stuck stream is an error, never a hang. */
const JOB_TIMEOUT_MS = 240_000;
const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

mkdirSync(OUT, { recursive: true });
const t0 = performance.now();
const inputs = {
  small: await statementPdf(2),
  medium: await statementPdf(100),
  large: await statementPdf(LARGE_PAGES),
  xlsxSmall: await statementXlsx(2_000),
  xlsxLarge: await statementXlsx(20_000),
};
for (const [name, bytes] of Object.entries(inputs)) writeFileSync(join(OUT, `${name}.${name.startsWith("xlsx") ? "xlsx" : "pdf"}`), bytes);
console.error(`inputs generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

interface Server { url: string; pid: number; key: string; stop(): Promise<void> }

async function startServer(workers: number, extraEnv: Record<string, string> = {}): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-db-"));
  const port = 40000 + Math.floor(Math.random() * 20000);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", "src", "main.ts")], {
    env: {
      ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_TOKEN: ADMIN, WORKERS: String(workers),
      LOG_LEVEL: "error", TEST_MONTHLY_CAP: "100000000", MAX_INFLIGHT_PER_KEY: "1000", MAX_QUEUED_JOBS: "1000",
      MAX_PAGES: "10000", PARSE_TIMEOUT_MS: "600000", DATABASE_URL: "", ...extraEnv,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error("server did not become ready");
    await Bun.sleep(200);
  }
  const res = await fetch(`${url}/v1/keys/test`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: JSON.stringify({ owner: "bench" }),
  });
  if (!res.ok) throw new Error(`could not issue a key: ${res.status} ${await res.text()}`);
  const { key } = (await res.json()) as { key: string };
  return {
    url, pid: proc.pid, key,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function form(bytes: Uint8Array, name: string, type: string): FormData {
  const f = new FormData();
  f.append("pdf", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
  return f;
}

/** Resident set size of a process in MiB, from /proc. */
function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

async function withPeakRss<T>(pid: number, fn: () => Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
  try {
    const value = await fn();
    return { value, peak: Math.max(peak, rssMiB(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/** Runs one job end to end: create, read the SSE stream until the `result` event (bench/lib/loopback.ts). */
const job = (s: Server, bytes: Uint8Array, name: string, type = "application/pdf") => runJob(s, bytes, name, JOB_TIMEOUT_MS, type);

async function latency(s: Server, concurrency: number, total: number) {
  const times: number[] = [];
  let errors = 0;
  let next = 0;
  const stopAt = performance.now() + LATENCY_BUDGET_MS;
  const body = inputs.small;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total && performance.now() < stopAt) {
        next++;
        const t = performance.now();
        try {
          const res = await fetch(`${s.url}/v1/parse`, {
            method: "POST",
            headers: { authorization: `Bearer ${s.key}` },
            body: form(body, "small.pdf", "application/pdf"),
            signal: AbortSignal.timeout(60_000),
          });
          const text = await res.text();
          // A 200 must carry the statement's rows, not merely a status.
          if (res.ok && text.includes('"transactions":[{')) times.push(performance.now() - t);
          else errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
  return { n: times.length + errors, p50: q(50), p95: q(95), p99: q(99), errorRate: errors / Math.max(1, times.length + errors) };
}

function timeCommand(cmd: string[]): number | undefined {
  if (!Bun.which(cmd[0]!)) return undefined;
  const start = performance.now();
  const r = Bun.spawnSync(cmd, { stdout: "ignore", stderr: "ignore" });
  return r.exitCode === 0 ? performance.now() - start : undefined;
}

const rows: [string, string][] = [];
const add = (k: string, v: string) => {
  rows.push([k, v]);
  console.error(`${k}: ${v}`);
};
const f1 = (n: number) => n.toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Durations of n runs of fn, one after the other. */
async function sequential(n: number, fn: () => Promise<{ ms: number }>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) ms.push((await fn()).ms);
  return ms;
}
add("machine cores", String(CORES));

/**
 * The large PDF end to end on a server with `workers` threads, each run followed by mutool on the
 * same file, so both see the same moments of a shared machine. The server first parses the large
 * file once, unmeasured: the figures are for a warm server (workers have loaded pdf.js and
 * compiled its hot paths), as a long-running service is. Servers are measured one at a time, so
 * an idle one (its collections, its heap checks) never runs beside the one measured.
 */
async function measureLarge(s: Server, runs: number) {
  await job(s, inputs.large, "warmup.pdf");
  const ours: { ms: number; rows: number }[] = [];
  const { peak } = await withPeakRss(s.pid, async () => {
    for (let i = 0; i < runs; i++) {
      ours.push(await job(s, inputs.large, "large.pdf"));
      mutoolRuns.push(timeCommand(["mutool", "draw", "-q", "-F", "stext", "-o", "/dev/null", largePath]));
    }
  });
  return { best: ours.reduce((a, b) => (b.ms < a.ms ? b : a)), peak };
}

const largePath = join(OUT, "large.pdf");
const mutoolRuns: (number | undefined)[] = [];

/** bench/extract.ts in its own process: one extractor reading every page of the large PDF, nothing else. */
function extractionAlone(extractor: "pdfium" | "pdfjs"): { msPerPage: number; pagesPerSecond: number; openMs: number; wasmMiB: number } | undefined {
  const r = Bun.spawnSync([process.execPath, join(import.meta.dir, "extract.ts"), extractor, largePath], { stdout: "pipe", stderr: "inherit" });
  return r.exitCode === 0 ? JSON.parse(r.stdout.toString()) : undefined;
}
// Before any server starts, so nothing else runs beside it; best of two for each.
const alone: Record<string, ReturnType<typeof extractionAlone>> = {};
for (const extractor of ["pdfium", "pdfjs"] as const) {
  const runs = [extractionAlone(extractor), extractionAlone(extractor)].filter((r) => r !== undefined);
  alone[extractor] = runs.sort((a, b) => b.pagesPerSecond - a.pagesPerSecond)[0];
  const r = alone[extractor];
  add(`extraction alone, ${extractor}, one thread, large PDF (best of 2)`, r ? `${f1(r.pagesPerSecond)} pages/s (${r.msPerPage.toFixed(2)} ms/page, open ${f1(r.openMs)} ms${extractor === "pdfium" ? `, wasm memory ${f1(r.wasmMiB)} MiB` : ""})` : "failed");
}
if (alone.pdfium && alone.pdfjs) add("extraction alone, PDFium / pdf.js", `${(alone.pdfium.pagesPerSecond / alone.pdfjs.pagesPerSecond).toFixed(2)}x`);
const RUNS = 3;
const EXTRACTOR = process.env.PDF_EXTRACTOR || "pdfium";
add("PDF_EXTRACTOR of the measured servers", EXTRACTOR);
const one = await startServer(1);
const { best: largeOne } = await measureLarge(one, RUNS);
await one.stop();
const all = await startServer(CORES);
const { best: largeAll, peak: peakLarge } = await measureLarge(all, RUNS);
const ppsOne = LARGE_PAGES / (largeOne.ms / 1000);
const ppsAll = LARGE_PAGES / (largeAll.ms / 1000);
add(`large PDF (${LARGE_PAGES} pages) end-to-end, 1 worker (best of ${RUNS}, after one unmeasured run)`, `${f1(largeOne.ms / 1000)} s, ${f1(ppsOne)} pages/s, ${largeOne.rows} rows`);
add(`large PDF end-to-end, ${CORES} workers (best of ${RUNS}, after one unmeasured run)`, `${f1(largeAll.ms / 1000)} s, ${f1(ppsAll)} pages/s, ${largeAll.rows} rows`);
add("scaling (all workers / 1 worker)", `${(ppsAll / ppsOne).toFixed(2)}x`);
add("peak RSS during one large job", `${f1(peakLarge)} MiB`);
const t8 = performance.now();
const { value: eight, peak: peakEight } = await withPeakRss(all.pid, () =>
  Promise.allSettled(Array.from({ length: 8 }, () => job(all, inputs.large, "large.pdf"))),
);
const eightS = (performance.now() - t8) / 1000;
const eightFailed = eight.filter((r) => r.status === "rejected").length;
add("8 concurrent large jobs", `${f1(eightS)} s for all, ${f1((8 * LARGE_PAGES) / eightS)} pages/s, ${eightFailed} failed`);
add("peak RSS with 8 concurrent large jobs", `${f1(peakEight)} MiB`);

const mediumMs = median(await sequential(3, () => job(all, inputs.medium, "medium.pdf")));
add("100-page PDF end-to-end (median of 3)", `${f1(mediumMs)} ms (${f1(mediumMs / 100)} ms/page)`);
add(`time per page, ${LARGE_PAGES} pages / 100 pages`, `${(largeAll.ms / LARGE_PAGES / (mediumMs / 100)).toFixed(2)}x`);
const xsMs = median(await sequential(3, () => job(all, inputs.xlsxSmall, "small.xlsx", XLSX_MIME)));
const xl = await job(all, inputs.xlsxLarge, "large.xlsx", XLSX_MIME);
add("XLSX 2,000 rows end-to-end (median of 3)", `${f1(xsMs)} ms`);
add("XLSX 20,000 rows end-to-end", `${f1(xl.ms)} ms, ${xl.rows} rows (${f1(xl.ms / xsMs)}x the 2,000-row time for 10x the rows)`);

for (const [c, n] of [[1, 200], [8, 400], [32, 640]] as const) {
  const r = await latency(all, c, n);
  add(`sync small PDF (2 pages), concurrency ${c}`, `p50 ${f1(r.p50)} ms, p95 ${f1(r.p95)} ms, p99 ${f1(r.p99)} ms, errors ${(r.errorRate * 100).toFixed(1)}% (n=${r.n})`);
  if (c === 32) add("p99 / p50 at concurrency 32 (goal: at most 10)", `${(r.p99 / r.p50).toFixed(2)}`);
}
await all.stop();

// The same large job with the other extractor, so one run compares them end to end.
const OTHER = EXTRACTOR === "pdfjs" ? "pdfium" : "pdfjs";
const other = await startServer(CORES, { PDF_EXTRACTOR: OTHER });
const { best: largeOther, peak: peakOther } = await measureLarge(other, RUNS);
await other.stop();
add(`large PDF end-to-end, ${CORES} workers, PDF_EXTRACTOR=${OTHER} (best of ${RUNS})`, `${f1(largeOther.ms / 1000)} s, ${f1(LARGE_PAGES / (largeOther.ms / 1000))} pages/s, ${largeOther.rows} rows, peak RSS ${f1(peakOther)} MiB`);
add(`end to end, ${EXTRACTOR} / ${OTHER} (${CORES} workers)`, `${(largeOther.ms / largeAll.ms).toFixed(2)}x`);

if (mutoolRuns.every((ms) => ms !== undefined)) {
  const mutoolMs = Math.min(...(mutoolRuns as number[]));
  const pps = LARGE_PAGES / (mutoolMs / 1000);
  add(`mutool draw -F stext, same large PDF (best of ${mutoolRuns.length}, each after one of ours)`, `${f1(mutoolMs / 1000)} s, ${f1(pps)} pages/s`);
  add(`ratio ours (${CORES} workers) / mutool (goal: at least 1)`, `${(ppsAll / pps).toFixed(2)}`);
  add("ratio ours (1 worker) / mutool", `${(ppsOne / pps).toFixed(2)}`);
} else add("mutool", "not installed or failed (apt-get install mupdf-tools)");
// pdfminer is far slower; it reads the first 200 pages of the same file, reported per page.
const MINER_PAGES = Math.min(200, LARGE_PAGES);
const minerMs = timeCommand(["pdf2txt", "-m", String(MINER_PAGES), "-o", "/dev/null", largePath]);
if (minerMs !== undefined) {
  const pps = MINER_PAGES / (minerMs / 1000);
  add(`pdfminer pdf2txt, first ${MINER_PAGES} pages of the large PDF`, `${f1(minerMs / 1000)} s, ${f1(pps)} pages/s`);
  add(`ratio ours (${CORES} workers) / pdfminer`, `${(ppsAll / pps).toFixed(2)}`);
} else add("pdfminer", "not installed or failed (apt-get install python3-pdfminer)");

// Issue 28's measures (bench/batch.ts): a batch of corpus statements and a 300-page statement, each against mutool.
if (Bun.which("mutool")) {
  const batch = await measureBatch();
  for (const [k, v] of batch.rows) add(k, v);
} else add("batch against mutool", "not measured: mutool not installed (apt-get install mupdf-tools)");

const md = [
  "# Bench results",
  "",
  `Run on ${new Date().toISOString()} by \`npm run bench\` (Bun ${Bun.version}, ${CORES} cores).`,
  "",
  "| measure | result |",
  "|---|---|",
  ...rows.map(([k, v]) => `| ${k} | ${v} |`),
  "",
  `Total bench time: ${f1((performance.now() - t0) / 1000)} s.`,
  "",
].join("\n");
writeFileSync(join(import.meta.dir, "results.md"), md);
console.log(md);
process.exit(0);
