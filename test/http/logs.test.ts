import { describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/crypto.ts";
import { createLogger } from "../../src/log.ts";
import { unique } from "../helpers/db.ts";
import { startFakePaystack } from "../helpers/paystack.ts";
import { ADMIN_TOKEN, startTestServer } from "../helpers/server.ts";
import { sample } from "../hostile/generate.ts";

/**
 * Logs are one JSON object a line, every request gets a line with the id it was answered with,
 * and no secret (admin token, raw key, key hash, Paystack secret) appears in a log line, an error
 * or a response, whichever path a request takes, including failures.
 */
const lines: string[] = [];
const paystack = startFakePaystack();
const server = await startTestServer(
  {
    LOG_LEVEL: "debug",
    PAYSTACK_BASE_URL: paystack.baseUrl,
    PAYSTACK_SECRET_KEY: paystack.secretKey,
    PAYSTACK_PLAN_STARTER: "PLN_starter_logs",
    PAYSTACK_TIMEOUT_MS: "300",
  },
  { log: createLogger("debug", (line) => lines.push(line)) },
);

interface Seen {
  res: Response;
  body: string;
  method: string;
  path: string;
}
const seen: Seen[] = [];
async function call(path: string, init: RequestInit & { admin?: boolean } = {}): Promise<Seen> {
  const res = init.admin ? await server.admin(path, init) : await server.fetch(path, init);
  const s = { res, body: await res.text(), method: init.method ?? "GET", path: new URL(path, "http://x").pathname };
  seen.push(s);
  return s;
}

const owner = unique("logs");
const issued = await call("/v1/keys", { admin: true, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "logs", owner }) });
const rawKey = (JSON.parse(issued.body) as { key: string }).key;
const testKey = (JSON.parse((await call("/v1/keys/test", { admin: true, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner }) })).body) as { key: string }).key;
const bearer = (k: string) => ({ authorization: `Bearer ${k}` });

function upload(bytes: Uint8Array, name: string): FormData {
  const form = new FormData();
  form.append("pdf", new File([new Uint8Array(bytes)], name));
  return form;
}

// Successes, client errors and upstream failures, each with a secret in play.
await call("/healthz");
await call("/v1/keys", { admin: true });
await call(`/v1/keys?owner=${owner}`, { admin: true });
await call("/v1/usage", { headers: bearer(rawKey) });
await call("/v1/usage", { headers: bearer(`${rawKey}x`) });
await call("/v1/keys", { headers: bearer(rawKey) });
await call("/v1/keys", { headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } });
await call("/v1/parse?format=csv&secret=in-the-query", { method: "POST", headers: bearer(testKey), body: upload(sample("firstbank.pdf"), "s.pdf") });
await call("/v1/parse", { method: "POST", headers: bearer(testKey), body: upload(new TextEncoder().encode(`%PDF-1.7 ${ADMIN_TOKEN} ${rawKey}`), "x.pdf") });
await call("/v1/admin/billing/subscribe", { admin: true, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner, email: "a@b.co", tier: "starter" }) });
for (const mode of ["reject", "server_error", "hang"] as const) {
  paystack.mode = mode;
  await call("/v1/admin/billing/subscribe", { admin: true, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner, email: "a@b.co", tier: "starter" }) });
}
paystack.mode = "ok";
await call("/no/such/route");
// A job followed on every path that names it: poll, stream, result, and an unknown job's poll.
const started = JSON.parse(
  (await call("/v1/parse/jobs", { method: "POST", headers: bearer(testKey), body: upload(sample("firstbank.pdf"), "s.pdf") })).body,
) as { job_id: string; stream_url: string; poll_url: string };
const jobId = started.job_id;
await call(started.stream_url);
await call(started.poll_url, { headers: bearer(testKey) });
await call(`${started.poll_url}/result`, { headers: bearer(testKey) });
await call(`/v1/parse/jobs/job_${"x".repeat(22)}`, { headers: bearer(testKey) });
// A malformed escape where the id goes: answered and logged like any other request.
await call("/v1/parse/jobs/%E0%A4%A/stream");
const echoed = await call("/healthz", { headers: { "x-request-id": "client-chosen-id.42" } });
// The request line is written after the response is sent.
await Bun.sleep(200);

const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
const requestLines = () => parsed().filter((l) => l.msg === "request");

describe("structured logs", () => {
  test("every line is exactly one JSON object with time, level and msg", () => {
    expect(lines.length).toBeGreaterThan(seen.length);
    for (const line of lines) {
      expect(line.endsWith("\n")).toBe(true);
      expect(line.slice(0, -1).includes("\n")).toBe(false);
      const obj = JSON.parse(line) as Record<string, unknown>;
      expect(typeof obj.time).toBe("string");
      expect(["debug", "info", "warn", "error"]).toContain(obj.level as string);
      expect(typeof obj.msg).toBe("string");
    }
  });

  test("every response carries X-Request-Id, and its request line has the same id, method, path, status and duration", () => {
    const byId = new Map(requestLines().map((l) => [l.request_id, l]));
    for (const s of seen) {
      const id = s.res.headers.get("x-request-id");
      expect(id, `${s.method} ${s.path}`).toBeTruthy();
      const line = byId.get(id);
      expect(line, `${s.method} ${s.path}`).toBeDefined();
      // A job's path is logged with ":job" where its id stands.
      expect(line).toMatchObject({ method: s.method, path: s.path.replace(/^\/v1\/parse\/jobs\/[^/]+/, "/v1/parse/jobs/:job"), status: s.res.status });
      expect(typeof line?.duration_ms).toBe("number");
    }
    const ids = seen.map((s) => s.res.headers.get("x-request-id"));
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("a sane incoming X-Request-Id is kept and logged", () => {
    expect(echoed.res.headers.get("x-request-id")).toBe("client-chosen-id.42");
    expect(requestLines().some((l) => l.request_id === "client-chosen-id.42")).toBe(true);
  });

  test("the query string is not logged, only the path", () => {
    expect(lines.join("")).not.toContain("in-the-query");
    expect(requestLines().some((l) => l.path === "/v1/parse")).toBe(true);
  });
});

describe("job ids are never logged", () => {
  test("stream, poll and result request lines carry the job's tag, never its id", () => {
    expect(jobId).toMatch(/^job_[0-9A-Za-z]{22}$/);
    const tag = sha256Hex(jobId).slice(0, 6);
    const jobLines = requestLines().filter((l) => l.job_tag === tag);
    expect(jobLines.map((l) => l.path).sort()).toEqual(["/v1/parse/jobs/:job", "/v1/parse/jobs/:job/result", "/v1/parse/jobs/:job/stream"]);
    expect(jobLines.every((l) => l.status === 200)).toBe(true);
    expect(requestLines().some((l) => l.job_tag === sha256Hex(`job_${"x".repeat(22)}`).slice(0, 6))).toBe(true);
  });

  test("no line holds a job id, whoever wrote it", () => {
    const all = lines.join("");
    expect(all).not.toContain(jobId);
    expect(all).not.toContain(jobId.slice(4));
    expect(all).not.toMatch(/job_[0-9A-Za-z]{22}/);
    // A field that names a job by id is tagged on its way out.
    const captured: string[] = [];
    createLogger("info", (l) => captured.push(l)).info("custom", { job_id: jobId, note: `see ${jobId}/stream` });
    expect(captured[0]).not.toContain(jobId);
    expect(JSON.parse(captured[0]!)).toMatchObject({ job_id: `job~${sha256Hex(jobId).slice(0, 6)}` });
  });
});

describe("secrets stay secret", () => {
  const secrets = () => ({
    "admin token": ADMIN_TOKEN,
    "admin token hash": sha256Hex(ADMIN_TOKEN),
    "raw live key": rawKey,
    "live key hash": sha256Hex(rawKey),
    "raw test key": testKey,
    "test key hash": sha256Hex(testKey),
    "Paystack secret": paystack.secretKey,
  });

  test("no secret appears in any log line", () => {
    const all = lines.join("");
    for (const [what, value] of Object.entries(secrets())) expect(all.includes(value), what).toBe(false);
  });

  test("no secret appears in any response body or header, except each raw key in the one response that issues it", () => {
    const issuing = new Set([issued, seen[1]]);
    for (const s of seen) {
      const headerLines: string[] = [];
      s.res.headers.forEach((v, k) => headerLines.push(`${k}: ${v}`));
      const headers = headerLines.join("\n");
      for (const [what, value] of Object.entries(secrets())) {
        if (issuing.has(s) && (what === "raw live key" || what === "raw test key")) continue;
        expect(s.body.includes(value), `${what} in body of ${s.method} ${s.path} (${s.res.status})`).toBe(false);
        expect(headers.includes(value), `${what} in headers of ${s.method} ${s.path}`).toBe(false);
      }
    }
  });

  test("the failures above really happened (so the checks covered error paths)", () => {
    const statuses = seen.map((s) => s.res.status);
    expect(statuses).toContain(401);
    expect(statuses).toContain(404);
    expect(statuses).toContain(502);
    expect(statuses.filter((s) => s >= 400 && s < 500).length).toBeGreaterThanOrEqual(4);
  });
});
