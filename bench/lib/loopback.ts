/**
 * What the loopback benches share (bench/client-read.ts, bench/insights.ts): the large bench
 * statement made once and cached under bench/out, a real server started on 127.0.0.1 with its own
 * throwaway data directory and a test key, and curl's own timing of one GET.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { statementPdf } from "../generate.ts";

const ADMIN = "bench-admin-token-0123456789abcdef";
const OUT = join(import.meta.dir, "..", "out");

export interface BenchServer {
  url: string;
  key: string;
  /** The server process (its CPU time and RSS are read from /proc). */
  pid: number;
  stop(): Promise<void>;
}

/** Where largeStatement(pages) keeps its file (for tools that read it from disk, e.g. mutool). */
export const largeStatementPath = (pages: number): string => join(OUT, `client-read-${pages}.pdf`);

/** The `pages`-page bench statement, made once and reused from bench/out. */
export async function largeStatement(pages: number): Promise<Uint8Array> {
  mkdirSync(OUT, { recursive: true });
  const file = largeStatementPath(pages);
  if (!existsSync(file)) writeFileSync(file, await statementPdf(pages));
  return new Uint8Array(readFileSync(file));
}

/** A server with 2 workers (or env.WORKERS) on the embedded database (no Redis), ready, with a test key of `owner`. */
export async function startBenchServer(owner: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `${owner}-`));
  const port = 40000 + Math.floor(Math.random() * 20000);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", "..", "src", "main.ts")], {
    env: {
      ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_TOKEN: ADMIN, WORKERS: "2", LOG_LEVEL: "error",
      TEST_MONTHLY_CAP: "100000", MAX_PAGES: "10000", PARSE_TIMEOUT_MS: "900000", DATABASE_URL: "", REDIS_URL: "", ...env,
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
  const res = await fetch(`${url}/v1/keys/test`, { method: "POST", headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" }, body: JSON.stringify({ owner }) });
  if (!res.ok) throw new Error(`could not issue a key: ${res.status} ${await res.text()}`);
  const { key } = (await res.json()) as { key: string };
  return {
    url,
    key,
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** curl's own total time and byte count for one GET (its process start is not counted; -N: no buffering, for streams). */
export function curlGet(url: string, headers: string[] = []): { ms: number; bytes: number } {
  const r = spawnSync("curl", ["-sS", "-N", "-o", "/dev/null", "-w", "%{time_total} %{size_download}", ...headers.flatMap((h) => ["-H", h]), url], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`curl failed: ${r.stderr}`);
  const [seconds, bytes] = r.stdout.trim().split(" ").map(Number);
  return { ms: (seconds ?? 0) * 1000, bytes: bytes ?? 0 };
}

/**
 * curl's own total time for one multipart POST of `file` as the form field `field`, its status,
 * byte count and response headers (lower-cased names). The body goes to /dev/null, so what is timed
 * is the server's work and the transfer, not this process reading a large answer into memory.
 */
export function curlPost(url: string, file: string, field: string, headers: string[] = []): { ms: number; bytes: number; status: number; headers: Record<string, string> } {
  const r = spawnSync("curl", ["-sS", "-o", "/dev/null", "-D", "-", "-w", "\n%{time_total} %{size_download} %{http_code}", "-F", `${field}=@${file}`, ...headers.flatMap((h) => ["-H", h]), url], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`curl failed: ${r.stderr}`);
  const lines = r.stdout.trim().split(/\r?\n/);
  const [seconds, bytes, status] = (lines.pop() ?? "").split(" ").map(Number);
  const head: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) head[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { ms: (seconds ?? 0) * 1000, bytes: bytes ?? 0, status: status ?? 0, headers: head };
}

/** utime + stime of a /proc stat line, ms (clock ticks of 10 ms). */
function statCpuMs(stat: string): number {
  // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time (user + system) a process has used so far, ms, from /proc. */
export function cpuMs(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, "utf8"));
}

/**
 * CPU time so far of a process's threads, ms, by kind: `main` (the HTTP server, the database
 * when it is PGlite), `workers` (the parse workers), `jit` (JavaScriptCore's compiler threads),
 * `gc` (its collector's helpers) and `other`. Threads that ended are not counted.
 */
export function threadCpuMs(pid: number): Record<"main" | "workers" | "jit" | "gc" | "other", number> {
  const out = { main: 0, workers: 0, jit: 0, gc: 0, other: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const kind = tid === String(pid) ? "main" : name.startsWith("Worker") ? "workers" : /JIT|WarmUp/i.test(name) ? "jit" : /Heap|Helper|GC|scavenger/i.test(name) ? "gc" : "other";
    out[kind] += statCpuMs(stat);
  }
  return out;
}

/**
 * One job end to end: create it, read its SSE stream until the `result` event, parse the result.
 * The stream ends right after `result`, so the text is searched once at the end (searching a
 * growing buffer on every chunk would cost the client more than the server's JSON work).
 */
export async function runJob(server: Pick<BenchServer, "url" | "key">, bytes: Uint8Array, name: string, timeoutMs = 240_000, type = "application/pdf"): Promise<{ ms: number; rows: number }> {
  const start = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const body = new FormData();
  body.append("pdf", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
  const res = await fetch(`${server.url}/v1/parse/jobs`, { method: "POST", headers: { authorization: `Bearer ${server.key}` }, body, signal });
  if (res.status !== 202) throw new Error(`job create ${res.status}: ${await res.text()}`);
  const { stream_url } = (await res.json()) as { stream_url: string };
  const stream = await fetch(new URL(stream_url, server.url), { signal });
  if (!stream.ok || !stream.body) throw new Error(`stream ${stream.status}`);
  const reader = stream.body.getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(decoder.decode(value, { stream: true }));
  }
  const text = chunks.join("") + decoder.decode();
  // At a line start: JSON data never holds a raw line break, so this cannot match inside one.
  const at = text.lastIndexOf("\nevent: result\n");
  if (at < 0) throw new Error(`stream ended without a result: ${text.slice(-300)}`);
  const end = text.indexOf("\n\n", at);
  const data = text
    .slice(at, end < 0 ? undefined : end)
    .split("\n")
    .filter((l) => l.startsWith("data:"))
    .map((l) => l.slice(5).trimStart())
    .join("\n");
  const parsed = JSON.parse(data) as { transactions?: unknown[] };
  if (!parsed.transactions) throw new Error(`job failed: ${data.slice(0, 300)}`);
  return { ms: performance.now() - start, rows: parsed.transactions.length };
}
