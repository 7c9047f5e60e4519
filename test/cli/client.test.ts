/**
 * The client's retry, timeout, error and stream logic against a small local HTTP server that
 * speaks the SPEC shapes, so each server behaviour can be produced on demand. End-to-end calls
 * against the real service are in client-e2e.test.ts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ApiError,
  apiError,
  AuthError,
  createClient,
  EncryptedSourceError,
  type JobEvent,
  NetworkError,
  QueueFullError,
  RateLimitedError,
  TimeoutError,
  ValidationError,
} from "../../src/index.ts";

const KEY = "sk_test_client_secret_0123456789";
const RESPONSE = {
  format_version: "1.0",
  metadata: { bank: "firstbank", account_holder: "A", account_number_masked: "******1234", statement_period_start: "", statement_period_end: "", opening_balance: "0.00", closing_balance: "10.00" },
  totals: { credit: "10.00", debit: "0.00" },
  row_wise_reconcilable: true,
  transactions: [{ date: "2024-01-03T00:00:00+01:00", narration: "x", debit: "0.00", credit: "10.00", balance: "10.00", reference: "", currency: "NGN" }],
  checks: {},
};
const envelope = (error_class: string, error: string, marker_coverage = 0) => ({ error, error_class, format_version: "1.0", marker_coverage });

type Handler = (req: Request, url: URL) => Response | Promise<Response>;
const routes = new Map<string, Handler>();
const hits = new Map<string, number>();
const seen: { path: string; auth: string | null; form?: Record<string, string> }[] = [];

const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const url = new URL(req.url);
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const entry: (typeof seen)[number] = { path: url.pathname, auth: req.headers.get("authorization") };
    if (req.method === "POST" && req.headers.get("content-type")?.startsWith("multipart/form-data")) {
      const f = await req.formData();
      entry.form = Object.fromEntries([...f.entries()].map(([k, v]) => [k, typeof v === "string" ? v : `file:${(v as Blob).size}`]));
    }
    seen.push(entry);
    const h = routes.get(url.pathname);
    return h ? h(req, url) : Response.json(envelope("not_found", "No such route"), { status: 404 });
  },
});
afterAll(() => server.stop(true));

const base = `http://127.0.0.1:${server.port}`;
let n = 0;
/** A fresh path prefix per test, so handlers and hit counts never mix. */
const prefix = () => `/t${++n}`;
const client = (p: string, o: Partial<Parameters<typeof createClient>[0]> = {}) => createClient({ baseUrl: base + p, apiKey: KEY, ...o });
const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]);

describe("retries", () => {
  test("503 with Retry-After is retried after that many seconds, then succeeds", async () => {
    const p = prefix();
    routes.set(`${p}/v1/parse`, () =>
      (hits.get(`${p}/v1/parse`) ?? 0) < 2 ? Response.json(envelope("queue_full", "Queue is full"), { status: 503, headers: { "retry-after": "1" } }) : Response.json(RESPONSE),
    );
    const started = performance.now();
    const r = await client(p).parse(pdf);
    expect(r.transactions).toHaveLength(1);
    expect(hits.get(`${p}/v1/parse`)).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    // The multipart body is rebuilt for the retry, so the server saw the file both times.
    expect(seen.filter((s) => s.path === `${p}/v1/parse`).map((s) => s.form?.pdf)).toEqual(["file:5", "file:5"]);
  });

  test("429 is retried a bounded number of times, then thrown as RateLimitedError", async () => {
    const p = prefix();
    routes.set(`${p}/v1/usage`, () => Response.json(envelope("rate_limited", "Too many"), { status: 429, headers: { "retry-after": "0" } }));
    const e = await client(p, { maxRetries: 2 }).usage().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(429);
    expect((e as ApiError).retryAfter).toBe(0);
    expect(hits.get(`${p}/v1/usage`)).toBe(3);
  });

  test("a Retry-After longer than maxRetryDelayMs is not waited for", async () => {
    const p = prefix();
    routes.set(`${p}/v1/usage`, () => Response.json(envelope("queue_full", "Busy"), { status: 503, headers: { "retry-after": "3600" } }));
    const e = await client(p, { maxRetryDelayMs: 5000 }).usage().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(QueueFullError);
    expect((e as ApiError).retryAfter).toBe(3600);
    expect(hits.get(`${p}/v1/usage`)).toBe(1);
  });

  test("other errors are not retried", async () => {
    const p = prefix();
    routes.set(`${p}/v1/usage`, () => Response.json(envelope("internal_error", "boom"), { status: 500 }));
    await expect(client(p).usage()).rejects.toMatchObject({ status: 500, errorClass: "internal_error" });
    expect(hits.get(`${p}/v1/usage`)).toBe(1);
  });
});

describe("errors", () => {
  test("each error_class gives its class with status, errorClass and markerCoverage", async () => {
    const p = prefix();
    routes.set(`${p}/v1/parse`, () => Response.json(envelope("encrypted_source", "The PDF needs a password", 40), { status: 422 }));
    const e = await client(p).parse(pdf).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EncryptedSourceError);
    expect(e).toMatchObject({ status: 422, errorClass: "encrypted_source", markerCoverage: 40, message: "The PDF needs a password", name: "EncryptedSourceError" });
  });

  test("every error class of the service has its own subclass", () => {
    // Read from the server's union, so a class added there without a client class fails here.
    const source = readFileSync(join(import.meta.dir, "../../src/errors.ts"), "utf8");
    const union = /export type ErrorClass =([^;]+);/.exec(source)?.[1] ?? "";
    const classes = [...union.matchAll(/"([a-z_]+)"/g)].map((m) => m[1] as string);
    expect(classes.length).toBeGreaterThan(15);
    for (const c of classes) {
      const e = apiError("m", { status: 400, errorClass: c });
      expect({ c, generic: e.constructor === ApiError }).toEqual({ c, generic: false });
      expect(e).toBeInstanceOf(ApiError);
    }
  });

  test("an error_class the client does not know still gives an ApiError with its fields", async () => {
    const p = prefix();
    routes.set(`${p}/v1/usage`, () => Response.json(envelope("brand_new_class", "New"), { status: 418 }));
    const e = (await client(p).usage().catch((x: unknown) => x)) as ApiError;
    expect(e.constructor).toBe(ApiError);
    expect(e).toMatchObject({ status: 418, errorClass: "brand_new_class" });
  });

  test("a 422 validation body gives ValidationError with its detail", async () => {
    const p = prefix();
    const detail = [{ loc: ["body", "pdf"], msg: "Required", type: "missing", input: null, ctx: {} }];
    routes.set(`${p}/v1/parse`, () => Response.json({ detail }, { status: 422 }));
    const e = (await client(p).parse(pdf).catch((x: unknown) => x)) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.detail).toEqual(detail);
    expect(e.message).toContain("body.pdf: Required");
  });

  test("the key never appears in an error, even when the server echoes it", async () => {
    const p = prefix();
    routes.set(`${p}/v1/usage`, (req) => Response.json(envelope("auth_error", `Bad key ${req.headers.get("authorization")}`), { status: 401 }));
    const e = (await client(p).usage().catch((x: unknown) => x)) as AuthError;
    expect(e).toBeInstanceOf(AuthError);
    const everything = `${e.message} ${e.stack} ${JSON.stringify(e)} ${JSON.stringify(Object.entries(e))} ${String(e)}`;
    expect(everything).not.toContain(KEY);
    expect(e.message).toContain("[api key]");

    const net = (await createClient({ baseUrl: "http://127.0.0.1:1", apiKey: KEY }).usage().catch((x: unknown) => x)) as NetworkError;
    expect(net).toBeInstanceOf(NetworkError);
    expect(net.status).toBe(0);
    expect(`${net.message} ${JSON.stringify(net)} ${net.stack}`).not.toContain(KEY);
  });

  test("a non-JSON error body still gives the class of its status", async () => {
    const p = prefix();
    routes.set(`${p}/v1/banks`, () => new Response("Bad gateway", { status: 401 }));
    await expect(client(p).banks()).rejects.toBeInstanceOf(AuthError);
  });
});

describe("time limits and cancellation", () => {
  test("timeoutMs gives TimeoutError with status 0", async () => {
    const p = prefix();
    routes.set(`${p}/v1/usage`, async () => {
      await Bun.sleep(1500);
      return Response.json({});
    });
    const e = await client(p).usage({ timeoutMs: 100 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e).toMatchObject({ status: 0, errorClass: "timeout" });
  });

  test("an aborted signal rejects with the caller's reason, also while waiting for a retry", async () => {
    const p = prefix();
    routes.set(`${p}/v1/usage`, () => Response.json(envelope("queue_full", "Busy"), { status: 503, headers: { "retry-after": "30" } }));
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    setTimeout(() => controller.abort(reason), 100);
    const started = performance.now();
    await expect(client(p).usage({ signal: controller.signal })).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("parseJob", () => {
  const sse = (chunks: string[], delayMs = 5) =>
    new Response(
      new ReadableStream<Uint8Array>({
        async start(c) {
          for (const s of chunks) {
            c.enqueue(new TextEncoder().encode(s));
            await Bun.sleep(delayMs);
          }
          c.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );

  function job(p: string, stream: Handler, snapshot?: Handler) {
    routes.set(`${p}/v1/parse/jobs`, () => Response.json({ job_id: "job_1", stream_url: "/v1/parse/jobs/job_1/stream", poll_url: "/v1/parse/jobs/job_1" }, { status: 202 }));
    routes.set(`${p}/v1/parse/jobs/job_1/stream`, stream);
    if (snapshot) routes.set(`${p}/v1/parse/jobs/job_1`, snapshot);
  }
  const collect = async (it: AsyncIterable<JobEvent>) => {
    const out: JobEvent[] = [];
    for await (const e of it) out.push(e);
    return out;
  };

  test("yields created, progress in order, then the result; the stream gets no key", async () => {
    const p = prefix();
    const body = `: hi\n\nid: 1\ndata: {"stage":"pages","current":1,"total":2}\n\nid: 2\ndata: {"stage":"pages","current":2,"total":2}\n\nid: 3\nevent: result\ndata: ${JSON.stringify(RESPONSE)}\n\n`;
    // cut mid-line and mid-event to exercise the parser on a real socket
    job(p, () => sse([body.slice(0, 17), body.slice(17, 60), body.slice(60)]));
    // The stream URL from the server is a path; the client resolves it against its base URL (with prefix).
    const events = await collect(client(p).parseJob(pdf, { password: "pw", format: "csv" }));
    expect(events.map((e) => e.type)).toEqual(["created", "progress", "progress", "result"]);
    expect(events[2]).toEqual({ type: "progress", jobId: "job_1", stage: "pages", current: 2, total: 2 });
    const last = events[3];
    expect(last?.type === "result" && last.kind === "csv" && last.result.transactions.length).toBe(1);
    const posted = seen.find((s) => s.path === `${p}/v1/parse/jobs`);
    expect(posted?.auth).toBe(`Bearer ${KEY}`);
    expect(posted?.form).toEqual({ pdf: "file:5", password: "pw" });
    expect(seen.find((s) => s.path === `${p}/v1/parse/jobs/job_1/stream`)?.auth).toBeNull();
  });

  test("a failure envelope in the result event is thrown as its class", async () => {
    const p = prefix();
    job(p, () => sse([`event: result\ndata: ${JSON.stringify(envelope("encrypted_source", "Needs a password"))}\n\n`]));
    const e = await collect(client(p).parseJob(pdf)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EncryptedSourceError);
  });

  test("a stream that ends before its result falls back to polling the snapshot", async () => {
    const p = prefix();
    job(
      p,
      () => sse([`data: {"stage":"pages","current":1,"total":3}\n\n`]),
      () => Response.json((hits.get(`${p}/v1/parse/jobs/job_1`) ?? 0) < 2 ? { job_id: "job_1", state: "running" } : { job_id: "job_1", state: "done", result: RESPONSE }),
    );
    const events = await collect(client(p).parseJob(pdf));
    expect(events.map((e) => e.type)).toEqual(["created", "progress", "result"]);
    expect(hits.get(`${p}/v1/parse/jobs/job_1`)).toBe(2);
  });

  test("redact jobs end with where the document is", async () => {
    const p = prefix();
    job(p, () => sse([`event: result\ndata: {"format_version":"1.0","result_url":"/v1/parse/jobs/job_1/result","redactions":4,"content_type":"application/pdf"}\n\n`]));
    const events = await collect(client(p).parseJob(pdf, { redact: true }));
    expect(events.at(-1)).toEqual({ type: "result", jobId: "job_1", kind: "redact", redacted: { resultUrl: "/v1/parse/jobs/job_1/result", redactions: 4, contentType: "application/pdf" } });
    expect(seen.find((s) => s.path === `${p}/v1/parse/jobs`)?.form).toEqual({ pdf: "file:5", redact: "true" });
  });

  test("the canned sample (past a free cap) is flagged from its JSON's sample: true", async () => {
    const p = prefix();
    const sampleBody = { ...RESPONSE, metadata: { ...RESPONSE.metadata, bank: "sample" }, sample: true };
    job(p, () => sse([`event: result\ndata: ${JSON.stringify(sampleBody)}\n\n`]));
    // Asked for redaction, the sample arrives as JSON: the event says so.
    const last = (await collect(client(p).parseJob(pdf, { redact: true }))).at(-1);
    expect(last).toMatchObject({ type: "result", kind: "json", sample: true });
    expect(hits.get(`${p}/v1/parse/jobs/job_1`)).toBeUndefined(); // the JSON says it: no snapshot request

    const q = prefix();
    job(q, () => sse([`event: result\ndata: ${JSON.stringify(RESPONSE)}\n\n`]));
    expect((await collect(client(q).parseJob(pdf))).at(-1)).toMatchObject({ kind: "json", sample: false });
    expect(hits.get(`${q}/v1/parse/jobs/job_1`)).toBeUndefined(); // no snapshot needed for a real parse
  });

  test("the job's time limit covers the whole stream", async () => {
    const p = prefix();
    job(p, () => sse([`data: {"stage":"pages","current":1,"total":3}\n\n`, ": wait\n\n", ": wait\n\n"], 400));
    await expect(collect(client(p).parseJob(pdf, { timeoutMs: 300 }))).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe("result and redact bytes", () => {
  test("result() tells CSV, JSON and documents apart by content type", async () => {
    const p = prefix();
    routes.set(`${p}/v1/parse/jobs/a/result`, () => new Response("date,narration\n", { headers: { "content-type": "text/csv; charset=utf-8" } }));
    routes.set(`${p}/v1/parse/jobs/b/result`, () => Response.json(RESPONSE));
    routes.set(`${p}/v1/parse/jobs/c/result`, () => new Response(pdf, { headers: { "content-type": "application/pdf", "x-redactions": "3" } }));
    const c = client(p);
    expect(await c.result("a")).toEqual({ kind: "csv", contentType: "text/csv; charset=utf-8", text: "date,narration\n" });
    expect(await c.result("b")).toMatchObject({ kind: "json", data: { row_wise_reconcilable: true } });
    expect(await c.result("c")).toEqual({ kind: "redact", contentType: "application/pdf", bytes: pdf, redactions: 3 });
  });

  test("createClient refuses a missing key or a base URL that is not http(s)", () => {
    expect(() => createClient({ baseUrl: "ftp://x", apiKey: KEY })).toThrow("baseUrl");
    expect(() => createClient({ baseUrl: base, apiKey: "" })).toThrow("apiKey");
  });
});
