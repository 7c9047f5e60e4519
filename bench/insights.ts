/**
 * `bun bench/insights.ts`: what `?include=insights` adds to a large statement's parse. One
 * 2,000-page statement (bench/generate.ts) is parsed once as a job by a real server (2 workers);
 * then, on the job's kept JSON:
 *   - the insights alone (src/engine/insights: enrich every row, every insight), in this process;
 *   - what the HTTP edge does for include=insights (JSON.parse, insights, responseJson), in this process;
 *   - GET /v1/parse/jobs/{id}/result with and without include=insights, over loopback (curl).
 * Each is run ROUNDS times (best and median). The bar: insights add at most 10% to the
 * parse time. Results go to docs/insights.md. Talks only to 127.0.0.1.
 */
import { analyse, withInsights } from "../src/engine/insights/index.ts";
import { responseJson } from "../src/engine/response-json.ts";
import type { ParseResponse } from "../src/engine/types.ts";
import { curlGet, largeStatement, startBenchServer } from "./lib/loopback.ts";

const PAGES = Number(process.env.BENCH_LARGE_PAGES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
async function parseJob(url: string, key: string, bytes: Uint8Array): Promise<{ id: string; ms: number }> {
  const form = new FormData();
  form.set("pdf", new Blob([bytes as Uint8Array<ArrayBuffer>]), "large.pdf");
  const t0 = performance.now();
  const created = await fetch(`${url}/v1/parse/jobs`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
  if (created.status !== 202) throw new Error(`job refused: ${created.status} ${await created.text()}`);
  const { job_id } = (await created.json()) as { job_id: string };
  for (;;) {
    const snap = (await (await fetch(`${url}/v1/parse/jobs/${job_id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { state: string; error?: string };
    if (snap.state === "done") return { id: job_id, ms: performance.now() - t0 };
    if (snap.state === "failed") throw new Error(`job failed: ${snap.error}`);
    await Bun.sleep(250);
  }
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { first: xs[0] ?? 0, best: s[0] ?? 0, median: s[Math.floor(s.length / 2)] ?? 0 };
};
const timed = (f: () => unknown): number => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};

const bytes = await largeStatement(PAGES);
const server = await startBenchServer("bench-insights");
try {
  const { id, ms: parseMs } = await parseJob(server.url, server.key, bytes);
  const resultUrl = `${server.url}/v1/parse/jobs/${id}/result`;
  const json = await (await fetch(resultUrl, { headers: { authorization: `Bearer ${server.key}` } })).text();
  const parsed = JSON.parse(json) as ParseResponse;
  const rows = parsed.transactions.length;
  const analyseMs: number[] = [];
  const edgeMs: number[] = [];
  const plainGet: number[] = [];
  const insightsGet: number[] = [];
  let sizes = { plain: 0, insights: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    analyseMs.push(timed(() => analyse(parsed)));
    edgeMs.push(timed(() => responseJson(withInsights(JSON.parse(json) as ParseResponse) as unknown as ParseResponse)));
    const p = curlGet(resultUrl, [`authorization: Bearer ${server.key}`]);
    const q = curlGet(`${resultUrl}?include=insights`, [`authorization: Bearer ${server.key}`]);
    plainGet.push(p.ms);
    insightsGet.push(q.ms);
    sizes = { plain: p.bytes, insights: q.bytes };
  }
  const a = stats(analyseMs);
  const e = stats(edgeMs);
  const g = stats(plainGet);
  const h = stats(insightsGet);
  const pct = (ms: number) => `${((ms / parseMs) * 100).toFixed(1)}%`;
  console.log(`statement: ${PAGES} pages, ${rows} rows; parse (job submitted to done, 2 workers): ${(parseMs / 1000).toFixed(1)} s`);
  const line = (x: { first: number; best: number; median: number }) =>
    `cold ${x.first.toFixed(0)} ms (${pct(x.first)}), best ${x.best.toFixed(0)} ms (${pct(x.best)}), median ${x.median.toFixed(0)} ms (${pct(x.median)}) of the parse`;
  console.log(`insights alone (enrich + every insight): ${line(a)}`);
  console.log(`HTTP edge (JSON.parse + insights + responseJson): ${line(e)}`);
  console.log(`GET result: plain median ${g.median.toFixed(0)} ms (${(sizes.plain / 1e6).toFixed(1)} MB); include=insights median ${h.median.toFixed(0)} ms (${(sizes.insights / 1e6).toFixed(1)} MB); added ${(h.median - g.median).toFixed(0)} ms = ${pct(h.median - g.median)} of the parse`);
} finally {
  await server.stop();
}
