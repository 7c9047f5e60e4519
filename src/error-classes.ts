import type { ErrorClass } from "./errors.ts";

/**
 * Every `error_class` the service can answer with, at run time: the enum of `error_class` in
 * /openapi.json. Checked against the ErrorClass union both ways: a class added there and not here
 * (or the reverse) does not compile.
 */
export const ERROR_CLASSES = [
  "auth_error",
  "forbidden",
  "not_found",
  "conflict",
  "validation_error",
  "unsupported_format",
  "encrypted_source",
  "scanned_document",
  "layout_unrecognized",
  "empty_statement",
  "payload_too_large",
  "too_many_pages",
  "subscription_inactive",
  "rate_limited",
  "queue_full",
  "parse_timeout",
  "stream_in_use",
  "billing_not_configured",
  "payment_provider_error",
  "service_unavailable",
  "worker_crashed",
  "client_closed",
  "database_unavailable",
  "upload_aborted",
  "upload_timeout",
  "job_cancelled",
  "job_finished",
  "job_expired",
  "idempotency_key_reused",
  "idempotency_in_progress",
  "internal_error",
] as const satisfies readonly ErrorClass[];

type Unlisted = Exclude<ErrorClass, (typeof ERROR_CLASSES)[number]>;
const everyClassListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyClassListed;
