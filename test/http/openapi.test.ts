import { describe, expect, test } from "bun:test";
import { validate } from "@readme/openapi-parser";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { REDACTED_MEDIA_TYPES } from "../../src/http/schemas.ts";
import { HTML_XLS_CONTENT_TYPE, PDF_CONTENT_TYPE, SPREADSHEETML_CONTENT_TYPE, XLSX_CONTENT_TYPE } from "../../src/engine/redact/index.ts";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer();

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  parameters?: { name: string; in: string }[];
  responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
}
interface Schema {
  $ref?: string;
  properties?: Record<string, unknown>;
  required?: string[];
  additionalProperties?: unknown;
  anyOf?: Schema[];
  [k: string]: unknown;
}
type Spec = {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
};

const res = await server.fetch("/openapi.json");
const spec = (await res.json()) as Spec;
const op = (path: string, method: string): Operation => {
  const o = spec.paths[path]?.[method];
  if (!o) throw new Error(`${method.toUpperCase()} ${path} is not in /openapi.json`);
  return o;
};
const statuses = (o: Operation) => Object.keys(o.responses).sort();
/** A schema with its top-level $ref to components followed. */
const deref = (s: Schema | undefined): Schema | undefined => (s?.$ref ? deref(spec.components.schemas[s.$ref.replace("#/components/schemas/", "")]) : s);
const props = (o: Operation, status: string) => Object.keys(deref(o.responses[status]?.content?.["application/json"]?.schema)?.properties ?? {}).sort();
const text = JSON.stringify(spec);

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
    expect(props(o, "401")).toEqual(["error", "error_class", "format_version", "marker_coverage", "request_id"]);
    expect(props(o, "403")).toEqual(["error", "error_class", "format_version", "marker_coverage", "request_id"]);
    expect(props(o, "422")).toEqual(["detail", "request_id"]);
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

describe("/openapi.json is a valid OpenAPI 3.1 document (issue 16)", () => {
  test("a maintained validator (@readme/openapi-parser) accepts it", async () => {
    const result = await validate(structuredClone(spec) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(spec.openapi).toBe("3.1.0");
  });

  test("Redocly's recommended rules find no error (warnings: no license, no 4XX on the health checks)", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: text, absoluteRef: "/openapi.json", config });
    expect(problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  test("named schemas under components.schemas, referenced from the operations, no $schema or $defs noise", () => {
    for (const name of ["ParseResponse", "Transaction", "Metadata", "Checks", "AccountSection", "Integrity", "IntegritySignal", "ErrorEnvelope", "ValidationError", "ValidationIssue", "JobSnapshot", "JobCreated", "JobProgress", "UsageRecord", "OwnerUsage", "ApiKey", "IssuedApiKey", "ApiKeyList"]) {
      expect(spec.components.schemas[name]).toBeObject();
    }
    expect(text).not.toContain('"$schema"');
    expect(text).not.toContain("$defs");
    expect(text).not.toContain("x-media-types");
    expect(op("/v1/parse/jobs/{id}", "get").responses["200"]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/JobSnapshot" });
    expect(op("/v1/usage", "get").responses["401"]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/ErrorEnvelope" });
  });

  test("Checks carries the agreed additive fields; the ones that may be absent are optional", () => {
    const checks = spec.components.schemas.Checks!;
    for (const f of ["notes", "opening_balance_source", "kobo_rounding_rows", "marker_coverage"]) expect(Object.keys(checks.properties ?? {})).toContain(f);
    expect(checks.required).toContain("notes");
    expect(checks.required).not.toContain("kobo_rounding_rows");
    expect(checks.required).not.toContain("marker_coverage");
    const response = spec.components.schemas.ParseResponse!;
    expect(response.required).not.toContain("accounts");
    expect(response.required).not.toContain("integrity");
    // Engine objects are open: a field added later must not break a client validating with this document.
    expect(response.additionalProperties).toBeUndefined();
    expect(checks.additionalProperties).toBeUndefined();
  });

  test("public operations say security: []; key and admin operations name their scheme", () => {
    for (const [path, method] of [["/healthz", "get"], ["/readyz", "get"], ["/v1/status", "get"], ["/v1/parse/jobs/{id}/stream", "get"], ["/v1/billing/paystack/webhook", "post"]] as const) {
      expect(op(path, method).security).toEqual([]);
    }
    expect(op("/v1/parse/jobs/{id}", "delete").security).toEqual([{ apiKey: [] }]);
    expect(spec.servers?.length).toBeGreaterThan(0);
  });

  test("every media type the server sends: csv, redacted documents, the event stream, and a body-less 204", () => {
    const sync = op("/v1/parse", "post").responses["200"]?.content ?? {};
    expect(Object.keys(sync).sort()).toEqual(["application/json", "text/csv", ...REDACTED_MEDIA_TYPES].sort());
    expect(sync["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/ParseResponse" });
    expect(sync["text/csv"]?.schema.type).toBe("string");
    expect(sync["application/pdf"]?.schema).toMatchObject({ type: "string", contentMediaType: "application/pdf" });
    expect(Object.keys(op("/v1/parse/jobs/{id}/result", "get").responses["200"]?.content ?? {}).sort()).toEqual(Object.keys(sync).sort());
    const stream = op("/v1/parse/jobs/{id}/stream", "get").responses;
    expect(Object.keys(stream["200"]?.content ?? {})).toEqual(["text/event-stream"]);
    expect(stream["204"]).not.toHaveProperty("content");
    expect(op("/v1/keys/{key_id}", "delete").responses["204"]).not.toHaveProperty("content");
  });

  test("the headers clients act on: Retry-After on 429/503, X-Redactions and X-Sample on a parse result", () => {
    const parse = op("/v1/parse", "post").responses as Record<string, { headers?: Record<string, unknown> }>;
    expect(Object.keys(parse["429"]?.headers ?? {})).toEqual(["Retry-After"]);
    expect(Object.keys(parse["503"]?.headers ?? {})).toEqual(["Retry-After"]);
    expect(Object.keys(parse["200"]?.headers ?? {}).sort()).toEqual(["X-Redactions", "X-Sample"]);
  });

  test("the redacted media types are the ones the redaction engine sends", () => {
    for (const t of [PDF_CONTENT_TYPE, XLSX_CONTENT_TYPE, HTML_XLS_CONTENT_TYPE, SPREADSHEETML_CONTENT_TYPE]) expect(REDACTED_MEDIA_TYPES as readonly string[]).toContain(t);
  });

  test("DELETE /v1/parse/jobs/{id} and the result format parameter are described", () => {
    const del = op("/v1/parse/jobs/{id}", "delete");
    expect(statuses(del)).toEqual(["200", "401", "404", "409", "422", "500"]);
    expect(del.responses["200"]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/JobSnapshot" });
    const format = op("/v1/parse/jobs/{id}/result", "get").parameters?.find((p) => p.name === "format") as { in: string; schema: { enum: string[] } } | undefined;
    expect(format?.in).toBe("query");
    expect(format?.schema.enum).toEqual(["json", "csv", "xlsx"]);
  });
});

const quiet = await startTestServer({ DOCS_ENABLED: "false" });
describe("DOCS_ENABLED=false", () => {
  test("hides the docs page but still serves /openapi.json", async () => {
    expect((await quiet.fetch("/docs")).status).toBe(404);
    expect((await quiet.fetch("/openapi.json")).status).toBe(200);
  });
});
