import { describe, expect, test } from "bun:test";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer();

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  parameters?: { name: string; in: string }[];
  responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
}
type Spec = { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, Operation>> };

const res = await server.fetch("/openapi.json");
const spec = (await res.json()) as Spec;
const op = (path: string, method: string): Operation => {
  const o = spec.paths[path]?.[method];
  if (!o) throw new Error(`${method.toUpperCase()} ${path} is not in /openapi.json`);
  return o;
};
const statuses = (o: Operation) => Object.keys(o.responses).sort();
const props = (o: Operation, status: string) => Object.keys(o.responses[status]?.content?.["application/json"]?.schema.properties ?? {}).sort();

describe("GET /openapi.json", () => {
  test("is an OpenAPI 3 document titled for the service", () => {
    expect(res.status).toBe(200);
    expect(spec.openapi).toMatch(/^3\./);
    expect(spec.info.title).toBe("Statement parsing service");
  });

  test("describes the health, status, banks and key routes", () => {
    for (const [path, method] of [
      ["/healthz", "get"],
      ["/readyz", "get"],
      ["/v1/status", "get"],
      ["/v1/banks", "get"],
      ["/v1/keys", "post"],
      ["/v1/keys", "get"],
      ["/v1/keys/test", "post"],
      ["/v1/keys/{key_id}", "delete"],
    ] as const) {
      expect(op(path, method).summary).toBeString();
    }
  });

  test("does not list its own plumbing (the spec and docs routes)", () => {
    expect(spec.paths["/openapi.json"]).toBeUndefined();
    expect(spec.paths["/docs"]).toBeUndefined();
  });

  test("POST /v1/keys declares its body and 200, 401, 403, 413, 422 with the right shapes", () => {
    const o = op("/v1/keys", "post");
    expect(Object.keys(o.requestBody?.content["application/json"]?.schema.properties as object).sort()).toEqual(["name", "owner", "tier"]);
    expect(o.requestBody?.content["application/json"]?.schema.additionalProperties).toBe(false);
    for (const s of ["200", "401", "403", "413", "422"]) expect(statuses(o)).toContain(s);
    expect(props(o, "200")).toEqual(["id", "key", "name", "prefix", "tier"]);
    expect(props(o, "401")).toEqual(["error", "error_class", "format_version", "marker_coverage"]);
    expect(props(o, "403")).toEqual(["error", "error_class", "format_version", "marker_coverage"]);
    expect(props(o, "422")).toEqual(["detail"]);
    expect(o.security).toEqual([{ adminToken: [] }]);
  });

  test("DELETE /v1/keys/{key_id} declares 204, 404 and 422 and its path parameter", () => {
    const o = op("/v1/keys/{key_id}", "delete");
    for (const s of ["204", "401", "403", "404", "422"]) expect(statuses(o)).toContain(s);
    expect(o.parameters?.some((p) => p.name === "key_id" && p.in === "path")).toBe(true);
  });

  test("GET /v1/keys declares the owner query and the listing shape", () => {
    const o = op("/v1/keys", "get");
    expect(o.parameters?.some((p) => p.name === "owner" && p.in === "query")).toBe(true);
    expect(props(o, "200")).toEqual(["keys"]);
  });

  test("the key admin routes document the optional authorization header (SPEC 5.4)", () => {
    for (const [path, method] of [["/v1/keys", "post"], ["/v1/keys", "get"], ["/v1/keys/test", "post"], ["/v1/keys/{key_id}", "delete"]] as const) {
      const header = op(path, method).parameters?.find((p) => p.in === "header" && p.name === "authorization") as
        | { required?: boolean; schema?: { type?: string[] } }
        | undefined;
      expect(header?.required).toBe(false);
      expect(header?.schema?.type).toEqual(["string", "null"]);
    }
  });

  test("GET /v1/banks is key-authenticated and declares 401", () => {
    const o = op("/v1/banks", "get");
    expect(o.security).toEqual([{ apiKey: [] }]);
    expect(statuses(o)).toContain("401");
    expect(props(o, "200")).toEqual(["banks", "engine_version", "format_version"]);
  });

  test("GET /readyz declares 503", () => {
    expect(statuses(op("/readyz", "get"))).toEqual(["200", "503"]);
  });

  test("every /v1 operation declares at least one error status", () => {
    for (const [path, item] of Object.entries(spec.paths)) {
      if (!path.startsWith("/v1/")) continue;
      for (const [method, o] of Object.entries(item)) {
        const errors = statuses(o).filter((s) => Number(s) >= 400);
        expect({ route: `${method} ${path}`, errors: errors.length > 0 }).toEqual({ route: `${method} ${path}`, errors: true });
      }
    }
  });
});

const quiet = await startTestServer({ DOCS_ENABLED: "false" });
describe("DOCS_ENABLED=false", () => {
  test("hides the docs page but still serves /openapi.json", async () => {
    expect((await quiet.fetch("/docs")).status).toBe(404);
    expect((await quiet.fetch("/openapi.json")).status).toBe(200);
  });
});
