import { describe, expect, test } from "bun:test";
import { startTestServer } from "../helpers/server.ts";
import { makeStatementPdf } from "./support/statement-pdf.ts";
import { form, get, newKey, post, readSse, sample, type Snapshot, submit, waitFinished } from "./support/http.ts";

// One worker, one waiting place, two parses in flight per key, results kept one second.
const server = await startTestServer({
  WORKERS: "1",
  MAX_QUEUED_JOBS: "1",
  MAX_INFLIGHT_PER_KEY: "2",
  JOB_RESULT_TTL_S: "1",
  MAX_UPLOAD_BYTES: "200000",
  TEST_MONTHLY_CAP: "100000",
});
const large = await makeStatementPdf({ pages: 40 });

describe("back-pressure", () => {
  test("past the queue: 503 queue_full with Retry-After on both endpoints; per key: 429; accepted jobs complete", async () => {
    const a = await newKey(server);
    const b = await newKey(server);
    const running = await submit(server, a.key, form(large));
    const waiting = await submit(server, a.key, form(large));
    const snap = (await (await get(server, waiting.poll_url, a.key)).json()) as Snapshot;
    expect(snap.state).toBe("queued");

    // One stream consumer at a time; one that hangs up gives the slot back.
    const hangUp = new AbortController();
    const dropped = await server.fetch(waiting.stream_url, { signal: hangUp.signal });
    expect(dropped.status).toBe(200);
    hangUp.abort();
    let consumer = await server.fetch(waiting.stream_url);
    for (let i = 0; i < 20 && consumer.status === 409; i++) {
      await Bun.sleep(50);
      consumer = await server.fetch(waiting.stream_url);
    }
    expect(consumer.status).toBe(200);
    const second = await server.fetch(waiting.stream_url);
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error_class: string }).error_class).toBe("stream_in_use");
    const streamed = readSse(consumer);

    const perKey = await post(server, "/v1/parse/jobs", a.key, form(large));
    expect(perKey.status).toBe(429);
    expect(Number(perKey.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await perKey.json()) as { error_class: string }).error_class).toBe("rate_limited");

    for (const path of ["/v1/parse/jobs", "/v1/parse"]) {
      const full = await post(server, path, b.key, form(large));
      expect(full.status).toBe(503);
      expect(Number(full.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await full.json()) as { error_class: string }).error_class).toBe("queue_full");
    }

    for (const job of [running, waiting]) {
      const done = await waitFinished(server, a.key, job.job_id);
      expect(done.state).toBe("done");
      expect((done.result as { transactions: unknown[] }).transactions.length).toBe(40 * 22);
    }
    const { events } = await streamed;
    expect(events.at(-1)!.event).toBe("result");
    expect(JSON.parse(events.at(-1)!.data).transactions.length).toBe(40 * 22);
    // Slots are given back: the other key parses again.
    const again = await post(server, "/v1/parse", b.key, form(await sample("firstbank.pdf")));
    expect(again.status).toBe(200);
  }, 60_000);

  test("an upload over MAX_UPLOAD_BYTES is 413 payload_too_large", async () => {
    const { key } = await newKey(server);
    const res = await post(server, "/v1/parse", key, form(new Uint8Array(300_000)));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error_class: string }).error_class).toBe("payload_too_large");
  }, 60_000);
});

describe("result retention", () => {
  test("poll, result, stream and cancel answer 404 job_expired once the TTL has passed; anyone else's key still not_found", async () => {
    const { key } = await newKey(server);
    const other = await newKey(server);
    const created = await submit(server, key, form(await sample("firstbank.pdf")), "?format=csv");
    const done = await waitFinished(server, key, created.job_id);
    expect(done.state).toBe("done");
    expect((await get(server, done.result_url!, key)).status).toBe(200);
    await Bun.sleep(1500);
    const errorClass = async (res: Response) => {
      expect(res.status).toBe(404);
      return ((await res.json()) as { error_class: string }).error_class;
    };
    expect(await errorClass(await get(server, created.poll_url, key))).toBe("job_expired");
    expect(await errorClass(await get(server, done.result_url!, key))).toBe("job_expired");
    expect(await errorClass(await server.fetch(created.stream_url))).toBe("job_expired");
    expect(await errorClass(await server.fetch(created.poll_url, { method: "DELETE", headers: { authorization: `Bearer ${key}` } }))).toBe("job_expired");
    expect(await errorClass(await get(server, created.poll_url, other.key))).toBe("not_found");
    expect(await errorClass(await get(server, "/v1/parse/jobs/job_0000000000000000000000", key))).toBe("not_found");
  }, 60_000);
});
