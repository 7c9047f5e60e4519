import { describe, expect, test } from "bun:test";
import { Contract } from "../helpers/contract.ts";
import { startTestServer } from "../helpers/server.ts";

// The checker every test response goes through (test/helpers/server.ts): it must catch drift.
const server = await startTestServer();
const contract = await Contract.load(server.url);
const url = (path: string) => server.url + path;
const json = (body: unknown, status = 200, type = "application/json") => new Response(JSON.stringify(body), { status, headers: { "content-type": type } });
const envelope = { error: "x", error_class: "not_found", format_version: "1", marker_coverage: 0 };
const snapshot = { job_id: "job_x", state: "running", result_kind: "json", progress: { stage: "extract", current: 1, total: 2 }, format_version: "1", redactions: 0, sample: false };

describe("the contract checker", () => {
  test("accepts a response that matches its operation", async () => {
    expect(await contract.problems("GET", url("/v1/parse/jobs/job_x"), json(snapshot))).toBeUndefined();
    expect(await contract.problems("GET", url("/v1/parse/jobs/job_x"), json(envelope, 404))).toBeUndefined();
    expect(await contract.problems("DELETE", url("/v1/keys/key_1"), new Response(null, { status: 204 }))).toBeUndefined();
  });

  test("refuses an undeclared status, content type, field or missing field", async () => {
    expect(await contract.problems("GET", url("/v1/parse/jobs/job_x"), json(envelope, 418))).toContain("status not declared");
    expect(await contract.problems("GET", url("/v1/parse/jobs/job_x"), json(snapshot, 200, "text/plain"))).toContain('content type "text/plain" not declared');
    expect(await contract.problems("GET", url("/v1/parse/jobs/job_x"), json({ ...snapshot, surprise: 1 }))).toContain("must NOT have additional properties");
    const { progress: _p, ...partial } = snapshot;
    expect(await contract.problems("GET", url("/v1/parse/jobs/job_x"), json(partial))).toContain("must have required property 'progress'");
    expect(await contract.problems("GET", url("/v1/parse/jobs/job_x"), json({ ...snapshot, state: "paused" }))).toContain("must be equal to one of the allowed values");
  });

  test("a body-less status must come without a body; undescribed paths are not checked", async () => {
    expect(await contract.problems("DELETE", url("/v1/keys/key_1"), new Response("{}", { status: 204 }))).toContain("declared without a body");
    expect(await contract.problems("GET", url("/nowhere"), json({}, 404))).toBeUndefined();
  });

  test("the test server's fetch runs every answer through it", async () => {
    // A real answer passes; the wrapper would have thrown otherwise.
    expect((await server.fetch("/v1/parse/jobs/job_0000000000000000000000")).status).toBe(401);
  });
});
