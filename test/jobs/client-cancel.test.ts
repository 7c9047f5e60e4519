import { describe, expect, test } from "bun:test";
import { createClient, JobFinishedError, type JobEvent } from "../../src/client/index.ts";
import { contractFetch, startTestServer } from "../helpers/server.ts";
import { makeStatementPdf } from "./support/statement-pdf.ts";
import { newKey, sample } from "./support/http.ts";

// The typed client against a real server; one worker so a long document keeps it busy.
const server = await startTestServer({ WORKERS: "1", TEST_MONTHLY_CAP: "100000" });
const long = await makeStatementPdf({ pages: 150 });

describe("the client's parseJob cancels the job when its signal aborts", () => {
  test("aborting after the first page sends DELETE: the job ends job_cancelled and is not counted", async () => {
    const { key } = await newKey(server);
    const client = createClient({ baseUrl: server.url, apiKey: key, fetch: contractFetch });
    const stop = new AbortController();
    let jobId = "";
    const seen: JobEvent["type"][] = [];
    const reason = new Error("the user pressed cancel");
    const outcome = await (async () => {
      for await (const e of client.parseJob(long, { signal: stop.signal })) {
        seen.push(e.type);
        if (e.type === "created") jobId = e.jobId;
        if (e.type === "progress" && e.current >= 1) stop.abort(reason);
      }
    })().catch((x: unknown) => x);
    expect(outcome).toBe(reason);
    expect(seen).not.toContain("result");
    // parseJob rethrows only once its DELETE has been answered.
    const snap = await client.job(jobId);
    expect(snap).toMatchObject({ state: "failed", error_class: "job_cancelled" });
    expect((await client.usage()).period_parses).toBe(0);
  }, 120_000);

  test("cancel(jobId) on a finished job is JobFinishedError (409)", async () => {
    const { key } = await newKey(server);
    const client = createClient({ baseUrl: server.url, apiKey: key, fetch: contractFetch });
    let jobId = "";
    for await (const e of client.parseJob(await sample("firstbank.pdf"))) if (e.type === "created") jobId = e.jobId;
    const e = await client.cancel(jobId).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(JobFinishedError);
    expect((e as JobFinishedError).status).toBe(409);
  }, 120_000);
});
