/**
 * `bun bench/batch.ts` (also run by `npm run bench`): issue 28's throughput on what users mostly
 * send, against MuPDF on the same files in the same run.
 *
 *   - **Batch**: a mixed batch of corpus statements (bench/lib/corpus.ts: every multi-page text
 *     PDF in fixtures/, every 4th one-page one, and one 30-page bench statement) POSTed to
 *     `POST /v1/parse` at concurrency 4 against a real server on 127.0.0.1 (2 workers, PGlite),
 *     against `mutool draw -q -F stext -o /dev/null` over the same files two processes at a time
 *     (`xargs -P2`). The first batch on the fresh server is reported alone (cold); then
 *     BENCH_BATCH_ROUNDS rounds, each ours then mutool's, so both see the same moments of a
 *     shared machine; medians and their ratio (ours / mutool throughput; goal at least 1).
 *   - **Large document**: a BENCH_BATCH_LARGE_PAGES-page (300) bench statement as a job (SSE
 *     until its result) on a fresh server, three runs, the first cold, each followed by mutool on
 *     the same file; median of the three against mutool's median (0: not measured).
 *
 * Also the server's CPU time per batch by kind of thread (from /proc), and mutool's CPU time
 * against it: both move far less than the wall clock when other work shares the machine. Every
 * loop is bounded; it talks only to 127.0.0.1.
 */
import { batchFiles, type BatchFile } from "./lib/corpus.ts";
import { largeStatement, largeStatementPath, runJob, startBenchServer, threadCpuMs, type BenchServer } from "./lib/loopback.ts";
import { ensureMutool, mutoolBatch } from "./lib/mutool.ts";

const CONCURRENCY = 4;
const MUTOOL_PARALLEL = 2;
const ROUNDS = Number(process.env.BENCH_BATCH_ROUNDS ?? 5);
const LARGE_PAGES = Number(process.env.BENCH_BATCH_LARGE_PAGES ?? 300);
const LARGE_RUNS = 3;
/** One request may take this long before it counts as failed (a stuck server is an error, never a hang). */
const REQUEST_TIMEOUT_MS = 60_000;
const SERVER_ENV = { MAX_INFLIGHT_PER_KEY: "64", MAX_QUEUED_JOBS: "256", TEST_MONTHLY_CAP: "100000000" };

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

type ThreadCpu = ReturnType<typeof threadCpuMs>;

interface BatchRun {
  ms: number;
  /** Server CPU time during the batch (user + system, every thread). */
  cpuMs: number;
  /** The same by kind of thread. */
  threads: ThreadCpu;
  /** Responses other than 200 with rows, by "status error_class". */
  failures: Map<string, number>;
}

/** POSTs every file to /v1/parse, CONCURRENCY at a time, each request taking the next file. */
async function ourBatch(server: BenchServer, files: readonly BatchFile[]): Promise<BatchRun> {
  const failures = new Map<string, number>();
  let next = 0;
  const cpu0 = threadCpuMs(server.pid);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < files.length; i = next++) {
        const file = files[i]!;
        const body = new FormData();
        body.append("pdf", new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), file.name);
        let why: string | undefined;
        try {
          const res = await fetch(`${server.url}/v1/parse`, { method: "POST", headers: { authorization: `Bearer ${server.key}` }, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
          const text = await res.text();
          // A 200 must carry the statement's rows, not merely a status.
          if (res.status !== 200 || !text.includes('"transactions":[')) why = `${res.status} ${/"error_class":"([^"]+)"/.exec(text)?.[1] ?? ""}`.trim();
        } catch (e) {
          why = String(e);
        }
        if (why) failures.set(`${file.name}: ${why}`, (failures.get(`${file.name}: ${why}`) ?? 0) + 1);
      }
    }),
  );
  const ms = performance.now() - start;
  const cpu1 = threadCpuMs(server.pid);
  const threads = Object.fromEntries(Object.entries(cpu1).map(([k, v]) => [k, v - cpu0[k as keyof ThreadCpu]])) as ThreadCpu;
  return { ms, cpuMs: Object.values(threads).reduce((a, b) => a + b, 0), threads, failures };
}

export interface BatchReport {
  rows: [string, string][];
  /** Ours / mutool throughput at the medians. */
  batchRatio: number;
  largeRatio: number;
}

/** Runs both measures; rows for a results table. */
export async function measureBatch(log: (k: string, v: string) => void = () => {}): Promise<BatchReport> {
  if (!ensureMutool()) throw new Error("mutool is not installed");
  const rows: [string, string][] = [];
  const add = (k: string, v: string) => {
    rows.push([k, v]);
    log(k, v);
  };
  const files = await batchFiles();
  const pages = files.reduce((n, f) => n + f.pages, 0);
  const paths = files.map((f) => f.path);
  const counts = [...new Set(files.map((f) => f.pages))].sort((a, b) => a - b);
  add("batch", `${files.length} documents, ${pages} pages (${counts[0]}–${counts.at(-1)} pages each), concurrency ${CONCURRENCY}; mutool -P${MUTOOL_PARALLEL}`);

  const server = await startBenchServer("bench-batch", SERVER_ENV);
  let ours: BatchRun[] = [];
  const theirs: { ms: number; cpuMs: number }[] = [];
  try {
    const cold = await ourBatch(server, files);
    add("batch, ours, first on a fresh server (cold)", `${f1(cold.ms)} ms, server CPU ${f1(cold.cpuMs)} ms, failed ${[...cold.failures.values()].reduce((a, b) => a + b, 0)}`);
    for (const [what, n] of cold.failures) console.error(`  failed: ${what} (x${n})`);
    for (let r = 0; r < ROUNDS; r++) {
      ours.push(await ourBatch(server, files));
      theirs.push(mutoolBatch(paths, MUTOOL_PARALLEL));
    }
  } finally {
    await server.stop();
  }
  const failed = ours.reduce((n, r) => n + [...r.failures.values()].reduce((a, b) => a + b, 0), 0);
  const oursMs = median(ours.map((r) => r.ms));
  const theirMs = median(theirs.map((r) => r.ms));
  add(`batch, ours, warm (median of ${ROUNDS})`, `${f1(oursMs)} ms (runs ${ours.map((r) => Math.round(r.ms)).join(", ")}), ${f1(pages / (oursMs / 1000))} pages/s, ${f1(files.length / (oursMs / 1000))} documents/s, failed ${failed}`);
  const cpu = median(ours.map((r) => r.cpuMs));
  const byKind = (Object.keys(ours[0]!.threads) as (keyof ThreadCpu)[]).map((k) => `${k} ${Math.round(median(ours.map((r) => r.threads[k])))}`).join(", ");
  add(`batch, server CPU time (median of ${ROUNDS})`, `${f1(cpu)} ms, ${f2(cpu / files.length)} ms a document (by thread, ms: ${byKind})`);
  add(`batch, mutool -P${MUTOOL_PARALLEL} (median of ${ROUNDS}, each after one of ours)`, `${f1(theirMs)} ms (runs ${theirs.map((r) => Math.round(r.ms)).join(", ")}), CPU ${f1(median(theirs.map((r) => r.cpuMs)))} ms`);
  const batchRatio = theirMs / oursMs;
  add("batch ratio, ours / mutool throughput (goal: at least 1)", `${f2(batchRatio)} (per round: ${ours.map((r, i) => f2(theirs[i]!.ms / r.ms)).join(", ")})`);
  // CPU time moves far less than the wall clock when other work shares the machine.
  add("batch CPU ratio, mutool's CPU time / the server's (steadier on a shared machine)", f2(median(theirs.map((r) => r.cpuMs)) / cpu));
  ours = [];
  if (LARGE_PAGES <= 0) return { rows, batchRatio, largeRatio: Number.NaN };

  const large = await largeStatement(LARGE_PAGES);
  const largePath = largeStatementPath(LARGE_PAGES);
  const fresh = await startBenchServer("bench-batch-large", SERVER_ENV);
  const jobs: { ms: number; rows: number }[] = [];
  const mutool: number[] = [];
  try {
    for (let r = 0; r < LARGE_RUNS; r++) {
      jobs.push(await runJob(fresh, large, "large.pdf"));
      mutool.push(mutoolBatch([largePath], 1).ms);
    }
  } finally {
    await fresh.stop();
  }
  const jobMs = median(jobs.map((j) => j.ms));
  const mutoolMs = median(mutool);
  add(`large statement (${LARGE_PAGES} pages, ${jobs[0]!.rows} rows) as a job, fresh server (median of ${LARGE_RUNS}, the first cold)`, `${f1(jobMs)} ms (runs ${jobs.map((j) => Math.round(j.ms)).join(", ")})`);
  add(`large statement, mutool (median of ${LARGE_RUNS}, each after one of ours)`, `${f1(mutoolMs)} ms (runs ${mutool.map(Math.round).join(", ")})`);
  const largeRatio = mutoolMs / jobMs;
  add("large statement ratio, ours / mutool throughput (goal: 1.5)", f2(largeRatio));
  return { rows, batchRatio, largeRatio };
}

if (import.meta.main) {
  const t0 = performance.now();
  const { rows } = await measureBatch((k, v) => console.error(`${k}: ${v}`));
  console.log(["| measure | result |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${v} |`), "", `Run on ${new Date().toISOString()} (Bun ${Bun.version}), ${f1((performance.now() - t0) / 1000)} s.`].join("\n"));
  process.exit(0);
}
