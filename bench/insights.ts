/**
 * `bun bench/insights.ts`: what `?include=insights` adds to a large statement's parse, on a real
 * server (2 workers, the insights thread started warm as src/main.ts starts it). One 2,000-page
 * statement (bench/generate.ts), ROUNDS rounds, plain and with insights alternating (A B A B) so
 * the machine's load falls on both alike:
 *   (a) POST /v1/parse, plain against include=insights (the whole answer, timed by curl);
 *   (a) a job: POST /v1/parse/jobs to done plus the GET of its result, plain against a job created
 *       with include=insights;
 *   (b) GET /v1/parse/jobs/{id}/result?include=insights of a finished plain job: the first read
 *       (the insights are made) and the next ones (kept beside the result), against the plain GET.
 * Also, in this process, the insights alone, the insights thread's work on a kept JSON
 * (JSON.parse, insights, responseJson) and what the parse worker adds when insights are asked at
 * submit (src/output/insights-inline.ts against the plain responseJson it replaces).
 * The bar: each path adds at most 10% to the parse time (the plain parse's median).
 * Results go to docs/insights.md. Talks only to 127.0.0.1.
 */
import { analyse, withInsights } from "../src/engine/insights/index.ts";
import { responseJson } from "../src/engine/response-json.ts";
import { answerWithInsights } from "../src/output/insights-inline.ts";
import type { ParseResponse } from "../src/engine/types.ts";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { curlGet, curlPost, largeStatement, largeStatementPath, startBenchServer } from "./lib/loopback.ts";

const PAGES = Number(process.env.BENCH_LARGE_PAGES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Time for the server's insights warm-up (src/output/insights-pool.ts prewarmInsights) before measuring, ms. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 5000);

const form = (bytes: Uint8Array) => {
  const f = new FormData();
  f.set("pdf", new Blob([bytes as Uint8Array<ArrayBuffer>]), "large.pdf");
  return f;
};

let pid = 0;
/** The Server-Timing header's durations (ms) by name: `parse` and, within it, `answer` (writing the answer in the worker). */
const timings = (header: string | null): Record<string, number> =>
  Object.fromEntries((header ?? "").split(",").map((entry) => [entry.trim().split(";")[0] ?? "", Number(/dur=([\d.]+)/.exec(entry)?.[1] ?? NaN)]));

/**
 * One POST /v1/parse, timed by curl as the GETs are: the answer (59 MB with insights) goes to
 * /dev/null, so the time is the server's and the transfer's. Timed with fetch in this process, the
 * larger answer also cost this process 250-500 ms to read into memory (docs/insights.md, run 15),
 * which no server change could remove.
 */
function syncParse(url: string, key: string, insights: boolean): { ms: number; bytes: number; cpu: number; timing: Record<string, number> } {
  const c0 = cpuMs(pid);
  const res = curlPost(`${url}/v1/parse${insights ? "?include=insights" : ""}`, largeStatementPath(PAGES), "pdf", [`authorization: Bearer ${key}`]);
  if (res.status !== 200) throw new Error(`parse refused: ${res.status}`);
  return { ms: res.ms, bytes: res.bytes, cpu: cpuMs(pid) - c0, timing: timings(res.headers["server-timing"] ?? null) };
}

/** A job from submit to done, then its result read: { done: submit to done, total: with the GET }. */
async function job(url: string, key: string, bytes: Uint8Array, insights: boolean, after?: (resultUrl: string) => Promise<void>): Promise<{ id: string; done: number; total: number; cpu: number }> {
  const auth = { authorization: `Bearer ${key}` };
  const c0 = cpuMs(pid);
  const t0 = performance.now();
  const created = await fetch(`${url}/v1/parse/jobs${insights ? "?include=insights" : ""}`, { method: "POST", headers: auth, body: form(bytes) });
  if (created.status !== 202) throw new Error(`job refused: ${created.status} ${await created.text()}`);
  const { job_id } = (await created.json()) as { job_id: string };
  for (;;) {
    const snap = await snapshotState(`${url}/v1/parse/jobs/${job_id}`, auth);
    if (snap.state === "done") break;
    if (snap.state === "failed") throw new Error(`job failed: ${snap.head}`);
    await Bun.sleep(100);
  }
  const done = performance.now() - t0;
  await (await fetch(`${url}/v1/parse/jobs/${job_id}/result`, { headers: auth })).arrayBuffer();
  const total = performance.now() - t0;
  const cpu = cpuMs(pid) - c0;
  // Read now: the next job of this key's owner may push this one's result out (JOB_CACHE_OWNER_MAX_BYTES).
  await after?.(`${url}/v1/parse/jobs/${job_id}/result`);
  return { id: job_id, done, total, cpu };
}

/**
 * A job's state from the head of its snapshot: a done job's snapshot ends with its whole result
 * (59 MB with insights), which this process would otherwise read and JSON-parse on every poll's
 * last answer, timing its own work (more for the larger enriched answer) rather than the server's.
 */
async function snapshotState(url: string, headers: Record<string, string>): Promise<{ state: string; head: string }> {
  const res = await fetch(url, { headers });
  const reader = res.body!.getReader();
  let head = "";
  const decoder = new TextDecoder();
  while (head.length < 4096) {
    const { done, value } = await reader.read();
    if (done) break;
    head += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return { state: /"state":"(\w+)"/.exec(head)?.[1] ?? "", head: head.slice(0, 500) };
}

/** The server's process id, from the socket listening on its port. */
function serverPid(url: string): number {
  const port = new URL(url).port;
  const out = spawnSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" }).stdout;
  return Number(/pid=(\d+)/.exec(out)?.[1] ?? 0);
}
/** CPU time the server process (every thread: parse workers, insights thread, main) has used, ms. */
function cpuMs(pid: number): number {
  if (pid === 0) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of the line (11 and 12 after the command), in clock ticks (100 a second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const timed = (f: () => unknown): number => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};

const bytes = await largeStatement(PAGES);
const server = await startBenchServer("bench-insights");
try {
  await Bun.sleep(SETTLE_MS);
  pid = serverPid(server.url);
  const auth = [`authorization: Bearer ${server.key}`];
  const plainSync: number[] = [];
  const insightsSync: number[] = [];
  const plainJob: number[] = [];
  const insightsJob: number[] = [];
  const insightsJobDone: number[] = [];
  const plainJobDone: number[] = [];
  const plainGet: number[] = [];
  const firstGet: number[] = [];
  const laterGet: number[] = [];
  const analyseMs: number[] = [];
  const edgeMs: number[] = [];
  const inWorkerMs: number[] = [];
  const plainJsonMs: number[] = [];
  let sizes = { plain: 0, insights: 0 };
  /** From each sync parse's Server-Timing: the worker writing its answer, plain and with insights, and the plain parse. */
  const answers = { plain: [] as number[], insights: [] as number[], parse: [] as number[] };
  const cpu = { plainSync: [] as number[], insightsSync: [] as number[], plainJob: [] as number[], insightsJob: [] as number[], plainGet: [] as number[], firstGet: [] as number[], laterGet: [] as number[] };
  const cpuGet = (url: string, into: number[], wall: number[]) => {
    const c0 = cpuMs(pid);
    wall.push(curlGet(url, auth).ms);
    into.push(cpuMs(pid) - c0);
  };
  let kept = "";
  for (let i = 0; i < ROUNDS; i++) {
    // Alternating which goes first, so neither always runs right after the other.
    const pair = async <T>(f: (ins: boolean) => Promise<T>): Promise<[T, T]> => {
      if (i % 2 === 0) {
        const a = await f(false);
        return [a, await f(true)];
      }
      const b = await f(true);
      return [await f(false), b];
    };
    const [ps, is] = await pair(async (ins) => syncParse(server.url, server.key, ins));
    plainSync.push(ps.ms);
    insightsSync.push(is.ms);
    answers.plain.push(ps.timing.answer ?? NaN);
    answers.insights.push(is.timing.answer ?? NaN);
    answers.parse.push(ps.timing.parse ?? NaN);
    cpu.plainSync.push(ps.cpu);
    cpu.insightsSync.push(is.cpu);
    sizes = { plain: ps.bytes, insights: is.bytes };
    // (b) the plain job's result: plain, then with insights the first time (made), then again (kept).
    const reads = async (resultUrl: string) => {
      cpuGet(resultUrl, cpu.plainGet, plainGet);
      cpuGet(`${resultUrl}?include=insights`, cpu.firstGet, firstGet);
      cpuGet(`${resultUrl}?include=insights`, cpu.laterGet, laterGet);
      if (i === 0) kept = await (await fetch(resultUrl, { headers: { authorization: `Bearer ${server.key}` } })).text();
    };
    const [pj, ij] = await pair((ins) => job(server.url, server.key, bytes, ins, ins ? undefined : reads));
    plainJob.push(pj.total);
    cpu.plainJob.push(pj.cpu);
    cpu.insightsJob.push(ij.cpu);
    plainJobDone.push(pj.done);
    insightsJob.push(ij.total);
    insightsJobDone.push(ij.done);
  }
  const parsed = JSON.parse(kept) as ParseResponse;
  const rows = parsed.transactions.length;
  for (let k = 0; k < 3; k++) {
    analyseMs.push(timed(() => analyse(parsed)));
    edgeMs.push(timed(() => responseJson(withInsights(JSON.parse(kept) as ParseResponse) as unknown as ParseResponse)));
    // Alternating: the worker's plain answer, then its answer with insights, from the same objects.
    plainJsonMs.push(timed(() => responseJson(parsed)));
    inWorkerMs.push(timed(() => answerWithInsights(parsed, false)));
  }
  const parseMs = median(plainSync);
  const pct = (ms: number) => `${((ms / parseMs) * 100).toFixed(1)}%`;
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
  console.log(`statement: ${PAGES} pages, ${rows} rows; ${ROUNDS} rounds; parse (POST /v1/parse, 2 workers) median ${ms(parseMs)} [${list(plainSync)}]`);
  console.log(`(a) POST /v1/parse?include=insights median ${ms(median(insightsSync))} [${list(insightsSync)}] (${(sizes.insights / 1e6).toFixed(1)} MB against ${(sizes.plain / 1e6).toFixed(1)} MB): added ${ms(median(insightsSync) - parseMs)} = ${pct(median(insightsSync) - parseMs)}`);
  const stepAdded = median(answers.insights) - median(answers.plain);
  console.log(`(a) in the worker (Server-Timing), the answer written: plain median ${ms(median(answers.plain))} [${list(answers.plain)}], with insights ${ms(median(answers.insights))} [${list(answers.insights)}]: added ${ms(stepAdded)} = ${((stepAdded / median(answers.parse)) * 100).toFixed(1)}% of the plain parse's ${ms(median(answers.parse))} in the workers [${list(answers.parse)}]`);
  console.log(`(a) job to done + GET result: plain median ${ms(median(plainJob))} [${list(plainJob)}], include=insights median ${ms(median(insightsJob))} [${list(insightsJob)}]: added ${ms(median(insightsJob) - median(plainJob))} = ${pct(median(insightsJob) - median(plainJob))} (to done: ${ms(median(plainJobDone))} / ${ms(median(insightsJobDone))})`);
  console.log(`(b) GET result: plain median ${ms(median(plainGet))} [${list(plainGet)}]; include=insights first read median ${ms(median(firstGet))} [${list(firstGet)}] added ${ms(median(firstGet) - median(plainGet))} = ${pct(median(firstGet) - median(plainGet))}; later reads median ${ms(median(laterGet))} [${list(laterGet)}] added ${pct(median(laterGet) - median(plainGet))}`);
  const c = (xs: number[]) => `${ms(median(xs))} [${list(xs)}]`;
  console.log(`server CPU (all threads; insensitive to other load): parse ${c(cpu.plainSync)}, with insights ${c(cpu.insightsSync)}, added ${ms(median(cpu.insightsSync) - median(cpu.plainSync))}`);
  console.log(`  job + GET: plain ${c(cpu.plainJob)}, with insights ${c(cpu.insightsJob)}, added ${ms(median(cpu.insightsJob) - median(cpu.plainJob))}`);
  console.log(`  GET result: plain ${c(cpu.plainGet)}, include=insights first ${c(cpu.firstGet)}, later ${c(cpu.laterGet)}`);
  console.log(`in process: insights alone [${list(analyseMs)}] ms; edge (JSON.parse + insights + responseJson) [${list(edgeMs)}] ms`);
  console.log(`in process, the parse worker's last step: plain responseJson [${list(plainJsonMs)}] ms, with insights (answerWithInsights) [${list(inWorkerMs)}] ms, added median ${ms(median(inWorkerMs) - median(plainJsonMs))}`);
} finally {
  await server.stop();
}
