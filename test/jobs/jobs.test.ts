import { describe, expect, test } from "bun:test";
import { sharedDb } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";
import { makeStatementPdf } from "./support/statement-pdf.ts";
import { form, get, newKey, post, readSse, sample, type Snapshot, submit, waitFinished } from "./support/http.ts";

const server = await startTestServer({ WORKERS: "2", TEST_MONTHLY_CAP: "100000" });
const large = await makeStatementPdf({ pages: 24 });

interface Progress {
  stage: string;
  current: number;
  total: number;
}

describe("a multi-page job", () => {
  test("streams progress up to total, then a result equal to POST /v1/parse; poll, result and ownership behave", async () => {
    const { key } = await newKey(server);
    const other = await newKey(server);
    const created = await submit(server, key, form(large));
    expect(Object.keys(created).sort()).toEqual(["job_id", "poll_url", "stream_url"]);
    expect(created.job_id).toMatch(/^job_[0-9A-Za-z]{22}$/);
    expect(created.poll_url).toBe(`/v1/parse/jobs/${created.job_id}`);

    // Before it is done: a snapshot without result or error fields, and no downloadable result.
    const early = (await (await get(server, created.poll_url, key)).json()) as Snapshot;
    expect(["queued", "running"]).toContain(early.state);
    expect(early).not.toHaveProperty("result");
    expect(early).not.toHaveProperty("error");
    expect(early).not.toHaveProperty("error_class");
    expect(early.result_kind).toBe("json");
    expect((await get(server, `${created.poll_url}/result`, key)).status).toBe(404);

    // The stream needs no credentials. (Single consumer and hang-up: see limits.test.ts, where a
    // queued job makes the timing deterministic.)
    const first = await server.fetch(created.stream_url);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toStartWith("text/event-stream");
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("x-accel-buffering")).toBe("no");

    const { events } = await readSse(first);
    const progress = events.filter((e) => e.event === "message").map((e) => JSON.parse(e.data) as Progress);
    const pages = progress.filter((p) => p.stage === "extract");
    expect(pages.length).toBeGreaterThan(0);
    pages.slice(1).forEach((p, i) => expect(p.current).toBeGreaterThan(pages[i]!.current));
    expect(pages.at(-1)).toEqual({ stage: "extract", current: 24, total: 24 });
    expect(progress.at(-1)).toEqual({ stage: "assemble", current: 1, total: 1 });
    const ids = events.map((e) => Number(e.id));
    ids.slice(1).forEach((id, i) => expect(id).toBeGreaterThan(ids[i]!));
    const last = events.at(-1)!;
    expect(last.event).toBe("result");
    const streamed = JSON.parse(last.data);

    const sync = await post(server, "/v1/parse", key, form(large));
    expect(sync.status).toBe(200);
    expect(sync.headers.get("content-type")).toStartWith("application/json");
    expect(streamed).toEqual(await sync.json());
    expect(streamed.transactions.length).toBe(24 * 22);

    // Done: the snapshot has the result, the result endpoint serves it, a late consumer gets the end.
    const done = (await (await get(server, created.poll_url, key)).json()) as Snapshot;
    expect(done.state).toBe("done");
    expect(done.result).toEqual(streamed);
    expect(done.progress).toEqual({ stage: "assemble", current: 1, total: 1 });
    expect(done).not.toHaveProperty("error");
    const result = await get(server, `${created.poll_url}/result`, key);
    expect(result.status).toBe(200);
    expect(result.headers.get("content-type")).toStartWith("application/json");
    expect(await result.json()).toEqual(streamed);
    const late = await readSse(await server.fetch(created.stream_url));
    expect(late.events.map((e) => e.event)).toEqual(["result"]);
    expect(JSON.parse(late.events[0]!.data)).toEqual(streamed);
    // An EventSource reconnecting with the result's id is told to stop.
    const reconnect = await server.fetch(created.stream_url, { headers: { "last-event-id": last.id! } });
    expect(reconnect.status).toBe(204);

    // Another owner's key sees nothing, exactly as for an unknown job.
    const foreignPoll = await get(server, created.poll_url, other.key);
    expect(foreignPoll.status).toBe(404);
    expect(((await foreignPoll.json()) as { error_class: string }).error_class).toBe("not_found");
    expect((await get(server, `${created.poll_url}/result`, other.key)).status).toBe(404);
    expect((await get(server, created.poll_url)).status).toBe(401);
  }, 60_000);
});

describe("csv and redact jobs", () => {
  test("a csv job delivers text/csv at result_url, the same bytes as the sync endpoint", async () => {
    const { key } = await newKey(server);
    const bytes = await sample("firstbank.pdf");
    const created = await submit(server, key, form(bytes), "?format=csv");
    const snap = await waitFinished(server, key, created.job_id);
    expect(snap.state).toBe("done");
    expect(snap.result_kind).toBe("csv");
    expect(snap.result_url).toBe(`/v1/parse/jobs/${created.job_id}/result`);
    const res = await get(server, snap.result_url!, key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const csv = await res.text();
    expect(csv.split(/\r?\n/)[0]).toBe("bank,account,date,time,narration,debit,credit,balance,derived_balance,reference,currency");
    const sync = await post(server, "/v1/parse?format=csv", key, form(bytes));
    expect(sync.status).toBe(200);
    expect(sync.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await sync.text()).toBe(csv);
    // The stream's result event is JSON even for a csv job.
    const streamed = await readSse(await server.fetch(created.stream_url));
    expect(JSON.parse(streamed.events.at(-1)!.data).transactions.length).toBe(csv.trim().split(/\r?\n/).length - 1);
  }, 60_000);

  test("a redact job delivers the redacted document with its content type and X-Redactions", async () => {
    const { key } = await newKey(server);
    const bytes = await sample("opay.pdf");
    const created = await submit(server, key, form(bytes, { redact: "true" }));
    const snap = await waitFinished(server, key, created.job_id);
    expect(snap.state).toBe("done");
    expect(snap.result_kind).toBe("redact");
    expect(snap).not.toHaveProperty("result");
    const res = await get(server, snap.result_url!, key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(Number(res.headers.get("x-redactions"))).toBe(snap.redactions!);
    expect(snap.redactions).toBeGreaterThan(0);
    const body = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(body.slice(0, 5))).toBe("%PDF-");
    const sync = await post(server, "/v1/parse", key, form(bytes, { redact: "true" }));
    expect(sync.status).toBe(200);
    expect(sync.headers.get("content-type")).toBe("application/pdf");
    expect(sync.headers.get("x-redactions")).toBe(String(snap.redactions));
  }, 60_000);
});

describe("a spreadsheet job", () => {
  test("an XLSX runs whole in one worker and streams extract then assemble progress", async () => {
    const { key } = await newKey(server);
    const bytes = await sample("opay.xlsx");
    const created = await submit(server, key, form(bytes, {}, "statement.xlsx"));
    const { events } = await readSse(await server.fetch(created.stream_url));
    expect(events.at(-1)!.event).toBe("result");
    const streamed = JSON.parse(events.at(-1)!.data);
    const sync = await post(server, "/v1/parse", key, form(bytes, {}, "statement.xlsx"));
    expect(sync.status).toBe(200);
    expect(streamed).toEqual(await sync.json());
    expect(streamed.transactions.length).toBeGreaterThan(0);
    const snap = (await (await get(server, created.poll_url, key)).json()) as Snapshot;
    expect(snap.progress).toEqual({ stage: "assemble", current: 1, total: 1 });
  }, 60_000);
});

describe("a job whose file fails", () => {
  test("ends failed with the error fields, the envelope on the stream, and no result", async () => {
    const { key } = await newKey(server);
    const created = await submit(server, key, form(await sample("encrypted.pdf")));
    const { events } = await readSse(await server.fetch(created.stream_url));
    const last = events.at(-1)!;
    expect(last.event).toBe("result");
    const envelope = JSON.parse(last.data);
    expect(envelope).toEqual({ error: expect.any(String), error_class: "encrypted_source", format_version: "1.0", marker_coverage: 0 });
    const snap = (await (await get(server, created.poll_url, key)).json()) as Snapshot;
    expect(snap.state).toBe("failed");
    expect(snap.error_class).toBe("encrypted_source");
    expect(snap.error).toBe(envelope.error);
    expect(snap).not.toHaveProperty("result");
    expect((await get(server, `${created.poll_url}/result`, key)).status).toBe(404);
  }, 60_000);

  test("the sync endpoint answers the same file with the envelope", async () => {
    const { key } = await newKey(server);
    const res = await post(server, "/v1/parse", key, form(await sample("encrypted.pdf")));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error_class: string }).error_class).toBe("encrypted_source");
  }, 60_000);
});

describe("a sync caller that hangs up", () => {
  test("stops its parse in the worker: the parse is recorded as failed with client_closed", async () => {
    const { key, owner } = await newKey(server);
    const db = await sharedDb();
    const usage = () => db.query<{ state: string; error_class: string | null }>(`select state, error_class from parse_usage where owner = $1`, [owner]);
    const hangUp = new AbortController();
    const request = post(server, "/v1/parse", key, form(await makeStatementPdf({ pages: 60 })), hangUp.signal).catch(() => "aborted");
    // Hang up once the parse has been admitted (its reservation exists), long before 60 pages are done.
    for (let i = 0; i < 200 && (await usage()).length === 0; i++) await Bun.sleep(10);
    hangUp.abort();
    expect(await request).toBe("aborted");
    let rows = await usage();
    for (let i = 0; i < 100 && rows[0]?.state === "reserved"; i++) {
      await Bun.sleep(50);
      rows = await usage();
    }
    expect(rows).toEqual([{ state: "failed", error_class: "client_closed" }]);
  }, 60_000);
});

describe("bad requests", () => {
  test("missing file, bad format and bad redact give one 422 validation body", async () => {
    const { key } = await newKey(server);
    for (const path of ["/v1/parse?format=xml", "/v1/parse/jobs?format=xml"]) {
      const res = await post(server, path, key, form(null, { redact: "maybe" }));
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: string[]; type: string }[] };
      expect(detail.map((d) => d.loc.join("."))).toEqual(["query.format", "body.pdf", "body.redact"]);
      expect(detail[1]!.type).toBe("missing");
    }
  }, 60_000);

  test("a body that is not multipart is a 422; no key is a 401", async () => {
    const { key } = await newKey(server);
    const res = await server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { type: string }[] }).detail[0]!.type).toBe("content_type");
    expect((await server.fetch("/v1/parse/jobs", { method: "POST", body: form(large) })).status).toBe(401);
  }, 60_000);

  test("streams of unknown or malformed job ids", async () => {
    expect((await server.fetch("/v1/parse/jobs/job_0000000000000000000000/stream")).status).toBe(404);
    expect((await server.fetch("/v1/parse/jobs/not-a-job/stream")).status).toBe(422);
  }, 60_000);
});
