import { expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { SseParser, type SseMessage } from "../../src/client/sse.ts";
import { jobTag } from "../../src/log.ts";
import { type ChildServer, startChildServer } from "../helpers/child-server.ts";

/** The machine's Redis (started by .ci/run when down); each test file uses a key prefix of its own and deletes it. */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export const uniquePrefix = (name: string) => `stp-test-${name}-${Date.now()}-${process.pid}`;

/** Deletes every key under `prefix` (the service's and BullMQ's). */
export async function dropPrefix(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  let n = 0;
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) n += await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
  return n;
}

/** Whether a Redis answers PING at `url` (one connection attempt, no retries). */
export async function pingRedis(url: string): Promise<boolean> {
  const probe = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
  probe.on("error", () => {}); // refused until it listens: the caller tries again
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A redis-server of a test file's own, so the machine's shared one is never stopped or reconfigured. */
export interface ThrowawayRedis {
  url: string;
  /** Starts it (again, on the same port and directory) and waits until it answers PING. */
  start(): Promise<void>;
  /** Kills it, only the process this handle started. */
  stop(): Promise<void>;
  /** Stops it and deletes its directory. */
  remove(): Promise<void>;
}

/** `save`: redis-server's --save setting ("" keeps nothing on disk; "60 1" snapshots into a temporary directory). */
export async function throwawayRedis(name: string, save: string): Promise<ThrowawayRedis> {
  const dir = mkdtempSync(join(tmpdir(), `stp-redis-${name}-`));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let proc: ReturnType<typeof Bun.spawn> | undefined;
  const stop = async () => {
    proc?.kill("SIGKILL");
    await proc?.exited;
    proc = undefined;
  };
  return {
    url,
    async start() {
      proc = Bun.spawn(["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", save, "--appendonly", "no", "--dir", dir], { stdout: "ignore", stderr: "ignore" });
      await waitFor("redis-server to listen", async () => ((await pingRedis(url)) ? true : undefined), 10_000);
    },
    stop,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const startInstances = (count: number, env: Record<string, string>): Promise<ChildServer[]> =>
  Promise.all(Array.from({ length: count }, () => startChildServer(env)));

export function form(bytes: Uint8Array, name = "statement.pdf"): FormData {
  const f = new FormData();
  f.set("pdf", new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  return f;
}

export async function submitJob(server: ChildServer, key: string, bytes: Uint8Array, query = ""): Promise<string> {
  const res = await server.fetch(`/v1/parse/jobs${query}`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form(bytes) });
  const body = (await res.json()) as { job_id: string };
  expect(res.status).toBe(202);
  return body.job_id;
}

export const authed = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

export interface Snapshot {
  state: string;
  progress: { stage: string; current: number; total: number };
  result?: { transactions: unknown[] };
  error_class?: string;
}

export async function poll(server: ChildServer, key: string, id: string): Promise<Snapshot> {
  const res = await server.fetch(`/v1/parse/jobs/${id}`, authed(key));
  expect(res.status).toBe(200);
  return (await res.json()) as Snapshot;
}

export async function waitFinished(server: ChildServer, key: string, id: string, timeoutMs = 90_000): Promise<Snapshot> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await poll(server, key, id);
    if (s.state === "done" || s.state === "failed") return s;
    if (Date.now() > deadline) throw new Error(`job still ${s.state} after ${timeoutMs} ms`);
    await Bun.sleep(200);
  }
}

/**
 * Reads a job's SSE stream until `until` says stop (or the stream ends), then hangs up. Returns
 * the events read and the HTTP status.
 */
export async function readStream(
  server: ChildServer,
  id: string,
  { lastEventId, until = () => false }: { lastEventId?: string; until?: (m: SseMessage, all: SseMessage[]) => boolean } = {},
): Promise<{ status: number; events: SseMessage[] }> {
  const abort = new AbortController();
  const res = await server.fetch(`/v1/parse/jobs/${id}/stream`, { headers: lastEventId ? { "last-event-id": lastEventId } : {}, signal: abort.signal });
  const events: SseMessage[] = [];
  if (res.status !== 200 || !res.body) {
    await res.arrayBuffer().catch(() => {});
    return { status: res.status, events };
  }
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      for (const m of parser.feed(decoder.decode(r.value, { stream: true }))) {
        events.push(m);
        if (until(m, events)) return { status: 200, events };
      }
    }
  } finally {
    abort.abort();
    await reader.cancel().catch(() => {});
  }
  return { status: 200, events };
}

/** Which of `servers` logged that it started job `id` (logs carry job~tag, never the id). */
export function runnersOf(servers: ChildServer[], id: string): ChildServer[] {
  const tag = `job~${jobTag(id)}`;
  return servers.filter((s) => s.logs.some((l) => l.msg === "parse job started" && l.job_id === tag));
}

export async function waitFor<T>(what: string, f: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}
