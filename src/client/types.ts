/** Shapes of the HTTP API (SPEC 2), as the client sees them. */
import type { ParseResponse as EngineParseResponse, Progress, StatementMetadata, Transaction } from "../engine/types.ts";

export type { StatementMetadata, Transaction };

/** A parse's JSON; `sample: true` when the service returned its canned sample (past a free monthly cap) instead of reading the document. */
export type ParseResponse = EngineParseResponse & { sample?: true };

/** SPEC 2.6, `GET /v1/usage` (the server's own type; a type-only import adds no server code). */
export type { CallerUsage as Usage } from "../billing/usage-shapes.ts";

/** `GET /v1/banks` (the service's shape; SPEC leaves it open). */
export interface BanksResponse {
  engine_version: string;
  format_version: string;
  banks: { id: string; name: string; formats: string[] }[];
}

/** SPEC 4.1, 202 answer of `POST /v1/parse/jobs`. */
export interface JobCreated {
  job_id: string;
  stream_url: string;
  poll_url: string;
}

export type ResultKind = "json" | "csv" | "redact";

/** SPEC 2.5 job snapshot. */
export interface JobSnapshot {
  job_id: string;
  state: string;
  result_kind: ResultKind;
  progress: Progress;
  result?: ParseResponse;
  result_url?: string;
  format_version: string;
  redactions?: number;
  sample?: boolean;
  /** The label given at creation (`clientReference`), when one was. */
  client_reference?: string;
  error?: string;
  error_class?: string;
}

/** What the `result` event of a redact job carries instead of a ParseResponse. */
export interface RedactedResultRef {
  resultUrl: string;
  redactions: number;
  contentType: string;
}

/** Events yielded by `parseJob`, in order: one `created`, any number of `progress`, one `result`. */
export type JobEvent =
  | { type: "created"; jobId: string; streamUrl: string; pollUrl: string }
  | { type: "progress"; jobId: string; stage: string; current: number; total: number }
  /**
   * json and csv jobs: the ParseResponse (csv bytes: `client.result(jobId)`). `sample` is true when
   * the key was past its free monthly cap and the service returned its canned sample statement
   * instead of parsing the document (a redact job then ends with kind `json`).
   */
  | { type: "result"; jobId: string; kind: "json" | "csv"; result: ParseResponse; sample: boolean }
  /** redact jobs: where the document is and how much was removed (bytes: `client.result(jobId)`). */
  | { type: "result"; jobId: string; kind: "redact"; redacted: RedactedResultRef };

/** Bytes of a finished job (`GET /v1/parse/jobs/{id}/result`), by kind. */
export type JobResult =
  | { kind: "json"; contentType: string; data: ParseResponse }
  | { kind: "csv"; contentType: string; text: string }
  | { kind: "redact"; contentType: string; bytes: Uint8Array; redactions?: number };

export interface RedactedDocument {
  contentType: string;
  bytes: Uint8Array;
  /** From the `X-Redactions` header, when the server sent it. */
  redactions?: number;
}
