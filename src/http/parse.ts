import { Elysia } from "elysia";
import type { JobBackend } from "../jobs/backend.ts";
import type { Caller } from "../db/keys.ts";
import { notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type { Outcome, ParseService, Upload } from "../jobs/service.ts";
import { type Deliverable, type ParseFormat, resultAs } from "../jobs/result-formats.ts";
import { jsonBody } from "../jobs/result-text.ts";
import type { ParseTiming } from "../jobs/runner.ts";
import { XLSX_CONTENT_TYPE } from "../output/xlsx.ts";
import { apiKeyAuth } from "./auth.ts";
import type { AppDeps } from "./deps.ts";
import { ErrorEnvelope, keyAuthErrors, ParseRejected, ParseResult } from "./schemas.ts";
import { idempotencyParameter } from "./batch-schemas.ts";
import { claim, idempotencyKeyOf, REPLAYED_HEADER } from "./idempotency.ts";
import { liftIdleTimer } from "./idle-timer.ts";
import { includeQueryParameter, insightsAs, redactWithInsights, wantsInsights } from "./insights.ts";
import { receiveUpload } from "./upload.ts";
import { uploadRequestBody } from "./upload-schema.ts";

export const formatQueryParameter = {
  name: "format",
  in: "query",
  required: false,
  schema: { type: "string", enum: ["json", "csv", "xlsx"], default: "json" },
  description: "json: the ParseResponse; csv: the transactions as CSV; xlsx: an Excel workbook (Transactions and Summary sheets). CSV and XLSX always carry the same columns (docs/engine.md, \"CSV columns\").",
};

export const parseErrors = {
  ...keyAuthErrors,
  // Upload cut: connection closed mid-body (upload_aborted) or idle past UPLOAD_IDLE_TIMEOUT_S (upload_timeout).
  400: ErrorEnvelope,
  422: ParseRejected,
  402: ErrorEnvelope,
  408: ErrorEnvelope,
  413: ErrorEnvelope,
  429: ErrorEnvelope,
  503: ErrorEnvelope,
  // Idempotency-Key (issue 27): reused with another request, or still in progress (409); a replay whose answer was swept (404 job_expired).
  404: ErrorEnvelope,
  409: ErrorEnvelope,
} as const;

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";

/**
 * On every response that carries statement data (a parse, a job's snapshot, result or stream):
 * no browser, proxy or CDN may keep a copy of someone's bank statement.
 */
export const NO_STORE = { "cache-control": "no-store" } as const;

/** The HTTP body of a finished parse: JSON object, CSV text, XLSX workbook or redacted bytes. */
export function resultResponse(result: Deliverable, headers: Record<string, string> = {}): Response {
  if (result.kind === "xlsx") {
    return new Response(result.bytes, { headers: { ...headers, ...NO_STORE, "content-type": XLSX_CONTENT_TYPE, "content-disposition": 'attachment; filename="statement.xlsx"' } });
  }
  if (result.kind === "csv") {
    return new Response(result.csv, { headers: { ...headers, ...NO_STORE, "content-type": CSV_CONTENT_TYPE, "content-disposition": 'attachment; filename="statement.csv"' } });
  }
  if (result.kind === "redact") {
    return new Response(result.bytes, {
      headers: { ...headers, ...NO_STORE, "content-type": result.contentType, "x-redactions": String(result.redactions), "content-disposition": "attachment" },
    });
  }
  return new Response(jsonBody(result), { headers: { ...headers, ...NO_STORE, "content-type": "application/json" } });
}

type ParseDeps = Pick<AppDeps, "db" | "config" | "metering"> & { parser: ParseService; jobs: Pick<JobBackend, "holdSync" | "keep" | "find"> };

/**
 * The sync parse under an Idempotency-Key: the first request parses and its answer is kept as a
 * done job (JOB_RESULT_TTL_S, in the job backend: never on disk); the same request again is
 * answered from it (404 job_expired once swept: the key still binds for 24 h, so it is never
 * parsed and counted twice). Another request with the key: 409.
 */
async function parseIdempotent(deps: ParseDeps, caller: Caller, upload: Upload, request: Request, key: string): Promise<Outcome & { replayed: boolean }> {
  const id = newId("job");
  const idem = await claim(deps.db, caller.owner, "parse", key, upload, id).catch((e: unknown) => {
    upload.hold?.release();
    throw e;
  });
  if ("replayOf" in idem) {
    upload.hold?.release();
    const job = await deps.jobs.find(idem.replayOf, caller.owner);
    const result = await job.outcome();
    if (!result) throw notFound("The earlier answer to this Idempotency-Key is not held any more");
    return { result, sample: job.sample, replayed: true };
  }
  try {
    const outcome = await deps.parser.parseNow(caller, upload, request);
    await deps.jobs.keep(caller, id, upload.kind, outcome);
    await idem.claimed.settle();
    return { ...outcome, replayed: false };
  } catch (e) {
    await idem.claimed.release().catch(() => {});
    throw e;
  }
}

/** Where the parse's time went (W3C Server-Timing), as browsers' developer tools and curl -v show it. */
const serverTiming = ({ parseMs, answerMs }: ParseTiming): string =>
  `parse;dur=${parseMs.toFixed(1)};desc="reading, assembling and writing the statement", answer;dur=${answerMs.toFixed(1)};desc="writing the answer (JSON, CSV, insights)"`;

/** SPEC 4.1 POST /v1/parse: the synchronous parse, on the same worker pool and limits as jobs. */
export const parseRoutes = (deps: ParseDeps) =>
  new Elysia({ name: "parse", detail: { tags: ["Parse"], security: [{ apiKey: [] }] } }).use(apiKeyAuth(deps)).post(
    "/v1/parse",
    async ({ request, caller, set, server }) => {
      // Bun's idle timer is no clock for an upload (body bytes do not reset it) nor for the parse
      // (nothing is sent until it ends): lifted for this request, put back when it is answered.
      const restore = liftIdleTimer(server, request, deps.config.HTTP_IDLE_TIMEOUT_S);
      try {
        const insights = wantsInsights(request);
        // The key's place and the upload's bytes are taken before the body is read, not after.
        // The place is the job backend's: with Redis the key's limit counts sync parses on every instance.
        const upload = await receiveUpload({ hold: deps.jobs.holdSync }, caller, request, deps.config, { metering: deps.metering });
        if (insights && upload.kind === "redact") {
          upload.hold?.release();
          throw redactWithInsights();
        }
        // The worker makes them with the parse (docs/insights.md); the flag is part of the Idempotency-Key's request.
        if (insights) upload.insights = true;
        const key = idempotencyKey(request, upload);
        const { result, sample, replayed } = key === undefined ? { ...(await deps.parser.parseNow(caller, upload, request)), replayed: false } : await parseIdempotent(deps, caller, upload, request, key);
        const headers: Record<string, string> = { ...(set.headers as Record<string, string>) };
        if (sample) headers["x-sample"] = "true";
        if (replayed) headers[REPLAYED_HEADER] = "true";
        else if (result.kind !== "redact" && result.timing) headers["server-timing"] = serverTiming(result.timing);
        // Made by the worker (its answer is returned as it is), else here from its JSON (a scan read by OCR, the sample).
        if (insights) return resultResponse((await insightsAs(result, upload.kind as ParseFormat)) ?? result, headers);
        // The workers answer JSON for an xlsx parse; the workbook is made from it here.
        return resultResponse(upload.kind === "xlsx" ? ((await resultAs(result, "xlsx")) ?? result) : result, headers);
      } finally {
        restore();
      }
    },
    {
      parse: "none",
      response: { 200: ParseResult, ...parseErrors },
      detail: {
        summary: "Parse a statement",
        description:
          "multipart/form-data: `pdf` (required), `bank`, `password`, `redact=true`, `ocr=off` (refuse a scan with scanned_document instead of reading it by OCR, docs/ocr.md); query `format=json|csv|xlsx`. 200: the ParseResponse, the CSV (text/csv), the Excel workbook or the redacted document (with X-Redactions). X-Sample: true when the canned sample was returned. Server-Timing: `parse` and, within it, `answer` (the worker writing the answer), in ms, for a parse (not the sample, not a replay). 429 rate_limited / 503 queue_full carry Retry-After. `Idempotency-Key`: the same key with the same request within 24 h is answered from the first parse (Idempotent-Replayed: true; not parsed or counted again) while its answer is held (JOB_RESULT_TTL_S; 404 job_expired after that); with a different request 409 idempotency_key_reused; while the first is still parsing 409 idempotency_in_progress.",
        parameters: [formatQueryParameter, includeQueryParameter, idempotencyParameter],
        requestBody: uploadRequestBody,
      } as Record<string, unknown>,
    },
  );

/** The Idempotency-Key header, checked; a malformed one gives the upload's hold back before its 422. */
function idempotencyKey(request: Request, upload: Upload): string | undefined {
  try {
    return idempotencyKeyOf(request.headers);
  } catch (e) {
    upload.hold?.release();
    throw e;
  }
}
