/**
 * One error hierarchy for the whole service. Every failure a caller can see is an AppError with a
 * stable snake_case `errorClass` and an HTTP `status`; src/http/errors.ts maps it to the envelope.
 * `message` is public; `cause`/`internal` stay in logs only.
 */
export type ErrorClass =
  | "auth_error"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "validation_error"
  | "unsupported_format"
  | "encrypted_source"
  | "scanned_document"
  | "layout_unrecognized"
  | "empty_statement"
  | "payload_too_large"
  | "too_many_pages"
  | "subscription_inactive"
  | "rate_limited"
  | "queue_full"
  | "parse_timeout"
  | "stream_in_use"
  | "billing_not_configured"
  | "payment_provider_error"
  | "service_unavailable"
  | "worker_crashed"
  | "client_closed"
  // Reliability (issue 15).
  | "database_unavailable"
  | "upload_aborted"
  | "upload_timeout"
  // Parse jobs (issue 16): DELETE on a job, and a job id the server remembers after sweeping it.
  | "job_cancelled"
  | "job_finished"
  | "job_expired"
  // Batch use (issue 27): an Idempotency-Key reused with another request, or while its first request is still being admitted.
  | "idempotency_key_reused"
  | "idempotency_in_progress"
  | "internal_error";

export interface AppErrorOptions {
  /** 0..100, how many of a bank's expected markers were found (engine errors only). */
  markerCoverage?: number;
  /** Seconds, sent as Retry-After on 429/503. */
  retryAfter?: number;
  /** Internal detail for logs; never sent to the caller. */
  internal?: unknown;
}

export class AppError extends Error {
  readonly errorClass: ErrorClass;
  readonly status: number;
  readonly markerCoverage: number;
  readonly retryAfter?: number;
  readonly internal?: unknown;

  constructor(errorClass: ErrorClass, status: number, message: string, options: AppErrorOptions = {}) {
    super(message);
    this.name = "AppError";
    this.errorClass = errorClass;
    this.status = status;
    this.markerCoverage = options.markerCoverage ?? 0;
    this.retryAfter = options.retryAfter;
    this.internal = options.internal;
  }

  /** Plain value that survives postMessage between threads (a class instance does not). */
  toJSON(): SerializedError {
    return {
      errorClass: this.errorClass,
      status: this.status,
      message: this.message,
      markerCoverage: this.markerCoverage,
      ...(this.retryAfter === undefined ? {} : { retryAfter: this.retryAfter }),
    };
  }

  static fromJSON(e: SerializedError): AppError {
    return new AppError(e.errorClass, e.status, e.message, { markerCoverage: e.markerCoverage, retryAfter: e.retryAfter });
  }
}

export interface SerializedError {
  errorClass: ErrorClass;
  status: number;
  message: string;
  markerCoverage: number;
  retryAfter?: number;
}

/** Result type for values crossing a thread boundary. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

// Named constructors, so call sites read as what went wrong rather than as status numbers.
export const authError = (message = "Missing or invalid API key") => new AppError("auth_error", 401, message);
export const forbidden = (message: string) => new AppError("forbidden", 403, message);
export const notFound = (message = "Not found") => new AppError("not_found", 404, message);
export const unsupportedFormat = (message: string) => new AppError("unsupported_format", 422, message);
export const encryptedSource = (message: string) => new AppError("encrypted_source", 422, message);
export const scannedDocument = (message = "The PDF has no text layer (scanned or outlined text) and was not read by OCR (ocr=off, OCR_WORKERS=0 or redaction)") =>
  new AppError("scanned_document", 422, message);
export const layoutUnrecognized = (message: string, markerCoverage = 0) =>
  new AppError("layout_unrecognized", 422, message, { markerCoverage });
export const emptyStatement = (message: string, markerCoverage = 0) =>
  new AppError("empty_statement", 422, message, { markerCoverage });
export const payloadTooLarge = (message: string) => new AppError("payload_too_large", 413, message);
export const tooManyPages = (message: string) => new AppError("too_many_pages", 413, message);
export const parseTimeout = (message = "The document took too long to parse") => new AppError("parse_timeout", 422, message);
// Parse jobs (issue 16).
/** The job's owner cancelled it (DELETE /v1/parse/jobs/{id}); its snapshot and stream end with this. */
export const jobCancelled = () => new AppError("job_cancelled", 409, "The job was cancelled by its owner");
/** DELETE on a job that is already done or failed: there is nothing left to cancel. */
export const jobFinished = (state: string) => new AppError("job_finished", 409, `The job has already finished (state ${state}); there is nothing to cancel`);
/** A job id the server still remembers, whose record and result were swept after JOB_RESULT_TTL_S or to stay within JOB_CACHE_MAX_BYTES. */
export const jobExpired = () => new AppError("job_expired", 404, "The job has expired: its result is no longer held; submit the document again");
/** Issue 27: the same Idempotency-Key with a different request (file or options) within 24 h. */
export const idempotencyKeyReused = () =>
  new AppError("idempotency_key_reused", 409, "This Idempotency-Key was used with a different request in the last 24 h; use a new key for a new request");
/** Issue 27: the same Idempotency-Key while the first request with it is still running. */
export const idempotencyInProgress = () =>
  new AppError("idempotency_in_progress", 409, "A request with this Idempotency-Key is still in progress; retry once it has answered", { retryAfter: 1 });
export const internalError = (internal?: unknown) => new AppError("internal_error", 500, "Internal server error", { internal });

// Reliability (issue 15): a database outage, and uploads that stop before their end.
/** Seconds a client is told to wait when the database does not answer. */
export const DATABASE_RETRY_AFTER_S = 5;
export const databaseUnavailable = (internal?: unknown) =>
  new AppError("database_unavailable", 503, "The database is not answering; retry shortly", { retryAfter: DATABASE_RETRY_AFTER_S, internal });
export const uploadAborted = (internal?: unknown) =>
  new AppError("upload_aborted", 400, "The upload ended before its last byte (the connection was closed)", { internal });
export const uploadTimeout = (idleSeconds: number) =>
  new AppError("upload_timeout", 408, `No upload bytes arrived for ${idleSeconds} s; the upload was cut`);
export const uploadPastDeadline = (deadlineSeconds: number) =>
  new AppError("upload_timeout", 408, `The upload took longer than ${deadlineSeconds} s in all; it was cut`);

export function toAppError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  return internalError(e);
}
