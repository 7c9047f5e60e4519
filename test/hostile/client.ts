/** HTTP helpers shared by the hostile and soak tests. */
import type { TestServer } from "../helpers/server.ts";
import { unique } from "../helpers/db.ts";

export interface ParseAnswer {
  status: number;
  ms: number;
  body: string;
  json?: Record<string, unknown>;
}

/** A fresh owner with its one test key. */
export async function testKey(server: TestServer): Promise<string> {
  const res = await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: unique("hostile") }) });
  if (res.status !== 200 && res.status !== 201) throw new Error(`test key: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

export async function postParse(server: TestServer, key: string, bytes: Uint8Array, filename: string, query = "", fields: Record<string, string> = {}): Promise<ParseAnswer> {
  const form = new FormData();
  form.append("pdf", new File([new Uint8Array(bytes)], filename));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const started = performance.now();
  const res = await server.fetch(`/v1/parse${query}`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
  const body = await res.text();
  const ms = performance.now() - started;
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(body) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: res.status, ms, body, ...(json ? { json } : {}) };
}

/** Resident set size of this process, which holds the server and its worker threads. */
export function rssMiB(): number {
  Bun.gc(true);
  return Math.round(process.memoryUsage().rss / (1024 * 1024));
}

/**
 * Submits a parse job and polls it to the end; answers like postParse with the job's result body,
 * or, for a failed job, status -1 and the snapshot (with error_class) as the body.
 */
export async function runJob(server: TestServer, key: string, bytes: Uint8Array, filename: string, opts: { format?: "csv"; redact?: boolean } = {}): Promise<ParseAnswer & { state: string }> {
  const form = new FormData();
  form.append("pdf", new File([new Uint8Array(bytes)], filename));
  if (opts.redact) form.append("redact", "true");
  const auth = { authorization: `Bearer ${key}` };
  const started = performance.now();
  const created = await server.fetch(`/v1/parse/jobs${opts.format ? `?format=${opts.format}` : ""}`, { method: "POST", headers: auth, body: form });
  if (created.status !== 202) {
    const body = await created.text();
    return { state: "rejected", status: created.status, ms: performance.now() - started, body, ...parseJson(body) };
  }
  const { poll_url } = (await created.json()) as { poll_url: string };
  let state = "queued";
  let snapshot = "";
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await Bun.sleep(50)) {
    snapshot = await (await server.fetch(poll_url, { headers: auth })).text();
    state = (JSON.parse(snapshot) as { state: string }).state;
    if (state === "done" || state === "failed") break;
  }
  // A failed job has no result to download; its snapshot carries error and error_class.
  if (state === "failed") return { state, status: -1, ms: performance.now() - started, body: snapshot, ...parseJson(snapshot) };
  const result = await server.fetch(`${poll_url}/result`, { headers: auth });
  const body = await result.text();
  return { state, status: result.status, ms: performance.now() - started, body, ...parseJson(body) };
}

function parseJson(body: string): { json?: Record<string, unknown> } {
  try {
    return { json: JSON.parse(body) as Record<string, unknown> };
  } catch {
    return {};
  }
}
