import { z } from "zod";
import { Enrichment, Insights } from "./insights-schemas.ts";
import { listBanks } from "../engine/index.ts";
import { ERROR_CLASSES } from "../error-classes.ts";

/**
 * Zod schemas of the response bodies shared across routes (SPEC section 2). Routes declare them in
 * `response:` so /openapi.json documents every status, and so Elysia checks the plain objects we
 * send. A schema with a `.meta({ id })` is published once under `components.schemas` and
 * referenced from every operation (src/http/openapi.ts). Request bodies live next to their route.
 *
 * Objects the engine produces are open (`looseObject`): fields are added over time and a client
 * must ignore the ones it does not know. The service's own objects are closed.
 */

// ---- Media types other than JSON (src/http/openapi.ts moves them to their own `content` keys) ----

/** The JSON Schema keyword, in `.meta()`, that names the media types a string body is sent as. */
export const MEDIA_TYPES_KEYWORD = "x-media-types";
export const CSV_MEDIA_TYPE = "text/csv";
export const EVENT_STREAM_MEDIA_TYPE = "text/event-stream";
/** Every content type a redacted document is sent with (src/engine/redact/index.ts). */
export const REDACTED_MEDIA_TYPES = [
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-excel",
] as const;

export const CsvText = z.string().meta({
  [MEDIA_TYPES_KEYWORD]: [CSV_MEDIA_TYPE],
  description: "CSV (RFC 4180, CRLF), always the same columns: bank,account,date,time,narration,debit,credit,balance,derived_balance,reference,currency (docs/engine.md, \"CSV columns\")",
});
export const RedactedDocument = z.string().meta({
  [MEDIA_TYPES_KEYWORD]: [...REDACTED_MEDIA_TYPES],
  description: "The redacted document, in the upload's own format; X-Redactions says how many values were blacked out",
});
export const EventStream = z.string().meta({
  [MEDIA_TYPES_KEYWORD]: [EVENT_STREAM_MEDIA_TYPE],
  description: "Server-sent events: progress as default `data:` lines, then one `event: result`",
});
/** A body-less answer (204): documented without content. */
export const NoContent = z.null().describe("No body");

// ---- Errors (SPEC 2.3, 2.4) ----

/** Every error class the service answers with (src/error-classes.ts). */
export const ErrorClassEnum = z.enum(ERROR_CLASSES).describe("Stable snake_case class, listed in docs/errors.md").meta({ id: "ErrorClass" });
/** Additive (issue 27): the X-Request-Id of the request the error answers, as in the server's log line. */
const RequestIdField = z.string().optional().describe("The request's X-Request-Id: quote it when reporting the error (absent in a job's stored failure)");

/** SPEC 2.3: every error response except validation failures. */
export const ErrorEnvelope = z
  .object({
    error: z.string().describe("Human-readable message; safe to show, never contains internals"),
    error_class: ErrorClassEnum,
    format_version: z.string(),
    marker_coverage: z.number().int().describe("0..100: bank layout markers found (engine errors), else 0"),
    request_id: RequestIdField,
  })
  .meta({ id: "ErrorEnvelope" });

/** SPEC 2.4: one problem of a request. */
export const ValidationDetail = z
  .object({
    loc: z.array(z.string()).describe('Where the problem is, e.g. ["body", "tier"]'),
    msg: z.string(),
    type: z.string(),
    input: z.unknown().describe("The offending value, or null"),
    ctx: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "ValidationIssue" });
/** SPEC 2.4: status 422 for a request that does not match its schema. */
export const ValidationBody = z.object({ detail: z.array(ValidationDetail), request_id: RequestIdField }).meta({ id: "ValidationError" });

/** 422 of a parse: the validation body for a bad request, the envelope when the engine refuses the document. */
export const ParseRejected = z.union([ValidationBody, ErrorEnvelope]);

/** The error statuses most routes share, to spread into a route's `response:` map. */
export const keyAuthErrors = { 401: ErrorEnvelope, 422: ValidationBody, 500: ErrorEnvelope } as const;
export const adminErrors = { 401: ErrorEnvelope, 403: ErrorEnvelope, 422: ValidationBody, 500: ErrorEnvelope } as const;

/**
 * SPEC 5.4: admin routes document the `authorization` header as an optional, nullable string (the
 * admin plugin checks it before validation: missing or wrong is 401, an API key 403).
 */
export const AdminHeaders = z.object({
  authorization: z.string().nullable().optional().describe("Bearer <admin token>"),
});

/** ISO 8601 timestamp string (what every `*_at` and date field carries). */
export const IsoDateTime = z.string().describe("ISO 8601 date-time");

// ---- Parse results (SPEC 2.2, plus the agreed additive fields) ----

export const Transaction = z
  .looseObject({
    date: IsoDateTime,
    narration: z.string(),
    debit: z.string().describe('Decimal string, e.g. "1500.00"; "0.00" when none'),
    credit: z.string(),
    balance: z.string(),
    reference: z.string(),
    currency: z.string(),
    enrichment: Enrichment.optional().describe("With include=insights only (docs/insights.md)"),
    ocr_confidence: z.number().optional().describe("Scans read by OCR only: mean word confidence (0-100) of the line that printed the row's figures (docs/ocr.md)"),
  })
  .meta({ id: "Transaction" });

/** A bank profile id (GET /v1/banks), or `unknown` when no profile matched (generic layout inference). */
export const BankId = z
  .enum(listBanks().map((b) => b.id).concat("unknown", "sample") as [string, ...string[]])
  .meta({ id: "BankId", description: "Bank profile id (GET /v1/banks); unknown when no profile matched; sample in the canned sample statement (X-Sample)" });

export const StatementMetadata = z
  .looseObject({
    bank: BankId,
    account_holder: z.string(),
    account_number_masked: z.string(),
    statement_period_start: IsoDateTime,
    statement_period_end: IsoDateTime,
    opening_balance: z.string(),
    closing_balance: z.string(),
  })
  .meta({ id: "Metadata" });

export const Totals = z.looseObject({ credit: z.string(), debit: z.string() }).meta({ id: "Totals" });

/** Additive reconciliation report (not in SPEC): what was compared and whether it agreed. */
export const Checks = z
  .looseObject({
    row_chain: z.boolean().describe("Every row's balance is the previous balance + credit - debit"),
    first_break_index: z.number().int().nullable().describe("0-based index of the first row that breaks the chain"),
    balances_derived: z.boolean().describe("Balances were computed because the statement prints none"),
    totals_match: z.boolean().nullable().describe("Printed totals agree with the rows (null: none printed)"),
    closing_balance_match: z.boolean().nullable().describe("Printed closing balance agrees with the last row (null: none printed)"),
    reversed: z.boolean().describe("Rows were printed newest first and have been put oldest first"),
    count_match: z.boolean().nullable().describe("The printed transaction count agrees (null: none printed)"),
    opening_balance_source: z.enum(["statement", "derived", "assumed_zero"]).describe("Where the opening balance came from"),
    notes: z.array(z.string()).describe("Plain sentences on what was compared and where it disagreed"),
    kobo_rounding_rows: z.array(z.number().int()).optional().describe("0-based indexes of rows accepted although off by exactly 1 kobo"),
    marker_coverage: z.number().int().min(0).max(100).optional().describe("0..100: how sure the bank detection is"),
    verdict: z
      .enum(["verified", "partial", "unverified"])
      .describe("verified: every row chains, every printed figure agrees, nothing assumed; partial: rows chain but something was assumed or derived (see assumed); unverified: otherwise"),
    assumed: z.array(z.string()).describe("Facts taken without a printed figure to back them (a derived opening, derived balances)"),
    cross_section_links: z
      .array(z.looseObject({ row: z.number().int(), other_section: z.number().int(), other_row: z.number().int(), amount: z.string() }))
      .optional()
      .describe("Rows whose chain break is exactly what a row of another section (index in accounts) moved at the same time: one transaction paid from both (e.g. a wallet payment topped up from savings); amount is what the other row supplied"),
    swapped_rows: z
      .array(z.looseObject({ row: z.number().int(), seconds: z.number().int() }))
      .optional()
      .describe("Adjacent rows stamped seconds apart returned swapped because only that order chains: the pair's first row (0-based) and their distance in seconds"),
    statement_totals_match: z.boolean().optional().describe("The printed totals and counts cover every section and agree with their sum"),
    ocr: z
      .looseObject({
        pages: z.number().int(),
        mean_confidence: z.number(),
        read_pages: z.array(z.looseObject({ page: z.number().int(), mean_confidence: z.number() })),
        text_pages: z.array(z.number().int()),
        repaired_rows: z.array(z.looseObject({ row: z.number().int(), field: z.string(), printed: z.string(), used: z.string(), reason: z.string() })),
        dates_unconfirmed: z.array(z.number().int()),
      })
      .optional()
      .describe("Present when the statement was read by OCR (docs/ocr.md): pages read (count, and each page with its mean word confidence), pages read as text instead, mean word confidence, each figure the balance chain corrected (also listed in assumed), rows whose date OCR did not read on their line"),
  })
  .meta({ id: "Checks" });

export const IntegritySignal = z
  .looseObject({
    code: z.string(),
    severity: z.enum(["info", "warn", "high"]),
    detail: z.string(),
    page: z.number().int().optional(),
  })
  .meta({ id: "IntegritySignal" });

export const Integrity = z
  .looseObject({
    verdict: z.enum(["no_signals", "review", "likely_edited"]),
    signals: z.array(IntegritySignal),
    producer: z.string().nullable(),
    creator: z.string().nullable(),
    created_at: IsoDateTime.nullable(),
    modified_at: IsoDateTime.nullable(),
    incremental_updates: z.number().int(),
    fonts_per_page: z.array(z.looseObject({ page: z.number().int(), fonts: z.array(z.string()) })),
  })
  .meta({ id: "Integrity", description: "Signs that the document was edited after it was made (PDF); sheets report no_signals" });

export const AccountSection = z
  .looseObject({
    metadata: StatementMetadata,
    totals: Totals,
    row_wise_reconcilable: z.boolean(),
    checks: Checks,
    transactions: z.array(Transaction),
  })
  .meta({ id: "AccountSection", description: "One account section of the statement, in print order" });

export const ParseResponse = z
  .looseObject({
    format_version: z.string(),
    metadata: StatementMetadata,
    totals: Totals,
    row_wise_reconcilable: z.boolean(),
    transactions: z.array(Transaction),
    checks: Checks,
    accounts: z.array(AccountSection).optional().describe("One entry per account section in print order; the first equals the top level"),
    integrity: Integrity.optional(),
    insights: Insights.optional().describe("With include=insights only (docs/insights.md)"),
    sample: z.literal(true).optional().describe("Present (true) when the canned sample statement was returned instead of a parse (past a free monthly cap), as X-Sample says"),
  })
  .meta({ id: "ParseResponse" });

/** A finished parse as the sync endpoint and a job's result endpoint send it, by the requested output. */
export const ParseResult = z.union([ParseResponse, CsvText, RedactedDocument]);

// ---- Parse jobs (SPEC 2.5) ----

/** SPEC names queued, done and failed; `running` is a worker on it. A cancelled job is failed with error_class job_cancelled. */
export const JobState = z.enum(["queued", "running", "done", "failed"]);
export const ResultKind = z.enum(["json", "csv", "xlsx", "redact"]);

export const JobProgress = z
  .object({
    stage: z.string().describe("queued while queued; then extract, ocr (a scan's pages read by OCR), assemble or redact; retry (current: attempt, total: JOB_MAX_ATTEMPTS) when another instance takes over a job whose instance died; done or failed at the end"),
    current: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: "JobProgress" });

export const JobCreated = z.object({ job_id: z.string(), stream_url: z.string(), poll_url: z.string() }).meta({ id: "JobCreated" });

export const JobSnapshot = z
  .object({
    job_id: z.string(),
    state: JobState,
    result_kind: ResultKind,
    progress: JobProgress,
    result: ParseResponse.optional().describe("Present once state is done (json and csv jobs)"),
    result_url: z.string().optional().describe("Where the result is fetched (csv and redact jobs)"),
    format_version: z.string(),
    redactions: z.number().int(),
    sample: z.boolean(),
    error: z.string().optional().describe("Present once state is failed"),
    error_class: ErrorClassEnum.optional().describe("Present once state is failed"),
    client_reference: z.string().optional().describe("The label given at creation (form field client_reference), when one was"),
  })
  .meta({ id: "JobSnapshot" });

// ---- Usage (SPEC 2.6) ----

export const ParsesByKeyTier = z
  .object({ live: z.number().int(), test: z.number().int(), first_party: z.number().int() })
  .meta({ id: "ParsesByKeyTier", description: "Successful parses this period per key tier (additive, not in SPEC)" });

export const CallerUsage = z
  .object({
    api_key_id: z.string(),
    tier: z.string(),
    period_parses: z.number().int().describe("Successful parses this period across all the owner's keys"),
    monthly_cap: z.number().int(),
    overage_parses: z.number().int(),
    projected_overage_naira: z.string().describe('Decimal naira, e.g. "1250.00"'),
    parses_by_key_tier: ParsesByKeyTier,
  })
  .meta({ id: "UsageRecord" });

export const OwnerUsage = z
  .object({
    owner: z.string(),
    tier: z.string(),
    period_parses: z.number().int(),
    success_rate: z.number(),
    monthly_cap: z.number().int(),
    overage_parses: z.number().int(),
    projected_overage_naira: z.string(),
    daily: z.array(z.object({ date: z.string(), count: z.number().int() })),
    parses_by_key_tier: ParsesByKeyTier,
  })
  .meta({ id: "OwnerUsage" });

// ---- Keys (SPEC 2.1, 4.3) ----

export const KeyTier = z.enum(["live", "first_party", "test"]);

export const IssuedKey = z
  .object({
    id: z.string(),
    key: z.string().describe("The raw key; returned only here, never again"),
    prefix: z.string(),
    name: z.string(),
    tier: KeyTier,
  })
  .meta({ id: "IssuedApiKey" });

export const KeyListing = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    tier: KeyTier,
    owner: z.string(),
    created_at: IsoDateTime,
    revoked_at: IsoDateTime.nullable(),
  })
  .meta({ id: "ApiKey" });
export const KeyList = z.object({ keys: z.array(KeyListing) }).meta({ id: "ApiKeyList" });
