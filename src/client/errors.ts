/**
 * One error class per `error_class` of the error envelope (SPEC 2.3), all extending ApiError, so
 * callers can `instanceof` the failure they handle and read `status`, `errorClass` and
 * `markerCoverage` from any of them. Errors never carry the request, its headers or the API key.
 */

/** SPEC 2.4 validation item. */
export interface ValidationIssue {
  loc: string[];
  msg: string;
  type: string;
  input: unknown;
  ctx: Record<string, unknown>;
}

export interface ApiErrorInit {
  status: number;
  errorClass: string;
  markerCoverage?: number;
  /** Seconds the server asked to wait (Retry-After), when it said. */
  retryAfter?: number;
  /** The 422 validation body's items, when the server sent one. */
  detail?: ValidationIssue[];
  requestId?: string;
}

export class ApiError extends Error {
  /** HTTP status; 0 when no response arrived (timeout, network). */
  readonly status: number;
  readonly errorClass: string;
  /** 0..100, how many of a bank's expected markers the engine found (engine errors only). */
  readonly markerCoverage: number;
  readonly retryAfter?: number;
  readonly detail?: ValidationIssue[];
  readonly requestId?: string;

  constructor(message: string, init: ApiErrorInit) {
    super(message);
    this.name = new.target.name;
    this.status = init.status;
    this.errorClass = init.errorClass;
    this.markerCoverage = init.markerCoverage ?? 0;
    if (init.retryAfter !== undefined) this.retryAfter = init.retryAfter;
    if (init.detail !== undefined) this.detail = init.detail;
    if (init.requestId !== undefined) this.requestId = init.requestId;
  }
}

export class AuthError extends ApiError {}
export class ForbiddenError extends ApiError {}
export class NotFoundError extends ApiError {}
export class ConflictError extends ApiError {}
export class ValidationError extends ApiError {}
export class UnsupportedFormatError extends ApiError {}
export class EncryptedSourceError extends ApiError {}
export class ScannedDocumentError extends ApiError {}
export class LayoutUnrecognizedError extends ApiError {}
export class EmptyStatementError extends ApiError {}
export class PayloadTooLargeError extends ApiError {}
export class TooManyPagesError extends ApiError {}
export class SubscriptionInactiveError extends ApiError {}
export class RateLimitedError extends ApiError {}
export class QueueFullError extends ApiError {}
export class ParseTimeoutError extends ApiError {}
export class StreamInUseError extends ApiError {}
export class BillingNotConfiguredError extends ApiError {}
export class PaymentProviderError extends ApiError {}
export class ServiceUnavailableError extends ApiError {}
export class WorkerCrashedError extends ApiError {}
/** The server saw the client go away mid-request (only ever logged server side; here for completeness). */
export class ClientClosedError extends ApiError {}
export class InternalServerError extends ApiError {}
// Reliability (issue 15): the database was away (503, retried by the client after Retry-After);
// the server cut an upload that stopped mid-body or went idle.
export class DatabaseUnavailableError extends ApiError {}
export class UploadAbortedError extends ApiError {}
export class UploadTimeoutError extends ApiError {}
/** The job was cancelled (DELETE /v1/parse/jobs/{id}, or parseJob's signal). */
export class JobCancelledError extends ApiError {}
/** DELETE on a job that had already finished. */
export class JobFinishedError extends ApiError {}
/** The job's record and result were swept; submit the document again. */
export class JobExpiredError extends ApiError {}
/** An Idempotency-Key reused within 24 h with a different request (409); use a new key for a new request. */
export class IdempotencyKeyReusedError extends ApiError {}
/** The first request with this Idempotency-Key is still being answered (409); retry once it has. */
export class IdempotencyInProgressError extends ApiError {}
/** Client side: the call's time limit passed before the server answered (errorClass `timeout`). */
export class TimeoutError extends ApiError {}
/** Client side: no HTTP response at all (errorClass `network_error`). */
export class NetworkError extends ApiError {}
/** Client side: the server answered with something that is not the documented shape (errorClass `bad_response`). */
export class BadResponseError extends ApiError {}

type ApiErrorClass = new (message: string, init: ApiErrorInit) => ApiError;

const BY_CLASS: Readonly<Record<string, ApiErrorClass>> = {
  auth_error: AuthError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  conflict: ConflictError,
  validation_error: ValidationError,
  unsupported_format: UnsupportedFormatError,
  encrypted_source: EncryptedSourceError,
  scanned_document: ScannedDocumentError,
  layout_unrecognized: LayoutUnrecognizedError,
  empty_statement: EmptyStatementError,
  payload_too_large: PayloadTooLargeError,
  too_many_pages: TooManyPagesError,
  subscription_inactive: SubscriptionInactiveError,
  rate_limited: RateLimitedError,
  queue_full: QueueFullError,
  parse_timeout: ParseTimeoutError,
  stream_in_use: StreamInUseError,
  billing_not_configured: BillingNotConfiguredError,
  payment_provider_error: PaymentProviderError,
  service_unavailable: ServiceUnavailableError,
  worker_crashed: WorkerCrashedError,
  client_closed: ClientClosedError,
  internal_error: InternalServerError,
  job_cancelled: JobCancelledError,
  job_finished: JobFinishedError,
  job_expired: JobExpiredError,
  timeout: TimeoutError,
  network_error: NetworkError,
  bad_response: BadResponseError,
  database_unavailable: DatabaseUnavailableError,
  upload_aborted: UploadAbortedError,
  upload_timeout: UploadTimeoutError,
  idempotency_key_reused: IdempotencyKeyReusedError,
  idempotency_in_progress: IdempotencyInProgressError,
};

/** Builds the subclass for `init.errorClass`; classes this client does not know give a plain ApiError. */
export function apiError(message: string, init: ApiErrorInit): ApiError {
  const Ctor = Object.hasOwn(BY_CLASS, init.errorClass) ? BY_CLASS[init.errorClass] : undefined;
  return new (Ctor ?? ApiError)(message, init);
}

/** The error envelope as sent by the server (SPEC 2.3). */
export interface ErrorEnvelope {
  error: string;
  error_class: string;
  format_version: string;
  marker_coverage: number;
}

export function isErrorEnvelope(v: unknown): v is ErrorEnvelope {
  if (v === null || typeof v !== "object") return false;
  const o = v as Record<string, unknown>;
  return typeof o.error === "string" && typeof o.error_class === "string";
}

export function isValidationBody(v: unknown): v is { detail: ValidationIssue[] } {
  return v !== null && typeof v === "object" && Array.isArray((v as { detail?: unknown }).detail);
}
