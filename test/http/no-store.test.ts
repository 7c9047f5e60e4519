import { describe, expect, test } from "bun:test";
import { startTestServer } from "../helpers/server.ts";
import { form, get, newKey, post, sample, submit, waitFinished } from "../jobs/support/http.ts";

/**
 * Issue 29 item 16: every response that carries statement data says `Cache-Control: no-store`, so
 * no browser, proxy or CDN keeps a copy: the sync parse (json, csv, redacted bytes), the job's
 * poll (its snapshot holds the result), its result in every format, and its SSE stream.
 */
const server = await startTestServer({ TEST_MONTHLY_CAP: "100", MAX_INFLIGHT_PER_KEY: "16" });
const pdf = await sample("firstbank.pdf");

const noStore = (res: Response, what: string) => expect({ what, status: res.status, cacheControl: res.headers.get("cache-control") }).toEqual({ what, status: 200, cacheControl: "no-store" });

describe("Cache-Control: no-store on statement data", () => {
  test("sync parse: json, csv and redact", async () => {
    const { key } = await newKey(server);
    for (const [query, fields] of [["", {}], ["?format=csv", {}], ["", { redact: "true" }]] as const) {
      const res = await post(server, `/v1/parse${query}`, key, form(pdf, fields));
      noStore(res, `POST /v1/parse${query} ${JSON.stringify(fields)}`);
      await res.arrayBuffer();
    }
  });

  test("job poll, result (json and csv) and stream", async () => {
    const { key } = await newKey(server);
    const { job_id, poll_url, stream_url } = await submit(server, key, form(pdf));
    await waitFinished(server, key, job_id);
    const poll = await get(server, poll_url, key);
    noStore(poll, "poll");
    expect(((await poll.json()) as { state: string }).state).toBe("done");
    for (const q of ["", "?format=csv"]) {
      const res = await get(server, `${poll_url}/result${q}`, key);
      noStore(res, `result${q}`);
      await res.arrayBuffer();
    }
    const stream = await get(server, stream_url);
    noStore(stream, "stream");
    expect(await stream.text()).toContain("event: result");
  });
});
