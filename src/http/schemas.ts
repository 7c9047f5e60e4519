import { z } from "zod";

/**
 * Zod schemas of the response bodies shared across routes (SPEC section 2). Routes declare them in
 * `response:` so /openapi.json documents every status, and so Elysia checks what we send.
 * Request bodies live next to their route; only shapes several routes return belong here.
 */

/** SPEC 2.3: every error response except validation failures. */
export const ErrorEnvelope = z
  .object({
    error: z.string().describe("Human-readable message; safe to show, never contains internals"),
    error_class: z.string().describe("Stable snake_case class, listed in the README"),
    format_version: z.string(),
    marker_coverage: z.number().int().describe("0..100: bank layout markers found (engine errors), else 0"),
  });

/** SPEC 2.4: status 422 for a request that does not match its schema. */
export const ValidationDetail = z.object({
  loc: z.array(z.string()).describe('Where the problem is, e.g. ["body", "tier"]'),
  msg: z.string(),
  type: z.string(),
  input: z.unknown().describe("The offending value, or null"),
  ctx: z.record(z.string(), z.unknown()),
});
export const ValidationBody = z.object({ detail: z.array(ValidationDetail) });

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

// ---- Parse results (SPEC 2.2) ----

export const Transaction = z.object({
  date: IsoDateTime,
  narration: z.string(),
  debit: z.string().describe("Decimal string, e.g. \"1500.00\"; \"0.00\" when none"),
  credit: z.string(),
  balance: z.string(),
  reference: z.string(),
  currency: z.string(),
});

export const StatementMetadata = z.object({
  bank: z.string(),
  account_holder: z.string(),
  account_number_masked: z.string(),
  statement_period_start: IsoDateTime,
  statement_period_end: IsoDateTime,
  opening_balance: z.string(),
  closing_balance: z.string(),
});

/** Additive reconciliation report (not in SPEC; extra fields a client may ignore). */
export const Checks = z.object({
  row_chain: z.boolean(),
  first_break_index: z.number().int().nullable(),
  balances_derived: z.boolean(),
  totals_match: z.boolean().nullable(),
  closing_balance_match: z.boolean().nullable(),
  reversed: z.boolean(),
  count_match: z.boolean().nullable(),
});

export const ParseResponse = z
  .object({
    format_version: z.string(),
    metadata: StatementMetadata,
    totals: z.object({ credit: z.string(), debit: z.string() }),
    row_wise_reconcilable: z.boolean(),
    transactions: z.array(Transaction),
    checks: Checks,
  });

// ---- Parse jobs (SPEC 2.5) ----

/** SPEC names queued, done and failed; the jobs module may add intermediate states (e.g. running). */
export const JobState = z.string().describe("queued, running, done or failed");
export const ResultKind = z.enum(["json", "csv", "redact"]);

export const JobProgress = z.object({ stage: z.string(), current: z.number().int(), total: z.number().int() });

export const JobCreated = z
  .object({ job_id: z.string(), stream_url: z.string(), poll_url: z.string() });

export const JobSnapshot = z
  .object({
    job_id: z.string(),
    state: JobState,
    result_kind: ResultKind,
    progress: JobProgress,
    result: ParseResponse.optional().describe("Present once state is done (json jobs)"),
    result_url: z.string().optional().describe("Where csv/redact bytes (or the JSON result) are fetched"),
    format_version: z.string(),
    redactions: z.number().int().optional(),
    sample: z.boolean().optional(),
    error: z.string().optional().describe("Present once state is failed"),
    error_class: z.string().optional().describe("Present once state is failed"),
  });

// ---- Usage (SPEC 2.6) ----

export const CallerUsage = z
  .object({
    api_key_id: z.string(),
    tier: z.string(),
    period_parses: z.number().int(),
    monthly_cap: z.number().int(),
    overage_parses: z.number().int(),
    projected_overage_naira: z.string().describe("Decimal naira, e.g. \"1250.00\""),
  });

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
    /** Additive: what period_parses is made of; only live parses are billed. */
    parses_by_key_tier: z
      .object({ live: z.number().int(), test: z.number().int(), first_party: z.number().int() })
      .describe("Successful parses this period per key tier (additive, not in SPEC)"),
  });

// ---- Keys (SPEC 2.1, 4.3) ----

export const KeyTier = z.enum(["live", "first_party", "test"]);

export const IssuedKey = z
  .object({
    id: z.string(),
    key: z.string().describe("The raw key; returned only here, never again"),
    prefix: z.string(),
    name: z.string(),
    tier: KeyTier,
  });

export const KeyListing = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  tier: KeyTier,
  owner: z.string(),
  created_at: IsoDateTime,
  revoked_at: IsoDateTime.nullable(),
});
export const KeyList = z.object({ keys: z.array(KeyListing) });
