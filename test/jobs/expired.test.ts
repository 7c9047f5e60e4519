import { describe, expect, test } from "bun:test";
import { RememberedJobs } from "../../src/jobs/expired.ts";

describe("RememberedJobs", () => {
  test("remembers which owner held a job id, for that owner (or any, for the stream)", () => {
    const r = new RememberedJobs();
    r.remember("job_a", "acme");
    expect(r.held("job_a", "acme")).toBe(true);
    expect(r.held("job_a")).toBe(true);
    expect(r.held("job_a", "other")).toBe(false);
    expect(r.held("job_b", "acme")).toBe(false);
  });

  test("is bounded: past its size the oldest ids are forgotten", () => {
    const r = new RememberedJobs(2);
    for (const id of ["job_1", "job_2", "job_3"]) r.remember(id, "acme");
    expect(["job_1", "job_2", "job_3"].map((id) => r.held(id))).toEqual([false, true, true]);
  });
});
