import { describe, expect, test } from "bun:test";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer();

describe("health", () => {
  test("GET /healthz answers ok", async () => {
    const res = await server.fetch("/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
  test("unknown route gives the 404 envelope", async () => {
    const res = await server.fetch("/v1/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "No such route", error_class: "not_found", format_version: "1.0", marker_coverage: 0 });
  });
});
