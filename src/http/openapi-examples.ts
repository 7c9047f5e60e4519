import { toCsv } from "../engine/csv.ts";
import { FORMAT_VERSION } from "../version.ts";
import { sampleResponse } from "../metering/sample.ts";
import type { JsonObject } from "./openapi-document.ts";

/**
 * What /openapi.json adds to every operation for people reading it (issue 27): who may call it
 * (an **Auth:** line leading the description), a request as a curl command (`x-codeSamples`, the
 * vendor extension Redoc and others render) and an example body for each response. Every example
 * is checked against its own schema by test/http/openapi-examples.test.ts.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const API_KEY_AUTH = "API key: `Authorization: Bearer stp_live_…` (or `stp_test_…`, `stp_fp_…`); any key of the owner. Revoked keys are refused at once (401).";
const ADMIN_AUTH = "Admin token: `Authorization: Bearer <ADMIN_TOKEN>` (set in the environment, or generated and printed once at first start). An API key gets 403.";
const NO_AUTH = "None.";

const JOB = "job_4bTz2QhVdX9wLk3mNp7RsA";
const KEY = "key_D0galuL2jvU7QxKX9aJ2KL";
const REQUEST_ID = "0b6f7c1e-3c2a-4f55-9a51-6f8e2d1c4b7a";
const AT = "2026-11-22T09:14:03.512Z";

const curl = (lines: string[]) => lines.join(" \\\n  ");
const bearer = (who: "key" | "admin") => `-H "Authorization: Bearer ${who === "key" ? "$STP_KEY" : "$ADMIN_TOKEN"}"`;

/** The canned sample statement: a real ParseResponse, so the example is what the engine answers. */
function parseExample(): JsonObject {
  return JSON.parse(JSON.stringify(sampleResponse())) as JsonObject;
}

function csvExample(): string {
  const lines = toCsv(sampleResponse()).split("\r\n");
  return `${lines.slice(0, 4).join("\r\n")}\r\n`;
}

const envelope = (errorClass: string, error: string): JsonObject => ({ error, error_class: errorClass, format_version: FORMAT_VERSION, marker_coverage: 0, request_id: REQUEST_ID });

/** One error example per status, for operations that do not name their own. */
const ERROR_EXAMPLES: Record<string, Json> = {
  "400": envelope("upload_aborted", "The upload ended before its last byte (the connection was closed)"),
  "401": envelope("auth_error", "Missing Authorization: Bearer <API key> header"),
  "402": envelope("subscription_inactive", "This key's owner has no active subscription"),
  "403": envelope("forbidden", "API keys cannot use admin endpoints"),
  "404": envelope("not_found", "No such job"),
  "408": envelope("upload_timeout", "No upload bytes arrived for 10 s; the upload was cut"),
  "409": envelope("conflict", "Conflict"),
  "413": envelope("payload_too_large", "The uploaded file is larger than 52428800 bytes"),
  "422": { detail: [{ loc: ["body", "pdf"], msg: "Field required", type: "missing", input: null, ctx: {} }], request_id: REQUEST_ID },
  "429": envelope("rate_limited", "Too many parses in flight for this key; retry shortly"),
  "500": envelope("internal_error", "Internal server error"),
  "502": envelope("payment_provider_error", "The payment provider did not answer"),
  "503": envelope("queue_full", "The parse queue is full; retry shortly"),
};

const snapshotDone = (): JsonObject => ({
  job_id: JOB,
  state: "done",
  result_kind: "json",
  progress: { stage: "assemble", current: 1, total: 1 },
  format_version: FORMAT_VERSION,
  redactions: 0,
  sample: false,
  client_reference: "loan-4471",
  result: parseExample(),
});

interface Extras {
  auth: string;
  curl: string;
  /** Request body example (JSON bodies). */
  request?: Json;
  /** Examples by status (and media type when not application/json). */
  responses: Record<string, Json | { media: string; example: Json }>;
}

function extras(): Record<string, Extras> {
  const sse = `id: 1\ndata: {"stage":"extract","current":1,"total":3}\n\nid: 4\nevent: result\ndata: {"format_version":"${FORMAT_VERSION}","metadata":{…},"transactions":[…]}\n\n`;
  return {
    "POST /v1/parse": {
      auth: API_KEY_AUTH,
      curl: curl([`curl -X POST "$BASE/v1/parse?format=json"`, bearer("key"), `-H "Idempotency-Key: $(uuidgen)"`, `-F pdf=@statement.pdf`]),
      responses: { "200": parseExample(), "200 text/csv": { media: "text/csv", example: csvExample() }, "409": envelope("idempotency_key_reused", "This Idempotency-Key was used with a different request in the last 24 h; use a new key for a new request") },
    },
    "POST /v1/parse/jobs": {
      auth: API_KEY_AUTH,
      curl: curl([`curl -X POST "$BASE/v1/parse/jobs?format=xlsx"`, bearer("key"), `-H "Idempotency-Key: $(uuidgen)"`, `-F pdf=@statement.pdf`, `-F client_reference=loan-4471`, `-F callback_url=https://example.com/hooks/statements`]),
      responses: {
        "202": { job_id: JOB, stream_url: `/v1/parse/jobs/${JOB}/stream`, poll_url: `/v1/parse/jobs/${JOB}` },
        "409": envelope("idempotency_in_progress", "A request with this Idempotency-Key is still in progress; retry once it has answered"),
      },
    },
    "GET /v1/parse/jobs": {
      auth: API_KEY_AUTH,
      curl: curl([`curl "$BASE/v1/parse/jobs?limit=2&state=done"`, bearer("key")]),
      responses: {
        "200": {
          jobs: [
            { job_id: JOB, state: "done", result_kind: "xlsx", client_reference: "loan-4471", error_class: null, sample: false, callback_state: "delivered", created_at: AT, finished_at: "2026-11-22T09:14:05.020Z" },
            { job_id: "job_9xQe1WmZc2VbN8hT4kLp0D", state: "done", result_kind: "json", client_reference: null, error_class: null, sample: false, callback_state: null, created_at: "2026-11-22T09:10:41.007Z", finished_at: "2026-11-22T09:10:42.311Z" },
          ],
          has_more: true,
        },
      },
    },
    "GET /v1/parse/jobs/{id}": { auth: `${API_KEY_AUTH} Another owner's job reads as unknown (404).`, curl: curl([`curl "$BASE/v1/parse/jobs/${JOB}"`, bearer("key")]), responses: { "200": snapshotDone(), "404": envelope("job_expired", "The job has expired: its result is no longer held; submit the document again") } },
    "DELETE /v1/parse/jobs/{id}": {
      auth: API_KEY_AUTH,
      curl: curl([`curl -X DELETE "$BASE/v1/parse/jobs/${JOB}"`, bearer("key")]),
      responses: {
        "200": { job_id: JOB, state: "failed", result_kind: "json", progress: { stage: "extract", current: 3, total: 40 }, format_version: FORMAT_VERSION, redactions: 0, sample: false, error: "The job was cancelled by its owner", error_class: "job_cancelled" },
        "409": envelope("job_finished", "The job has already finished (state done); there is nothing to cancel"),
      },
    },
    "GET /v1/parse/jobs/{id}/result": {
      auth: API_KEY_AUTH,
      curl: curl([`curl -o statement.xlsx "$BASE/v1/parse/jobs/${JOB}/result?format=xlsx"`, bearer("key")]),
      responses: { "200": parseExample(), "200 text/csv": { media: "text/csv", example: csvExample() } },
    },
    "GET /v1/parse/jobs/{id}/stream": {
      auth: "None: the unguessable job id is the capability (a browser EventSource cannot send headers).",
      curl: curl([`curl -N "$BASE/v1/parse/jobs/${JOB}/stream"`]),
      responses: { "200 text/event-stream": { media: "text/event-stream", example: sse }, "409": envelope("stream_in_use", "Another consumer is reading this job's stream") },
    },
    "GET /v1/banks": {
      auth: API_KEY_AUTH,
      curl: curl([`curl "$BASE/v1/banks"`, bearer("key")]),
      responses: { "200": { engine_version: "1.0.0", format_version: FORMAT_VERSION, banks: [{ id: "gtbank", name: "Guaranty Trust Bank", formats: ["pdf", "xlsx"] }] } },
    },
    "GET /v1/usage": {
      auth: API_KEY_AUTH,
      curl: curl([`curl "$BASE/v1/usage"`, bearer("key")]),
      responses: { "200": { api_key_id: KEY, tier: "starter", period_parses: 1052, monthly_cap: 1000, overage_parses: 52, projected_overage_naira: "780.00", parses_by_key_tier: { live: 1040, test: 12, first_party: 0 } } },
    },
    "GET /v1/status": {
      auth: NO_AUTH,
      curl: curl([`curl "$BASE/v1/status"`]),
      responses: { "200": { status: "ok", service_version: "1.0.0", engine_version: "1.0.0", format_version: FORMAT_VERSION, worker_threads: 4, billing: { enabled: false, provider: null } } },
    },
    "GET /healthz": { auth: NO_AUTH, curl: curl([`curl "$BASE/healthz"`]), responses: { "200": { status: "ok" } } },
    "GET /readyz": {
      auth: NO_AUTH,
      curl: curl([`curl "$BASE/readyz"`]),
      responses: { "200": { status: "ready", checks: { database: { ok: true }, engine_pool: { ok: true } } }, "503": { status: "not_ready", checks: { database: { ok: false, error: "database_unavailable" }, engine_pool: { ok: true } } } },
    },
    "POST /v1/keys": {
      auth: ADMIN_AUTH,
      curl: curl([`curl -X POST "$BASE/v1/keys"`, bearer("admin"), `-H "Content-Type: application/json"`, `-d '{"name":"backend","owner":"acme"}'`]),
      request: { name: "backend", owner: "acme", tier: "live" },
      responses: { "200": { id: KEY, key: "stp_live_GPzSW7XfvoZByn6c8WLj0asXJ1v1aaGn6", prefix: "stp_live_GPzS", name: "backend", tier: "live" } },
    },
    "GET /v1/keys": {
      auth: ADMIN_AUTH,
      curl: curl([`curl "$BASE/v1/keys?owner=acme"`, bearer("admin")]),
      responses: { "200": { keys: [{ id: KEY, name: "backend", prefix: "stp_live_GPzS", tier: "live", owner: "acme", created_at: AT, revoked_at: null }] } },
    },
    "POST /v1/keys/test": {
      auth: ADMIN_AUTH,
      curl: curl([`curl -X POST "$BASE/v1/keys/test"`, bearer("admin"), `-H "Content-Type: application/json"`, `-d '{"owner":"acme"}'`]),
      request: { owner: "acme" },
      responses: { "200": { id: KEY, key: "stp_test_Q2b8Xk0aZ7cV1nM4pL9sR3tY6uW5eH2jK", prefix: "stp_test_Q2b8", name: "test", tier: "test" } },
    },
    "DELETE /v1/keys/{key_id}": { auth: ADMIN_AUTH, curl: curl([`curl -X DELETE "$BASE/v1/keys/${KEY}"`, bearer("admin")]), responses: { "404": envelope("not_found", "No active key with this id") } },
    "GET /v1/admin/usage": {
      auth: ADMIN_AUTH,
      curl: curl([`curl "$BASE/v1/admin/usage?owner=acme"`, bearer("admin")]),
      responses: { "200": { owner: "acme", tier: "starter", period_parses: 1052, success_rate: 0.98, monthly_cap: 1000, overage_parses: 52, projected_overage_naira: "780.00", daily: [{ date: "2026-11-01", count: 31 }], parses_by_key_tier: { live: 1040, test: 12, first_party: 0 } } },
    },
    "POST /v1/admin/billing/subscribe": {
      auth: ADMIN_AUTH,
      curl: curl([`curl -X POST "$BASE/v1/admin/billing/subscribe"`, bearer("admin"), `-H "Content-Type: application/json"`, `-d '{"owner":"acme","email":"billing@acme.example","tier":"starter"}'`]),
      request: { owner: "acme", email: "billing@acme.example", tier: "starter" },
      responses: { "200": { authorization_url: "https://checkout.paystack.com/0peioxfhpn", access_code: "0peioxfhpn", reference: "sub-7PzQ2mV4" } },
    },
    "POST /v1/admin/callback-secret": {
      auth: ADMIN_AUTH,
      curl: curl([`curl -X POST "$BASE/v1/admin/callback-secret"`, bearer("admin"), `-H "Content-Type: application/json"`, `-d '{"owner":"acme"}'`]),
      request: { owner: "acme" },
      responses: { "200": { owner: "acme", secret: "whsec_3q2Fz0bT9xN1yVw8kLm4pRs7uHc6jGd5aEo2iYt0nQ8", created_at: AT, previous_valid_until: null } },
    },
    "POST /v1/billing/paystack/webhook": {
      auth: "None (no API key): Paystack's x-paystack-signature header, HMAC-SHA512 of the raw body with PAYSTACK_SECRET_KEY, checked before anything is read.",
      curl: curl([`curl -X POST "$BASE/v1/billing/paystack/webhook"`, `-H "x-paystack-signature: $SIG"`, `-H "Content-Type: application/json"`, `--data-binary @event.json`]),
      request: { event: "charge.success", data: { reference: "sub-7PzQ2mV4", status: "success", amount: 950000, currency: "NGN" } },
      responses: { "200": { status: "processed" } },
    },
  };
}

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/** Puts `example` on the media entry of `response` (the JSON one, or `media`). */
function setExample(response: Json | undefined, media: string, example: Json): void {
  if (!isObject(response) || !isObject(response.content)) return;
  const entry = response.content[media];
  if (isObject(entry)) entry.example = example;
}

/** Adds the auth line, the curl request and the examples to every operation of `doc` (in place). */
export function addExamples(doc: JsonObject): JsonObject {
  const table = extras();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op) || !isObject(op.responses)) continue;
      const x = table[`${method.toUpperCase()} ${path}`];
      if (!x) continue;
      const description = typeof op.description === "string" ? op.description : "";
      op.description = `**Auth:** ${x.auth}\n\n${description}`.trimEnd();
      op["x-codeSamples"] = [{ lang: "shell", label: "curl", source: x.curl }];
      if (x.request !== undefined && isObject(op.requestBody) && isObject(op.requestBody.content)) {
        const entry = op.requestBody.content["application/json"];
        if (isObject(entry)) entry.example = x.request;
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (ERROR_EXAMPLES[status] !== undefined) {
          const errorMedia = isObject(response) && isObject(response.content) && "application/json" in response.content ? "application/json" : undefined;
          if (errorMedia) setExample(response, errorMedia, ERROR_EXAMPLES[status]!);
        }
      }
      for (const [key, example] of Object.entries(x.responses)) {
        const [status = "", media] = key.split(" ");
        const value = isObject(example) && "media" in example && typeof example.media === "string" ? example : { media: media ?? "application/json", example: example as Json };
        setExample(op.responses[status], value.media as string, value.example as Json);
      }
    }
  }
  return doc;
}
