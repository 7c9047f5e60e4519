import { z } from "zod";
import { MEDIA_TYPES_KEYWORD, REDACTED_MEDIA_TYPES } from "./schemas.ts";

/**
 * Turns what @elysiajs/openapi generates from the routes into a valid OpenAPI 3.1 document:
 * named schemas under `components.schemas` (zod schemas with `.meta({ id })`), no JSON Schema
 * `$schema` noise, `security: []` on the public operations, `servers`, and every response under
 * the media types the server really sends (CSV, redacted documents, event streams, 204 without
 * content). Pure functions over plain JSON, tested in test/http/openapi-document.test.ts.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

const COMPONENT_PREFIX = "#/components/schemas/";
const DEFS_PREFIX = "#/$defs/";
const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * A zod → JSON Schema converter for the plugin's `mapJsonSchema`, that moves every named schema
 * (`.meta({ id })`) into `components` (collected in `defs`) and points `$ref`s there.
 */
export function zodConverter(defs: Map<string, JsonObject>): (schema: unknown) => JsonObject {
  return (schema) => {
    const out = z.toJSONSchema(schema as z.ZodType, { target: "draft-2020-12", unrepresentable: "any" }) as JsonObject;
    const lifted = out.$defs;
    delete out.$defs;
    if (isObject(lifted)) for (const [id, def] of Object.entries(lifted)) if (isObject(def)) defs.set(id, rewriteRefs(def) as JsonObject);
    return rewriteRefs(out) as JsonObject;
  };
}

/** Points `#/$defs/X` at `#/components/schemas/X` and drops `$schema` and empty `additionalProperties`. */
function rewriteRefs(v: Json): Json {
  if (Array.isArray(v)) return v.map(rewriteRefs);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, child] of Object.entries(v)) {
    if (k === "$schema" || k === "$id") continue;
    // `additionalProperties: {}` (zod's looseObject) says what leaving it out says.
    if (k === "additionalProperties" && isObject(child) && Object.keys(child).length === 0) continue;
    if (k === "$ref" && typeof child === "string" && child.startsWith(DEFS_PREFIX)) out[k] = COMPONENT_PREFIX + child.slice(DEFS_PREFIX.length);
    else out[k] = rewriteRefs(child);
  }
  return out;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Reason phrases (RFC 9110 and friends) for responses the plugin described only as "Response for status N". */
const REASONS: Record<string, string> = {
  "200": "OK",
  "202": "Accepted",
  "204": "No Content",
  "401": "Unauthorized: missing, unknown or revoked credentials",
  "402": "Payment Required: no active subscription",
  "403": "Forbidden",
  "404": "Not Found",
  "408": "Request Timeout",
  "409": "Conflict",
  "413": "Content Too Large",
  "422": "Unprocessable Content: the validation body, or the envelope of an engine error",
  "429": "Too Many Requests (Retry-After)",
  "500": "Internal Server Error",
  "502": "Bad Gateway: the payment provider failed",
  "503": "Service Unavailable (Retry-After)",
};

export interface FinishOptions {
  servers: { url: string; description?: string }[];
  /** Named schemas collected while converting (see zodConverter). */
  schemas: Map<string, JsonObject>;
}

/** The generated document, finished as described at the top of this module. */
export function finishDocument(raw: JsonObject, { servers, schemas }: FinishOptions): JsonObject {
  const doc = rewriteRefs(raw) as JsonObject;
  const components = isObject(doc.components) ? doc.components : {};
  const named: JsonObject = isObject(components.schemas) ? { ...components.schemas } : {};
  for (const id of [...schemas.keys()].sort()) named[id] = stripMarkers(schemas.get(id) as JsonObject);
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (isObject(op)) finishOperation(op);
    }
  }
  return { openapi: doc.openapi ?? "3.1.0", info: doc.info ?? {}, servers, ...doc, components: { ...components, schemas: named } };
}

function finishOperation(op: JsonObject): void {
  // An operation without security inherits the document's; say "none" outright.
  if (!Array.isArray(op.security)) op.security = [];
  const responses = isObject(op.responses) ? op.responses : {};
  for (const [status, response] of Object.entries(responses)) {
    if (!isObject(response)) continue;
    if (typeof response.description !== "string" || /^Response for status \d+$/.test(response.description)) {
      response.description = REASONS[status] ?? `Status ${status}`;
    }
    if (status === "204" || status === "304") {
      delete response.content;
      continue;
    }
    const schema = schemaOf(response.content);
    if (schema) response.content = contentFor(schema);
    const headers = headersFor(status, response.content);
    if (headers) response.headers = { ...(isObject(response.headers) ? response.headers : {}), ...headers };
  }
}

const integerHeader = (description: string): JsonObject => ({ description, schema: { type: "integer", minimum: 0 } });

/** The response headers clients act on: Retry-After on 429/503, and those of a parse result. */
function headersFor(status: string, content: Json | undefined): JsonObject | undefined {
  if (status === "429" || status === "503") return { "Retry-After": integerHeader("Seconds to wait before retrying") };
  if (status !== "200" || !isObject(content)) return undefined;
  const types = Object.keys(content);
  if (!REDACTED_MEDIA_TYPES.some((t) => types.includes(t))) return undefined;
  return {
    "X-Redactions": integerHeader("Redacted documents only: how many values were blacked out"),
    "X-Sample": { description: "`true` when the canned sample statement was returned instead of a parse (past a free monthly cap)", schema: { type: "string", enum: ["true"] } },
  };
}

/** The schema the plugin put under application/json or text/plain. */
function schemaOf(content: Json | undefined): JsonObject | undefined {
  if (!isObject(content)) return undefined;
  for (const media of Object.values(content)) if (isObject(media) && isObject(media.schema)) return media.schema;
  return undefined;
}

const mediaTypesOf = (s: JsonObject): string[] | undefined => {
  const m = s[MEDIA_TYPES_KEYWORD];
  return Array.isArray(m) ? m.filter((t): t is string => typeof t === "string") : undefined;
};

function stripMarkers(v: JsonObject): JsonObject {
  const { [MEDIA_TYPES_KEYWORD]: _markers, ...rest } = v;
  return rest;
}

/**
 * One `content` entry per media type: the alternatives of a union marked with media types go to
 * those types (binary ones as `contentMediaType` strings), the rest stay application/json.
 */
function contentFor(schema: JsonObject): JsonObject {
  const alternatives = Array.isArray(schema.anyOf) && schema.anyOf.every(isObject) ? (schema.anyOf as JsonObject[]) : [schema];
  const json: JsonObject[] = [];
  const content: JsonObject = {};
  for (const alt of alternatives) {
    const types = mediaTypesOf(alt);
    if (!types) {
      json.push(alt);
      continue;
    }
    for (const type of types) {
      const text = type.startsWith("text/");
      content[type] = { schema: text ? stripMarkers(alt) : { ...stripMarkers(alt), contentMediaType: type } };
    }
  }
  if (json.length > 0) {
    const { anyOf: _a, ...shared } = schema;
    const one = json.length === 1 ? (json[0] as JsonObject) : { anyOf: json };
    return { "application/json": { schema: alternatives.length === 1 ? one : { ...shared, ...one } }, ...content };
  }
  return content;
}
