import { expect } from "bun:test";
import { unique } from "../../helpers/db.ts";
import { join } from "node:path";
import type { TestServer } from "../../helpers/server.ts";

export const SAMPLES = join(import.meta.dir, "../../../fixtures/real");
export const sample = (name: string) => Bun.file(`${SAMPLES}/${name}`).bytes();

/** A fresh owner with its test key (test keys are metered against TEST_MONTHLY_CAP, raised by the tests). */
export async function newKey(server: TestServer, owner = unique()): Promise<{ key: string; owner: string }> {
  const res = await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner }) });
  expect(res.status).toBe(200);
  return { key: ((await res.json()) as { key: string }).key, owner };
}

export function form(bytes: Uint8Array | null, fields: Record<string, string> = {}, filename = "statement.pdf"): FormData {
  const f = new FormData();
  if (bytes) f.set("pdf", new Blob([bytes as Uint8Array<ArrayBuffer>]), filename);
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

export const post = (server: TestServer, path: string, key: string, body: FormData, signal?: AbortSignal) =>
  server.fetch(path, { method: "POST", headers: { authorization: `Bearer ${key}` }, body, signal });
export const get = (server: TestServer, path: string, key?: string) =>
  server.fetch(path, key ? { headers: { authorization: `Bearer ${key}` } } : {});

export interface Created {
  job_id: string;
  stream_url: string;
  poll_url: string;
}

export async function submit(server: TestServer, key: string, body: FormData, query = ""): Promise<Created> {
  const res = await post(server, `/v1/parse/jobs${query}`, key, body);
  expect(res.status).toBe(202);
  return (await res.json()) as Created;
}

export interface SseEvent {
  event: string;
  id?: string;
  data: string;
}

/** Reads a whole SSE response (until the server ends it) into events; comments are counted apart. */
export async function readSse(res: Response): Promise<{ events: SseEvent[]; comments: string[] }> {
  const text = await res.text();
  const events: SseEvent[] = [];
  const comments: string[] = [];
  for (const block of text.split("\n\n")) {
    if (block.trim() === "") continue;
    let event = "message";
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) comments.push(line.slice(1).trim());
      else if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("id: ")) id = line.slice(4);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length > 0) events.push({ event, id, data: data.join("\n") });
  }
  return { events, comments };
}

export interface Snapshot {
  job_id: string;
  state: string;
  result_kind: string;
  progress: { stage: string; current: number; total: number };
  result?: unknown;
  result_url?: string;
  format_version: string;
  redactions?: number;
  sample?: boolean;
  error?: string;
  error_class?: string;
}

/** Polls until the job has finished (or the deadline passes). */
export async function waitFinished(server: TestServer, key: string, id: string, timeoutMs = 90_000): Promise<Snapshot> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await get(server, `/v1/parse/jobs/${id}`, key);
    expect(res.status).toBe(200);
    const snap = (await res.json()) as Snapshot;
    if (snap.state === "done" || snap.state === "failed") return snap;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${snap.state}`);
    await Bun.sleep(50);
  }
}
