/**
 * `bun bench/client-read.ts`: how long the typed client takes to read a large job result, against
 * curl reading the same bytes from the same server. One 2,000-page statement (bench/generate.ts)
 * is parsed once as a job; its finished SSE stream (replayed to each new reader) and its result
 * endpoint are then read alternately by curl and by the client, best and median of ROUNDS each.
 *
 * BENCH_SSE_MODULE=path/to/sse.ts measures another SSE reader (e.g. an older src/client/sse.ts)
 * in place of the client's own, for before/after numbers. Talks only to 127.0.0.1.
 */
import { resolve } from "node:path";
import { createClient } from "../src/client/index.ts";
import type { SseMessage } from "../src/client/sse.ts";
import { curlGet, largeStatement, startBenchServer } from "./lib/loopback.ts";

const PAGES = Number(process.env.BENCH_LARGE_PAGES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

type ReadSse = (body: ReadableStream<Uint8Array>) => AsyncGenerator<SseMessage>;
const sseModule = process.env.BENCH_SSE_MODULE ? resolve(process.env.BENCH_SSE_MODULE) : "../src/client/sse.ts";
const { readSse } = (await import(sseModule)) as { readSse: ReadSse };


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

const bytes = await largeStatement(PAGES);
const server = await startBenchServer("bench-client-read");
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
    const c = curlGet(stream);
    streamBytes = c.bytes;
    runs.curlStream.push(c.ms);
    runs.drain.push(await drain(stream));
    const s = await clientStream(stream);
    rows = s.rows;
    runs.clientStreamRead.push(s.readMs);
    runs.clientStream.push(s.ms);
    runs.curlResult.push(curlGet(result, [auth]).ms);
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
