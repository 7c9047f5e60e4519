import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/errors.ts";
import { Job } from "../../src/jobs/job.ts";
import { JobStore } from "../../src/jobs/store.ts";
import { sampleResponse } from "../../src/metering/sample.ts";
import { sampleResult } from "../../src/jobs/service.ts";

const finished = (id: string, owner = "o") => {
  const job = new Job(id, owner, "json");
  job.succeed({ kind: "json", json: JSON.stringify(sampleResponse()) });
  return job;
};

describe("JobStore", () => {
  test("unfinished jobs are never evicted; finished ones expire and the sweep drops them", async () => {
    const store = new JobStore({ ttlMs: 50, maxBytes: 10_000_000 });
    const waiting = new Job("job_waiting", "o", "json");
    store.add(waiting);
    store.settle(finished("job_a"));
    expect(store.finishedCount).toBe(1);
    expect(store.getOwned("job_a", "o")?.state).toBe("done");
    expect(store.getOwned("job_a", "someone-else")).toBeUndefined();
    await Bun.sleep(120);
    store.sweep();
    expect(store.finishedCount).toBe(0);
    expect(store.get("job_a")).toBeUndefined();
    expect(store.get("job_waiting")).toBe(waiting);
    store.close();
  });

  test("the byte budget evicts the least recently used finished job", () => {
    const one = finished("job_1").size();
    const store = new JobStore({ ttlMs: 60_000, maxBytes: Math.floor(one * 2.5) });
    store.settle(finished("job_1"));
    store.settle(finished("job_2"));
    store.get("job_1"); // now the most recently used
    store.settle(finished("job_3"));
    expect(store.get("job_2")).toBeUndefined();
    expect(store.get("job_1")).toBeDefined();
    expect(store.get("job_3")).toBeDefined();
    store.close();
  });
});

describe("JobStore fairness (issue 15 item 11)", () => {
  const sampleJob = (id: string, owner: string) => {
    const job = new Job(id, owner, "json");
    job.succeed(sampleResult("json"), true);
    return job;
  };

  test("70,000 sample jobs and 100 results of one owner never evict another owner's result inside its TTL", () => {
    const one = finished("job_size").size();
    const store = new JobStore({ ttlMs: 60_000, maxBytes: one * 20, ownerMaxBytes: one * 5 });
    store.settle(finished("job_theirs", "tenant-b"));
    for (let i = 0; i < 70_000; i++) store.settle(sampleJob(`job_s${i}`, "tenant-a"));
    for (let i = 0; i < 100; i++) store.settle(finished(`job_r${i}`, "tenant-a"));
    expect(store.getOwned("job_theirs", "tenant-b")?.state).toBe("done");
    // tenant-a's own newest results are kept within its share, its oldest went first.
    expect(store.get("job_r99")).toBeDefined();
    expect(store.get("job_r0")).toBeUndefined();
    expect(store.heldBytes).toBeLessThanOrEqual(one * 20);
    store.close();
  });

  test("sample jobs share one canned result and count only their small record, not the result's bytes", () => {
    expect(sampleResult("json")).toBe(sampleResult("json"));
    expect(sampleResult("csv")).toBe(sampleResult("csv"));
    const store = new JobStore({ ttlMs: 60_000, maxBytes: 10_000_000 });
    for (let i = 0; i < 1000; i++) store.settle(sampleJob(`job_s${i}`, "capped"));
    const resultBytes = JSON.stringify(sampleResponse()).length;
    expect(store.finishedCount).toBe(1000);
    expect(store.heldBytes).toBeLessThan(1000 * resultBytes);
    store.close();
  });

  test("a result still expires at its TTL whoever owns it", async () => {
    const store = new JobStore({ ttlMs: 50, maxBytes: 10_000_000, ownerMaxBytes: 1_000_000 });
    store.settle(finished("job_old", "tenant-c"));
    await Bun.sleep(120);
    store.sweep();
    expect(store.get("job_old")).toBeUndefined();
    expect(store.heldBytes).toBe(0);
    store.close();
  });
});

describe("Job", () => {
  test("snapshotJson splices the worker's JSON in as `result` once done", () => {
    const job = new Job("job_y", "o", "json");
    expect(JSON.parse(job.snapshotJson())).toEqual(job.snapshot());
    job.succeed({ kind: "json", json: JSON.stringify(sampleResponse()) });
    const parsed = JSON.parse(job.snapshotJson());
    expect(parsed.state).toBe("done");
    expect(parsed.result).toEqual(sampleResponse());
    expect(parsed.job_id).toBe("job_y");
  });

  test("progress only moves forward within a stage; result and error fields appear only in their state", () => {
    const job = new Job("job_x", "o", "csv");
    const seen: string[] = [];
    job.subscribe((e) => seen.push(`${e.id}:${e.event ?? "message"}:${e.data}`));
    job.report({ stage: "extract", current: 2, total: 3 });
    job.report({ stage: "extract", current: 1, total: 3 }); // late, dropped
    job.report({ stage: "assemble", current: 0, total: 1 });
    expect(job.snapshot()).not.toHaveProperty("result");
    expect(job.snapshot().result_url).toBe("/v1/parse/jobs/job_x/result");
    job.fail(new AppError("parse_timeout", 422, "too slow"));
    job.succeed({ kind: "json", json: JSON.stringify(sampleResponse()) }); // ignored: already finished
    const snap = job.snapshot();
    expect(snap.state).toBe("failed");
    expect(snap.error_class).toBe("parse_timeout");
    expect(snap).not.toHaveProperty("result");
    expect(seen.map((s) => s.split(":").slice(0, 2).join(":"))).toEqual(["1:message", "2:message", "3:result"]);
    expect(job.replay().map((e) => e.event)).toEqual(["result"]);
  });
});
