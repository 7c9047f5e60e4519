import { availableParallelism } from "node:os";
import { z } from "zod";
import { DEFAULT_PDF_EXTRACTOR, PDF_EXTRACTORS } from "./engine/pdf/extractor-name.ts";

/**
 * Configuration, read once from the environment and validated. Precedence: explicit overrides
 * (tests) > environment > defaults below. A bad value stops the start with the variable's name.
 * Every variable is documented in README.md (Configuration).
 */
const int = (min: number) => z.coerce.number().int().min(min);
const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");
/** Naira amount as written by people ("9500", "12.50"), held as integer kobo so money is never a float. */
const naira = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, "must be a naira amount like 9500 or 12.50")
  .transform((v) => {
    const [whole, frac = ""] = v.split(".");
    return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  });

export const configSchema = z.object({
  /** TCP port of the HTTP server; 0 picks a free port (tests). */
  PORT: int(0).max(65535).default(3000),
  /** Interface to bind. */
  HOST: z.string().min(1).default("0.0.0.0"),
  /** Folder of the embedded PGlite database (used when DATABASE_URL is unset). */
  DATA_DIR: z.string().min(1).default("./data"),
  /** postgres://user:pass@host:port/db — use that PostgreSQL server instead of PGlite. */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://").optional(),
  /** Admin bearer token; when unset one is generated at first start and printed once. */
  ADMIN_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** Parse worker threads. */
  WORKERS: int(1).max(256).default(availableParallelism()),
  /** Largest accepted upload, bytes. */
  MAX_UPLOAD_BYTES: int(1024).default(50 * 1024 * 1024),
  /** Most pages a PDF may have. */
  MAX_PAGES: int(1).default(3000),
  /** Most rows read from all sheets of an XLSX. */
  MAX_XLSX_ROWS: int(1).default(200_000),
  /** Most bytes an XLSX may inflate to (checked from the zip directory and again while inflating). */
  MAX_XLSX_INFLATED_BYTES: int(1024).default(200 * 1024 * 1024),
  /** Time limit for parsing one document, ms. */
  PARSE_TIMEOUT_MS: int(100).default(120_000),
  /** Parses in flight per API key before 429 (counted from admission, before the upload is read). */
  MAX_INFLIGHT_PER_KEY: int(1).default(8),
  /** Upload bytes the server holds in memory at once (being read, queued or parsing), from Content-Length at admission; beyond it, 503 queue_full. */
  MAX_INFLIGHT_UPLOAD_BYTES: int(1024).default(512 * 1024 * 1024),
  /** The share of MAX_INFLIGHT_UPLOAD_BYTES one owner's uploads may hold (all its keys); beyond it, 429 rate_limited. */
  MAX_INFLIGHT_UPLOAD_BYTES_PER_OWNER: int(1024).default(128 * 1024 * 1024),
  /** Seconds an upload may take in all, however steadily it sends; then 408 upload_timeout. */
  UPLOAD_DEADLINE_S: int(1).default(300),
  /** Documents one key may have refused as too costly (payload_too_large, too_many_pages, parse_timeout) per HOSTILE_REFUSAL_WINDOW_S before its parses get 429 (0: no limit). */
  HOSTILE_REFUSALS_PER_KEY: int(0).default(20),
  /** The window of HOSTILE_REFUSALS_PER_KEY, s. */
  HOSTILE_REFUSAL_WINDOW_S: int(1).default(600),
  /** Seconds an upload may send nothing before it is cut with 408 upload_timeout (at most 250). */
  UPLOAD_IDLE_TIMEOUT_S: int(1).max(250).default(10),
  /**
   * Bun's idle timeout of a connection, s: one that sends nothing (a stalled head, an unused
   * keep-alive connection) is closed. Uploads, sync parses and SSE streams lift it while they run.
   */
  HTTP_IDLE_TIMEOUT_S: int(1).max(255).default(30),
  /** Jobs waiting for a worker before 503 queue_full. */
  MAX_QUEUED_JOBS: int(0).default(64),
  /** Seconds a finished job's result is kept. */
  JOB_RESULT_TTL_S: int(1).default(600),
  /** Byte budget of the job result cache. */
  JOB_CACHE_MAX_BYTES: int(1024).default(256 * 1024 * 1024),
  /** Share of JOB_CACHE_MAX_BYTES one owner's results may fill; an owner's results only ever evict its own. */
  JOB_CACHE_OWNER_MAX_BYTES: int(1024).default(32 * 1024 * 1024),
  /** Seconds between SSE heartbeat comments. */
  SSE_HEARTBEAT_S: int(1).default(15),
  /** Seconds to let running jobs finish after SIGTERM. */
  SHUTDOWN_GRACE_S: int(0).default(30),
  /** Recycle a worker whose heap (Bun's heapUsed, PDFium's WebAssembly memory included) exceeds this many MiB after a task. */
  WORKER_MAX_HEAP_MB: int(64).default(256),
  /** Each parse worker parses a small made-up statement a few times before it reports ready, so the first upload does not pay for compiling the engine (docs/operations.md, Start-up). */
  WORKER_WARMUP: bool.default(true),
  /** PDF text extractor of the parse workers: pdfium (WebAssembly, faster) or pdfjs. Redaction always re-reads with pdf.js. */
  PDF_EXTRACTOR: z.enum(PDF_EXTRACTORS).default(DEFAULT_PDF_EXTRACTOR),
  /** OCR threads for scanned PDFs (their own pool, so text parses keep their speed); 0 turns OCR off (scans get scanned_document). Each holds ~75 MB of wasm and model while in use. */
  OCR_WORKERS: int(0).max(64).default(1),
  /** Most pages of a scanned PDF read by OCR; a longer scan gets scanned_document. */
  OCR_MAX_PAGES: int(1).default(20),
  /** Time limit for OCR of one page, ms (the document's limit is this times its pages, plus PARSE_TIMEOUT_MS). */
  OCR_PAGE_TIMEOUT_MS: int(1000).default(60_000),
  /** Resolution pages are rendered at for OCR (300: 94% of amounts read exactly on damaged scans; 200: 90%). */
  OCR_DPI: int(100).max(600).default(300),
  /** A scan read at a lower mean word confidence (0-100) is refused with scanned_document. */
  OCR_MIN_CONFIDENCE: int(0).max(100).default(60),
  /** A scan whose rows read by OCR chain with their balances less often than this (percent, after repairs) is refused with scanned_document; 100: any break refuses (a break is a misread figure or a lost row). */
  OCR_MIN_CHAIN_PERCENT: int(0).max(100).default(100),
  /** An OCR thread's engine is terminated after this long without a page, ms (it is made again on the next). */
  OCR_IDLE_MS: int(0).default(60_000),
  /** Free successful parses per owner per month for test keys. */
  TEST_MONTHLY_CAP: int(0).default(25),
  /** Parses per end-user IP per month for first_party keys. */
  FIRST_PARTY_IP_MONTHLY_CAP: int(0).default(50),
  /** Paystack API base URL. */
  PAYSTACK_BASE_URL: z.string().url().default("https://api.paystack.co"),
  /** Paystack secret key (sk_test_… or sk_live_…); billing is off without it. */
  PAYSTACK_SECRET_KEY: z.string().min(1).optional(),
  PAYSTACK_PLAN_STARTER: z.string().min(1).optional(),
  PAYSTACK_PLAN_GROWTH: z.string().min(1).optional(),
  PAYSTACK_PLAN_SCALE: z.string().min(1).optional(),
  /** Timeout of calls to Paystack, ms. */
  PAYSTACK_TIMEOUT_MS: int(100).default(10_000),
  /** Where Paystack sends the payer after checkout; unset leaves the dashboard's callback URL. */
  PAYSTACK_CALLBACK_URL: z.string().url().optional(),
  /** Plans: successful parses included per month, monthly price and price per overage parse, in naira. */
  PLAN_STARTER_MONTHLY_CAP: int(0).default(1_000),
  PLAN_STARTER_PRICE_NAIRA: naira.prefault("9500"),
  PLAN_STARTER_OVERAGE_NAIRA: naira.prefault("15"),
  PLAN_GROWTH_MONTHLY_CAP: int(0).default(10_000),
  PLAN_GROWTH_PRICE_NAIRA: naira.prefault("35000"),
  PLAN_GROWTH_OVERAGE_NAIRA: naira.prefault("12"),
  PLAN_SCALE_MONTHLY_CAP: int(0).default(100_000),
  PLAN_SCALE_PRICE_NAIRA: naira.prefault("150000"),
  PLAN_SCALE_OVERAGE_NAIRA: naira.prefault("8"),
  /** Seconds an admitted parse holds its place under a cap; a reservation older than this (its server died) stops counting. */
  METERING_RESERVATION_TTL_S: int(1).default(900),
  /** PostgreSQL: time to open a connection before the request fails with 503 database_unavailable, ms. */
  DB_CONNECT_TIMEOUT_MS: int(100).default(1500),
  /** PostgreSQL: longest a statement may run (server-side statement_timeout, and a client-side bound), ms. */
  DB_STATEMENT_TIMEOUT_MS: int(100).default(5000),
  /** Metering writes (a parse's outcome) kept in memory for retry while the database is away; beyond it the oldest is dropped and logged. */
  METERING_PENDING_MAX: int(1).default(100_000),
  /** redis://host:port/db — run jobs through BullMQ on this Redis so several instances share them (README: Running several instances). Unset: jobs live in this process. */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must start with redis:// or rediss://").optional(),
  /** Prefix of every Redis key (BullMQ's and the service's): instances sharing jobs use the same one. */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be 1-64 letters, digits, '_', '.' or '-'").default("stp"),
  /** Start even though Redis persists to disk (RDB or AOF): uploads and results then reach Redis's disk, breaking the no-disk promise. */
  REDIS_ALLOW_PERSISTENCE: bool.default(false),
  /** With REDIS_URL: times a job is started (its instance died mid-parse, another takes it) before it fails with worker_crashed. */
  JOB_MAX_ATTEMPTS: int(1).max(10).default(2),
  /** With REDIS_URL: seconds a running job's lock lasts unrenewed; a job whose instance died is taken by another within about twice this. */
  JOB_LOCK_S: int(1).max(600).default(30),
  /** Completion callbacks (issue 27): comma-separated host names or IP addresses that may be private, loopback or plain http (default: public https only). */
  CALLBACK_ALLOWED_HOSTS: z.string().optional(),
  /** Completion callbacks: wait before the second attempt, ms; each later wait doubles. */
  CALLBACK_RETRY_BASE_MS: int(10).default(5000),
  /** Completion callbacks: attempts in all, the first included (default 7: about 5 minutes with the default base). */
  CALLBACK_MAX_ATTEMPTS: int(1).max(20).default(7),
  /** Completion callbacks: one attempt's time limit, connect to answer, ms. */
  CALLBACK_TIMEOUT_MS: int(100).default(10_000),
  /** Log level: one JSON object per line on stdout. */
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Serve the OpenAPI docs page at /docs. */
  DOCS_ENABLED: bool.default(true),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Record<keyof Config, string>> = {}): Config {
  const source: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const value = overrides[key as keyof Config] ?? env[key];
    // An empty variable means "unset", as in most shells' `VAR= cmd`.
    if (value !== undefined && value !== "") source[key] = value;
  }
  const parsed = configSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}
