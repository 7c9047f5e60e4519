import { Elysia } from "elysia";
import type { JobBackend } from "../jobs/backend.ts";
import type { ParseService } from "../jobs/service.ts";
import { type Deliverable, resultAs } from "../jobs/result-formats.ts";
import { XLSX_CONTENT_TYPE } from "../output/xlsx.ts";
import { apiKeyAuth } from "./auth.ts";
import type { AppDeps } from "./deps.ts";
import { ErrorEnvelope, keyAuthErrors, ParseRejected, ParseResult } from "./schemas.ts";
import { liftIdleTimer } from "./idle-timer.ts";
import { receiveUpload } from "./upload.ts";

/** OpenAPI description of the multipart upload both parse endpoints take (read by hand, see upload.ts). */
export const uploadRequestBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object",
        required: ["pdf"],
        properties: {
          pdf: { type: "string", format: "binary", description: "The statement: PDF or XLSX" },
          bank: { type: "string", description: "Bank id that overrides detection, e.g. gtbank" },
          password: { type: "string", description: "User password of an encrypted PDF" },
          redact: { type: "string", enum: ["true", "false"], description: "true: return a redacted copy of the document instead" },
        },
      },
    },
  },
};
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
  return new Response(result.json, { headers: { ...headers, ...NO_STORE, "content-type": "application/json" } });
}

/** SPEC 4.1 POST /v1/parse: the synchronous parse, on the same worker pool and limits as jobs. */
export const parseRoutes = (deps: Pick<AppDeps, "db" | "config"> & { parser: ParseService; jobs: Pick<JobBackend, "holdSync"> }) =>
  new Elysia({ name: "parse", detail: { tags: ["Parse"], security: [{ apiKey: [] }] } }).use(apiKeyAuth(deps)).post(
    "/v1/parse",
    async ({ request, caller, set, server }) => {
      // Bun's idle timer is no clock for an upload (body bytes do not reset it) nor for the parse
      // (nothing is sent until it ends): lifted for this request, put back when it is answered.
      const restore = liftIdleTimer(server, request, deps.config.HTTP_IDLE_TIMEOUT_S);
      try {
        // The key's place and the upload's bytes are taken before the body is read, not after.
        // The place is the job backend's: with Redis the key's limit counts sync parses on every instance.
        const upload = await receiveUpload({ hold: deps.jobs.holdSync }, caller, request, deps.config);
        const { result, sample } = await deps.parser.parseNow(caller, upload, request);
        const headers: Record<string, string> = { ...(set.headers as Record<string, string>) };
        if (sample) headers["x-sample"] = "true";
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
          "multipart/form-data: `pdf` (required), `bank`, `password`, `redact=true`; query `format=json|csv|xlsx`. 200: the ParseResponse, the CSV (text/csv), the Excel workbook or the redacted document (with X-Redactions). X-Sample: true when the canned sample was returned. 429 rate_limited / 503 queue_full carry Retry-After.",
        parameters: [formatQueryParameter],
        requestBody: uploadRequestBody,
      } as Record<string, unknown>,
    },
  );
