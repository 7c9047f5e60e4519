import { describe, expect, test } from "bun:test";
import { startTestServer } from "../helpers/server.ts";
import { makeStatementPdf } from "./support/statement-pdf.ts";
import { form, get, newKey, submit, waitFinished } from "./support/http.ts";

/**
 * Issue 15 item 11 over HTTP: a capped test key flooding the server with jobs (the canned sample
 * past its cap) used to evict another tenant's finished result from the one global LRU inside
 * its TTL. Each owner now has its share of JOB_CACHE_MAX_BYTES and samples share one result.
 */
const server = await startTestServer({ TEST_MONTHLY_CAP: "1", JOB_CACHE_MAX_BYTES: String(256 * 1024), JOB_CACHE_OWNER_MAX_BYTES: String(64 * 1024), JOB_RESULT_TTL_S: "600", MAX_INFLIGHT_PER_KEY: "64" });

describe("job result cache fairness", () => {
  test("600 sample jobs of one owner leave another owner's finished result readable", async () => {
    const tenant = await newKey(server);
    const flooder = await newKey(server);
    const mine = await submit(server, tenant.key, form(await makeStatementPdf({ pages: 1 })));
    expect((await waitFinished(server, tenant.key, mine.job_id)).state).toBe("done");

    const tiny = await makeStatementPdf({ pages: 1 });
    let samples = 0;
    for (let batch = 0; batch < 20; batch++) {
      const created = await Promise.all(Array.from({ length: 30 }, () => submit(server, flooder.key, form(tiny))));
      for (const c of created) {
        const snap = await waitFinished(server, flooder.key, c.job_id);
        if (snap.sample) samples++;
      }
    }
    expect(samples).toBeGreaterThanOrEqual(599);

    const res = await get(server, `/v1/parse/jobs/${mine.job_id}/result`, tenant.key);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { transactions: unknown[] }).transactions.length).toBe(22);
  }, 120_000);
});
