import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN_TOKEN } from "./server.ts";

const MAIN = join(import.meta.dir, "../../src/main.ts");

/**
 * The real server as its own process (`bun src/main.ts`), for what only a process shows: its RSS,
 * its exit code and stderr, signals (SIGTERM, kill -9), a second start beside it. Configured by
 * environment like a deployment; the JSON log on stdout is kept for assertions.
 */
export interface ChildServer {
  url: string;
  port: number;
  pid: number;
  proc: ReturnType<typeof Bun.spawn>;
  /** Log lines (parsed JSON) written so far. */
  logs: Array<Record<string, unknown>>;
  stderr(): string;
  /** Resident set size of the server process, MiB (from /proc). */
  rssMiB(): number;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  admin(path: string, init?: RequestInit): Promise<Response>;
  /** SIGTERM and wait for the exit; returns the exit code. */
  stop(): Promise<number>;
}

export interface ChildStart {
  proc: ReturnType<typeof Bun.spawn>;
  /** Resolves with the server once it logs "listening", or with the exit code if it ends first. */
  ready: Promise<ChildServer | { exitCode: number; stderr: string; stdout: string }>;
}

export function spawnServer(env: Record<string, string>): ChildStart {
  const proc = Bun.spawn([process.execPath, MAIN], {
    // WORKER_WARMUP off as in test/helpers/server.ts; a test's env can turn it back on.
    env: { PATH: process.env.PATH ?? "", TZ: "UTC", HOST: "127.0.0.1", PORT: "0", ADMIN_TOKEN, WORKERS: "1", LOG_LEVEL: "info", WORKER_WARMUP: "false", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const logs: Array<Record<string, unknown>> = [];
  let err = "";
  let out = "";
  let onListening: (port: number) => void = () => {};
  const listening = new Promise<number>((r) => (onListening = r));
  void (async () => {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of chunks(proc.stdout as ReadableStream<Uint8Array>)) {
      const text = decoder.decode(chunk, { stream: true });
      out += text;
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (entry.msg === "listening") onListening(Number(entry.port));
        } catch {
          // Not a log line (e.g. the admin token banner).
        }
      }
    }
  })();
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of chunks(proc.stderr as ReadableStream<Uint8Array>)) err += decoder.decode(chunk, { stream: true });
  })();
  const ready = Promise.race([
    listening.then((port): ChildServer => {
      const url = `http://127.0.0.1:${port}`;
      const f = (path: string, init?: RequestInit) => fetch(url + path, init);
      return {
        url,
        port,
        pid: proc.pid,
        proc,
        logs,
        stderr: () => err,
        rssMiB: () => rssOf(proc.pid),
        fetch: f,
        admin: (path, init = {}) => f(path, { ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.headers as Record<string, string> | undefined) } }),
        async stop() {
          proc.kill("SIGTERM");
          return await proc.exited;
        },
      };
    }),
    proc.exited.then(async (exitCode) => {
      await Bun.sleep(50);
      return { exitCode, stderr: err, stdout: out };
    }),
  ]);
  return { proc, ready };
}

/** Starts the server and fails the test with its stderr if it does not come up. */
export async function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const started = await spawnServer(env).ready;
  if ("exitCode" in started) throw new Error(`server exited ${started.exitCode}: ${started.stderr}${started.stdout}`);
  return started;
}

export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** A fresh test key on a child server. */
export async function childTestKey(server: ChildServer, owner: string): Promise<string> {
  const res = await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner }) });
  if (res.status !== 200 && res.status !== 201) throw new Error(`test key: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

/** The child's database: the pass's PostgreSQL database when there is one, else PGlite in a fresh directory. */
export function childDbEnv(): Record<string, string> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return { DATABASE_URL: url };
  return { DATA_DIR: join(mkdtempSync(join(tmpdir(), "stp-child-")), "data") };
}

async function* chunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
}
