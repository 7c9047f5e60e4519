/**
 * What is made from a kept result (a job's insights) is made once and kept beside it, counted in
 * the job's size in the store's byte budget (src/jobs/result-formats.ts keptBeside, src/jobs/store.ts).
 */
import { expect, test } from "bun:test";
import { Job } from "../../src/jobs/job.ts";
import { keptBeside } from "../../src/jobs/result-formats.ts";
import { JobStore } from "../../src/jobs/store.ts";

function doneJob(id: string, json: string): Job {
  const job = new Job(id, "owner-a", "json");
  job.succeed({ kind: "json", json });
  return job;
}

test("made once, shared by readers, counted in the job's size; a failure is not kept", async () => {
  const store = new JobStore({ ttlMs: 60_000, maxBytes: 10_000_000 });
  const job = doneJob("job_a", JSON.stringify({ transactions: [] }));
  store.settle(job);
  const before = store.heldBytes;
  let made = 0;
  const make = async () => {
    made++;
    return { kind: "json" as const, json: "x".repeat(1000) };
  };
  const outcome = job.outcome!;
  const [a, b] = await Promise.all([keptBeside(outcome, "insights:json", make), keptBeside(outcome, "insights:json", make)]);
  expect(a).toBe(b as never);
  expect(made).toBe(1);
  expect(store.heldBytes).toBe(before + 2000);
  expect(store.get("job_a")).toBe(job);
  await expect(keptBeside(outcome, "insights:csv", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  expect((await keptBeside(outcome, "insights:csv", async () => ({ kind: "json", json: "y" })))?.kind).toBe("json");
  store.close();
});

test("an owner's budget still holds: a result grown by its insights pushes out that owner's older results", async () => {
  const store = new JobStore({ ttlMs: 60_000, maxBytes: 100_000 });
  const old = doneJob("job_old", "o".repeat(20_000));
  const fresh = doneJob("job_new", "n".repeat(20_000));
  store.settle(old);
  store.settle(fresh);
  expect(store.finishedCount).toBe(2);
  await keptBeside(fresh.outcome!, "insights:json", async () => ({ kind: "json", json: "i".repeat(20_000) }));
  expect(store.get("job_new")).toBe(fresh);
  expect(store.get("job_old")).toBeUndefined();
  expect(store.heldBytes).toBeLessThanOrEqual(100_000);
  store.close();
});
