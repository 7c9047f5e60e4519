/**
 * `bun bench/client-read.ts`: how long the typed client takes to read a large job result, against
 * curl reading the same bytes from the same server. One 2,000-page statement (bench/generate.ts)
 * is parsed once as a job; its finished SSE stream (replayed to each new reader) and its result
 * endpoint are then read alternately by curl and by the client, best and median of ROUNDS each.
 *
 * BENCH_SSE_MODULE=path/to/sse.ts measures another SSE reader (e.g. an older src/client/sse.ts)
 * in place of the client's own, for before/after numbers. Talks only to 127.0.0.1.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createClient } from "../src/client/index.ts";
import type { SseMessage } from "../src/client/sse.ts";
import { statementPdf } from "./generate.ts";

const PAGES = Number(process.env.BENCH_LARGE_PAGES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ADMIN = "bench-admin-token-0123456789abcdef";
const OUT = join(import.meta.dir, "out");

type ReadSse = (body: ReadableStream<Uint8Array>) => AsyncGenerator<SseMessage>;
const sseModule = process.env.BENCH_SSE_MODULE ? resolve(process.env.BENCH_SSE_MODULE) : "../src/client/sse.ts";
const { readSse } = (await import(sseModule)) as { readSse: ReadSse };

async function input(): Promise<Uint8Array> {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `client-read-${PAGES}.pdf`);
  if (!existsSync(file)) writeFileSync(file, await statementPdf(PAGES));
  return new Uint8Array(readFileSync(file));
}

async function startServer(): Promise<{ url: string; key: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-client-read-"));
  const port = 40000 + Math.floor(Math.random() * 20000);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", "src", "main.ts")], {
    env: {
      ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_TOKEN: ADMIN, WORKERS: "2", LOG_LEVEL: "error",
      TEST_MONTHLY_CAP: "100000", MAX_PAGES: "10000", PARSE_TIMEOUT_MS: "600000", DATABASE_URL: "",
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${url}/readyz`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline || proc.exitCode !== null) {
      proc.kill("SIGKILL");
      const why = await fetch(`${url}/readyz`).then((r) => r.text(), (e: unknown) => String(e));
      throw new Error(`server did not become ready: ${why}`);
    }
    await Bun.sleep(200);
  }
  const res = await fetch(`${url}/v1/keys/test`, { method: "POST", headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" }, body: JSON.stringify({ owner: "bench-client-read" }) });
  if (!res.ok) throw new Error(`could not issue a key: ${res.status} ${await res.text()}`);
  const { key } = (await res.json()) as { key: string };
  return {
    url, key,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** curl's own total time and byte count for one GET (its process start is not counted). */
function curl(url: string, headers: string[] = []): { ms: number; bytes: number } {
  const r = spawnSync("curl", ["-sS", "-N", "-o", "/dev/null", "-w", "%{time_total} %{size_download}", ...headers.flatMap((h) => ["-H", h]), url], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`curl failed: ${r.stderr}`);
  const [seconds, bytes] = r.stdout.trim().split(" ").map(Number);
  return { ms: (seconds ?? 0) * 1000, bytes: bytes ?? 0 };
}

/** The client's stream reading: every SSE message, the result event's JSON parsed as parseJob does. */
async function clientStream(url: string): Promise<{ ms: number; readMs: number; rows: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { accept: "text/event-stream" } });
  if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
  let data = "";
  for await (const m of readSse(res.body)) if (m.event === "result") data = m.data;
  const readMs = performance.now() - t0;
  const rows = (JSON.parse(data) as { transactions: unknown[] }).transactions.length;
  return { ms: performance.now() - t0, readMs, rows };
}

/** fetch alone: the stream's bytes read and dropped, the floor under any reader in this runtime. */
async function drain(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { accept: "text/event-stream" } });
  const reader = res.body?.getReader();
  if (!reader) throw new Error("no body");
  while (!(await reader.read()).done);
  return performance.now() - t0;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { best: s[0] ?? 0, median: s[Math.floor(s.length / 2)] ?? 0 };
};
const fmt = (xs: number[]) => {
  const { best, median } = stats(xs);
  return `best ${best.toFixed(0)} ms, median ${median.toFixed(0)} ms`;
};

const bytes = await input();
const server = await startServer();
try {
  const client = createClient({ baseUrl: server.url, apiKey: server.key, jobTimeoutMs: 600_000 });
  const t0 = performance.now();
  let jobId = "";
  let streamUrl = "";
  for await (const ev of client.parseJob(bytes, { filename: "large.pdf" })) {
    if (ev.type === "created") ({ jobId, streamUrl } = ev);
    if (ev.type === "result") console.error(`parsed ${PAGES} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const stream = new URL(streamUrl, server.url).toString();
  const result = `${server.url}/v1/parse/jobs/${jobId}/result`;
  const auth = `authorization: Bearer ${server.key}`;

  const runs = { curlStream: [] as number[], drain: [] as number[], clientStreamRead: [] as number[], clientStream: [] as number[], curlResult: [] as number[], clientResult: [] as number[] };
  let streamBytes = 0;
  let rows = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const c = curl(stream);
    streamBytes = c.bytes;
    runs.curlStream.push(c.ms);
    runs.drain.push(await drain(stream));
    const s = await clientStream(stream);
    rows = s.rows;
    runs.clientStreamRead.push(s.readMs);
    runs.clientStream.push(s.ms);
    runs.curlResult.push(curl(result, [auth]).ms);
    const r0 = performance.now();
    await client.result(jobId);
    runs.clientResult.push(performance.now() - r0);
  }
  const ratio = (a: number[], b: number[]) => (stats(a).median / stats(b).median).toFixed(2);
  const lines = [
    `SSE reader: ${process.env.BENCH_SSE_MODULE ?? "src/client/sse.ts"}; ${PAGES} pages, ${rows} rows, stream ${(streamBytes / 1e6).toFixed(1)} MB; ${ROUNDS} rounds (Bun ${Bun.version})`,
    `curl, SSE stream:                       ${fmt(runs.curlStream)}`,
    `fetch alone, SSE stream bytes dropped:  ${fmt(runs.drain)}  (${ratio(runs.drain, runs.curlStream)}x curl)`,
    `client, SSE stream (messages read):     ${fmt(runs.clientStreamRead)}  (${ratio(runs.clientStreamRead, runs.curlStream)}x curl)`,
    `client, SSE stream + JSON.parse:        ${fmt(runs.clientStream)}  (${ratio(runs.clientStream, runs.curlStream)}x curl)`,
    `curl, GET result:                       ${fmt(runs.curlResult)}`,
    `client.result() (with JSON.parse):      ${fmt(runs.clientResult)}  (${ratio(runs.clientResult, runs.curlResult)}x curl)`,
  ];
  console.log(lines.join("\n"));
} finally {
  await server.stop();
}
