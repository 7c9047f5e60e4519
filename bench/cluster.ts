/**
 * `npm run bench:cluster` (issue 18): the same job load on this machine three ways —
 * 1 instance × 2 workers with jobs in process (today's default), 1 instance × 2 workers on Redis,
 * and 2 instances × 1 worker on Redis (jobs submitted round robin) — for small and large
 * statements. Prints a Markdown table (and writes bench/out/cluster.md). Needs the local
 * PostgreSQL and Redis (as the tests do); uses a scratch database and its own Redis key prefix,
 * both removed at the end. Sizes: BENCH_CLUSTER_SMALL_JOBS, BENCH_CLUSTER_LARGE_JOBS,
 * BENCH_CLUSTER_LARGE_PAGES. Every wait is bounded; only 127.0.0.1 is contacted.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { type ChildServer, childTestKey, startChildServer } from "../test/helpers/child-server.ts";
import { createScratchDb } from "../test/helpers/postgres-server.ts";
import { dropPrefix, REDIS_URL, uniquePrefix } from "../test/cluster/support.ts";
import { statementPdf } from "./generate.ts";

const SMALL_JOBS = Number(process.env.BENCH_CLUSTER_SMALL_JOBS ?? 60);
const LARGE_JOBS = Number(process.env.BENCH_CLUSTER_LARGE_JOBS ?? 6);
const LARGE_PAGES = Number(process.env.BENCH_CLUSTER_LARGE_PAGES ?? 500);
/** A job not done within this is an error, never a hang. */
const JOB_TIMEOUT_MS = 300_000;

interface Setup {
  name: string;
  instances: number;
  workers: number;
  redis: boolean;
}
const SETUPS: Setup[] = [
  { name: "1 instance × 2 workers, jobs in process", instances: 1, workers: 2, redis: false },
  { name: "1 instance × 2 workers, jobs on Redis", instances: 1, workers: 2, redis: true },
  { name: "2 instances × 1 worker, jobs on Redis", instances: 2, workers: 1, redis: true },
];

async function runJob(server: ChildServer, key: string, pdf: Uint8Array): Promise<number> {
  const started = performance.now();
  const body = new FormData();
  body.set("pdf", new Blob([pdf as Uint8Array<ArrayBuffer>]), "statement.pdf");
  const res = await server.fetch("/v1/parse/jobs", { method: "POST", headers: { authorization: `Bearer ${key}` }, body });
  if (res.status !== 202) throw new Error(`submit: ${res.status} ${await res.text()}`);
  const { job_id } = (await res.json()) as { job_id: string };
  const deadline = Date.now() + JOB_TIMEOUT_MS;
  for (;;) {
    const s = (await (await server.fetch(`/v1/parse/jobs/${job_id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { state: string; error_class?: string };
    if (s.state === "done") return performance.now() - started;
    if (s.state === "failed") throw new Error(`job failed: ${s.error_class}`);
    if (Date.now() > deadline) throw new Error("job timed out");
    await Bun.sleep(20);
  }
}

/** All `count` jobs submitted at once, spread round robin over the instances. */
async function load(servers: ChildServer[], key: string, pdf: Uint8Array, count: number): Promise<{ wallS: number; p50: number; p95: number }> {
  const t = performance.now();
  const times = await Promise.all(Array.from({ length: count }, (_, i) => runJob(servers[i % servers.length]!, key, pdf)));
  const wallS = (performance.now() - t) / 1000;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { wallS, p50: at(0.5), p95: at(0.95) };
}

const [small, large] = await Promise.all([statementPdf(2), statementPdf(LARGE_PAGES)]);
const scratch = await createScratchDb("stp_bench_cluster");
const rows: string[] = [];
try {
  for (const setup of SETUPS) {
    const prefix = uniquePrefix("bench");
    const env: Record<string, string> = {
      DATABASE_URL: scratch.url,
      WORKERS: String(setup.workers),
      TEST_MONTHLY_CAP: "1000000",
      MAX_INFLIGHT_PER_KEY: "1000",
      MAX_QUEUED_JOBS: "1000",
      // startChildServer waits for the "listening" line (info).
      LOG_LEVEL: "info",
      ...(setup.redis ? { REDIS_URL, REDIS_PREFIX: prefix } : {}),
    };
    console.error(`${setup.name}: starting`);
    const servers = await Promise.all(Array.from({ length: setup.instances }, () => startChildServer(env)));
    try {
      const key = await childTestKey(servers[0]!, `bench-${Date.now()}`);
      // Engines warm on every instance before anything is measured.
      await load(servers, key, small, servers.length * setup.workers * 2);
      console.error(`${setup.name}: warm`);
      const s = await load(servers, key, small, SMALL_JOBS);
      const l = await load(servers, key, large, LARGE_JOBS);
      rows.push(
        `| ${setup.name} | ${(SMALL_JOBS / s.wallS).toFixed(1)} jobs/s (p50 ${s.p50.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms) | ` +
          `${((LARGE_JOBS * LARGE_PAGES) / l.wallS).toFixed(0)} pages/s, ${l.wallS.toFixed(1)} s for all (p50 ${(l.p50 / 1000).toFixed(1)} s) |`,
      );
      console.error(rows.at(-1));
    } finally {
      for (const s of servers) await s.stop();
      if (setup.redis) await dropPrefix(prefix);
    }
  }
} finally {
  await scratch.drop();
}

const table = [
  `Cluster bench, ${new Date().toISOString()}, ${cpus().length} cores, Bun ${Bun.version}: ${SMALL_JOBS} small (2-page) jobs at once, then ${LARGE_JOBS} large (${LARGE_PAGES}-page) jobs at once, polled to the end.`,
  "",
  "| setup | small statements | large statements |",
  "|---|---|---|",
  ...rows,
].join("\n");
mkdirSync(join(import.meta.dir, "out"), { recursive: true });
writeFileSync(join(import.meta.dir, "out", "cluster.md"), `${table}\n`);
console.log(table);
