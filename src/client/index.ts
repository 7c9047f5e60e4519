/**
 * Typed client for the statement parsing service. Uses only the global `fetch`, `FormData`, `Blob`
 * and `AbortController`, so it runs on Bun and Node 18+ (and in browsers). Every call takes a
 * `signal` and a `timeoutMs`; 429/503 answers are retried after their Retry-After, a bounded
 * number of times; failures are thrown as the ApiError subclass of their `error_class`.
 */
import { apiError, ApiError, type ApiErrorInit, isErrorEnvelope, isValidationBody, TimeoutError } from "./errors.ts";
import { readSse } from "./sse.ts";
import type {
  BanksResponse,
  JobCreated,
  JobEvent,
  JobResult,
  JobSnapshot,
  ParseResponse,
  RedactedDocument,
  RedactedResultRef,
  ResultKind,
  Usage,
} from "./types.ts";

export * from "./errors.ts";
export type * from "./types.ts";
export { readSse, SseParser, type SseMessage } from "./sse.ts";

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** Where the service lives, e.g. `http://127.0.0.1:3000` (a path prefix is kept). */
  baseUrl: string;
  apiKey: string;
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
  /** Time limit of one call, ms (default 120 000). */
  timeoutMs?: number;
  /** Time limit of a whole `parseJob`, from upload to result, ms (default 900 000). */
  jobTimeoutMs?: number;
  /** Retries of a 429/503 answer before giving up (default 3). */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for; the error is thrown instead, ms (default 60 000). */
  maxRetryDelayMs?: number;
  /** Told before each wait for a retry (for progress displays and logs). */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  /** The path that answered 429/503, e.g. `/v1/parse/jobs`. */
  path: string;
  status: number;
  errorClass: string;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's time limit for this call, ms. */
  timeoutMs?: number;
}

/** A statement: bytes, or a Blob/File (whose name is sent along). */
export type StatementInput = Blob | Uint8Array | ArrayBuffer;

export interface UploadOptions extends CallOptions {
  /** Bank id that overrides detection. */
  bank?: string;
  /** User password of an encrypted PDF. */
  password?: string;
  /** File name sent with the upload (the server sniffs the bytes; this is only a label). */
  filename?: string;
  /**
   * Sent as `Idempotency-Key`: the same key with the same request within 24 h gets the first
   * answer again (not parsed or counted twice); with another request, IdempotencyKeyReusedError.
   */
  idempotencyKey?: string;
}

export interface JobOptions extends UploadOptions {
  format?: "json" | "csv";
  redact?: boolean;
  /** Your own label for the job (up to 200 characters), shown in its snapshot and the jobs list. */
  clientReference?: string;
  /** Where the server POSTs the job's final snapshot, signed (https, public address). */
  callbackUrl?: string;
}

export interface Client {
  parse(file: StatementInput, options?: UploadOptions & { format?: "json" }): Promise<ParseResponse>;
  parse(file: StatementInput, options: UploadOptions & { format: "csv" }): Promise<string>;
  /**
   * Creates a job and yields its progress from the SSE stream, ending with the result. Aborting
   * `options.signal` (or passing `timeoutMs`) after the job was created also cancels it on the
   * server (DELETE /v1/parse/jobs/{id}), so its worker stops and nothing is counted.
   */
  parseJob(file: StatementInput, options?: JobOptions): AsyncGenerator<JobEvent, void, undefined>;
  /** Cancels a queued or running job (its snapshot, failed with error_class job_cancelled); ConflictError once it has finished. */
  cancel(jobId: string, options?: CallOptions): Promise<JobSnapshot>;
  /** The finished job's bytes: ParseResponse, CSV text or the redacted document. */
  result(jobId: string, options?: CallOptions): Promise<JobResult>;
  /** Polling fallback (SPEC 2.5). */
  job(jobId: string, options?: CallOptions): Promise<JobSnapshot>;
  redact(file: StatementInput, options?: UploadOptions): Promise<RedactedDocument>;
  usage(options?: CallOptions): Promise<Usage>;
  banks(options?: CallOptions): Promise<BanksResponse>;
}

const DEFAULTS = { timeoutMs: 120_000, jobTimeoutMs: 900_000, maxRetries: 3, maxRetryDelayMs: 60_000 };
/** Wait between polls when the stream is unavailable, ms. */
const POLL_INTERVAL_MS = 750;
/** Backoff base when a 429/503 carries no Retry-After, ms (doubles per attempt). */
const BACKOFF_BASE_MS = 500;
/** How long the DELETE sent for an abandoned job may take; it is best effort, ms. */
const CANCEL_TIMEOUT_MS = 10_000;

/** HTTP status the server uses for an error class, for envelopes that arrive without one (the SSE `result` event). */
const STATUS_OF_CLASS: Record<string, number> = {
  auth_error: 401, subscription_inactive: 402, forbidden: 403, not_found: 404, job_expired: 404, stream_in_use: 409, conflict: 409,
  job_cancelled: 409, job_finished: 409, idempotency_key_reused: 409, idempotency_in_progress: 409,
  payload_too_large: 413, too_many_pages: 413, rate_limited: 429, queue_full: 503, service_unavailable: 503,
  database_unavailable: 503, upload_aborted: 400, upload_timeout: 408,
  internal_error: 500, worker_crashed: 500,
};

export function createClient(options: ClientOptions): Client {
  if (!options || typeof options.baseUrl !== "string" || !/^https?:\/\//.test(options.baseUrl)) {
    throw new TypeError("options.baseUrl must be an http(s) URL");
  }
  if (typeof options.apiKey !== "string" || options.apiKey.length === 0) throw new TypeError("options.apiKey must be a non-empty string");
  const base = options.baseUrl.replace(/\/+$/, "");
  const apiKey = options.apiKey;
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const cfg = {
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    jobTimeoutMs: options.jobTimeoutMs ?? DEFAULTS.jobTimeoutMs,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
  };

  const url = (pathOrUrl: string) => (/^https?:\/\//.test(pathOrUrl) ? pathOrUrl : base + (pathOrUrl.startsWith("/") ? "" : "/") + pathOrUrl);
  // Whatever the server or the network says, the key must not leave inside an error.
  const scrub = (s: string) => (s.includes(apiKey) ? s.split(apiKey).join("[api key]") : s);

  interface Req {
    method: "GET" | "POST" | "DELETE";
    path: string;
    /** Built anew per attempt: a FormData body cannot be replayed after it was sent. */
    body?: () => FormData;
    auth?: boolean;
    accept?: string;
    headers?: Record<string, string>;
  }

  /** One call with its retries; resolves with a 2xx response whose body the caller reads within `deadline`. */
  async function send(req: Req, deadline: Deadline): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { accept: req.accept ?? "application/json", ...req.headers };
      if (req.auth !== false) headers.authorization = `Bearer ${apiKey}`;
      let res: Response;
      try {
        res = await doFetch(url(req.path), { method: req.method, headers, body: req.body?.(), signal: deadline.signal });
      } catch (e) {
        throw deadline.translate(e, scrub);
      }
      if (res.ok) return res;
      const error = await errorFromResponse(res, deadline, scrub);
      const retryable = res.status === 503 || res.status === 429;
      if (!retryable || attempt >= cfg.maxRetries) throw error;
      const wait = error.retryAfter !== undefined ? error.retryAfter * 1000 : BACKOFF_BASE_MS * 2 ** attempt;
      if (wait > cfg.maxRetryDelayMs) throw error;
      options.onRetry?.({ path: req.path.replace(/^https?:\/\/[^/]+/, "").split("?")[0] ?? "", status: res.status, errorClass: error.errorClass, attempt: attempt + 1, delayMs: wait });
      await deadline.sleep(wait);
    }
  }

  async function call<T>(req: Req, options: CallOptions | undefined, read: (res: Response) => Promise<T>): Promise<T> {
    const deadline = new Deadline(options?.signal, options?.timeoutMs ?? cfg.timeoutMs);
    try {
      const res = await send(req, deadline);
      try {
        return await read(res);
      } catch (e) {
        throw deadline.translate(e, scrub);
      }
    } finally {
      deadline.dispose();
    }
  }

  const json = async <T>(res: Response): Promise<T> => {
    const text = await res.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw apiError(`Expected JSON from ${new URL(res.url || "http://x/").pathname}, got ${text.slice(0, 80)}`, { status: res.status, errorClass: "bad_response" });
    }
  };

  const idempotency = (o: UploadOptions): Record<string, string> => (o.idempotencyKey ? { "idempotency-key": o.idempotencyKey } : {});

  function form(file: StatementInput, o: UploadOptions & { redact?: boolean; clientReference?: string; callbackUrl?: string }): () => FormData {
    const blob = file instanceof Blob ? file : new Blob([file as BlobPart]);
    const name = o.filename ?? (typeof File !== "undefined" && file instanceof File ? file.name : "statement");
    return () => {
      const f = new FormData();
      f.append("pdf", blob, name);
      if (o.bank) f.append("bank", o.bank);
      if (o.password !== undefined && o.password !== "") f.append("password", o.password);
      if (o.redact) f.append("redact", "true");
      if (o.clientReference !== undefined) f.append("client_reference", o.clientReference);
      if (o.callbackUrl !== undefined) f.append("callback_url", o.callbackUrl);
      return f;
    };
  }

  const kindOf = (o: JobOptions): ResultKind => (o.redact ? "redact" : o.format === "csv" ? "csv" : "json");

  /** Best-effort DELETE of a job the caller gave up on; its own short time limit, errors ignored. */
  async function abandon(jobId: string): Promise<void> {
    const signal = AbortSignal.timeout(CANCEL_TIMEOUT_MS);
    try {
      const res = await doFetch(url(`/v1/parse/jobs/${encodeURIComponent(jobId)}`), { method: "DELETE", headers: { accept: "application/json", authorization: `Bearer ${apiKey}` }, signal });
      await res.body?.cancel();
    } catch {
      // The job may have finished meanwhile (409) or the service be unreachable: nothing more to do.
    }
  }

  async function* parseJob(file: StatementInput, o: JobOptions = {}): AsyncGenerator<JobEvent, void, undefined> {
    const deadline = new Deadline(o.signal, o.timeoutMs ?? cfg.jobTimeoutMs);
    // Once the job exists, giving up on it (the caller's signal, or the time limit) cancels it on the server.
    let cancelling: Promise<void> | undefined;
    let stopWatching = () => {};
    try {
      const kind = kindOf(o);
      const query = o.format === "csv" ? "?format=csv" : "";
      const res = await send({ method: "POST", path: `/v1/parse/jobs${query}`, body: form(file, o), headers: idempotency(o) }, deadline);
      const created = await json<JobCreated>(res).catch((e: unknown) => Promise.reject(deadline.translate(e, scrub)));
      if (typeof created.job_id !== "string" || typeof created.stream_url !== "string") {
        throw apiError("The job was created but the answer has no job_id/stream_url", { status: res.status, errorClass: "bad_response" });
      }
      const jobId = created.job_id;
      const onGiveUp = () => {
        cancelling ??= abandon(jobId);
      };
      if (deadline.signal.aborted) onGiveUp();
      else deadline.signal.addEventListener("abort", onGiveUp, { once: true });
      stopWatching = () => deadline.signal.removeEventListener("abort", onGiveUp);
      yield { type: "created", jobId, streamUrl: created.stream_url, pollUrl: created.poll_url };

      // The stream is the fast path; if it cannot be opened or ends before its `result` event
      // (proxy cut, restart), the snapshot endpoint is polled until the job settles.
      let streamed: unknown;
      try {
        const stream = await send({ method: "GET", path: created.stream_url, auth: false, accept: "text/event-stream" }, deadline);
        if (stream.body) {
          for await (const m of readSse(stream.body)) {
            const payload = parseJsonOrUndefined(m.data);
            if (m.event === "result") {
              if (isErrorEnvelope(payload)) throw envelopeError(payload, scrub);
              streamed = payload;
              break;
            }
            if (m.event === "message" && isProgress(payload)) {
              yield { type: "progress", jobId, stage: payload.stage, current: payload.current, total: payload.total };
            }
          }
        }
      } catch (e) {
        if (e instanceof ApiError && !(e instanceof TimeoutError) && e.status !== 0 && e.status < 500 && e.status !== 409) throw e;
        if (deadline.signal.aborted) throw deadline.translate(e, scrub);
      }
      const pollUrl = created.poll_url || `/v1/parse/jobs/${jobId}`;
      streamed ??= await pollUntilSettled(pollUrl, kind, deadline);
      // Settled: an abort from here on has nothing left to cancel.
      stopWatching();
      if (!isParseResponse(streamed)) {
        yield { type: "result", jobId, kind: "redact", redacted: redactedRef(streamed, jobId) };
      } else {
        // The canned sample says so in its JSON (`sample: true`, as X-Sample on a sync parse).
        const sample = streamed.sample === true;
        yield { type: "result", jobId, kind: kind === "csv" ? "csv" : "json", result: streamed, sample };
      }
    } catch (e) {
      // The DELETE has gone out (or failed) before the caller hears of the abort.
      if (cancelling) await cancelling;
      throw deadline.translate(e, scrub);
    } finally {
      stopWatching();
      deadline.dispose();
    }
  }

  /** Resolves with what the stream's `result` event would have carried. */
  async function pollUntilSettled(pollUrl: string, kind: ResultKind, deadline: Deadline): Promise<unknown> {
    for (;;) {
      const snap = await json<JobSnapshot>(await send({ method: "GET", path: pollUrl }, deadline));
      if (snap.state === "done") {
        if (snap.result) return snap.result;
        if (kind === "redact") return { result_url: snap.result_url, redactions: snap.redactions, content_type: undefined };
      }
      if (snap.state === "failed") {
        throw envelopeError({ error: snap.error ?? "The job failed", error_class: snap.error_class ?? "internal_error", marker_coverage: 0 }, scrub);
      }
      await deadline.sleep(POLL_INTERVAL_MS);
    }
  }

  async function readResult(res: Response): Promise<JobResult> {
    const contentType = res.headers.get("content-type") ?? "application/octet-stream";
    if (contentType.startsWith("application/json")) return { kind: "json", contentType, data: await json<ParseResponse>(res) };
    if (contentType.startsWith("text/csv")) return { kind: "csv", contentType, text: await res.text() };
    return { kind: "redact", contentType, bytes: new Uint8Array(await res.arrayBuffer()), ...redactionsOf(res) };
  }

  function parse(file: StatementInput, o?: UploadOptions & { format?: "json" }): Promise<ParseResponse>;
  function parse(file: StatementInput, o: UploadOptions & { format: "csv" }): Promise<string>;
  function parse(file: StatementInput, o: UploadOptions & { format?: "json" | "csv" } = {}): Promise<ParseResponse | string> {
    const csv = o.format === "csv";
    const req: Req = { method: "POST", path: `/v1/parse${csv ? "?format=csv" : ""}`, body: form(file, o), accept: csv ? "text/csv" : "application/json", headers: idempotency(o) };
    return csv ? call(req, o, (r) => r.text()) : call(req, o, (r) => json<ParseResponse>(r));
  }

  return {
    parse,
    parseJob,
    result: (jobId, o) => call({ method: "GET", path: `/v1/parse/jobs/${encodeURIComponent(jobId)}/result`, accept: "*/*" }, o, readResult),
    job: (jobId, o) => call({ method: "GET", path: `/v1/parse/jobs/${encodeURIComponent(jobId)}` }, o, (r) => json<JobSnapshot>(r)),
    cancel: (jobId, o) => call({ method: "DELETE", path: `/v1/parse/jobs/${encodeURIComponent(jobId)}` }, o, (r) => json<JobSnapshot>(r)),
    redact: (file, o = {}) =>
      call({ method: "POST", path: "/v1/parse", body: form(file, { ...o, redact: true }), accept: "*/*" }, o, async (r) => ({
        contentType: r.headers.get("content-type") ?? "application/octet-stream",
        bytes: new Uint8Array(await r.arrayBuffer()),
        ...redactionsOf(r),
      })),
    usage: (o) => call({ method: "GET", path: "/v1/usage" }, o, (r) => json<Usage>(r)),
    banks: (o) => call({ method: "GET", path: "/v1/banks" }, o, (r) => json<BanksResponse>(r)),
  };
}

function redactedRef(v: unknown, jobId: string): RedactedResultRef {
  const o = (v !== null && typeof v === "object" ? v : {}) as Record<string, unknown>;
  return {
    resultUrl: typeof o.result_url === "string" ? o.result_url : `/v1/parse/jobs/${encodeURIComponent(jobId)}/result`,
    redactions: typeof o.redactions === "number" ? o.redactions : 0,
    contentType: typeof o.content_type === "string" ? o.content_type : "application/octet-stream",
  };
}

function redactionsOf(res: Response): { redactions?: number } {
  const h = res.headers.get("x-redactions");
  return h !== null && /^\d+$/.test(h) ? { redactions: Number(h) } : {};
}

function parseJsonOrUndefined(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function isParseResponse(v: unknown): v is ParseResponse {
  return v !== null && typeof v === "object" && Array.isArray((v as { transactions?: unknown }).transactions);
}

function isProgress(v: unknown): v is { stage: string; current: number; total: number } {
  if (v === null || typeof v !== "object") return false;
  const o = v as Record<string, unknown>;
  return typeof o.stage === "string" && typeof o.current === "number" && typeof o.total === "number";
}

function envelopeError(env: { error: string; error_class: string; marker_coverage?: number }, scrub: (s: string) => string): ApiError {
  return apiError(scrub(env.error), { status: STATUS_OF_CLASS[env.error_class] ?? 422, errorClass: env.error_class, markerCoverage: env.marker_coverage ?? 0 });
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

async function errorFromResponse(res: Response, deadline: Deadline, scrub: (s: string) => string): Promise<ApiError> {
  let text = "";
  try {
    text = await res.text();
  } catch (e) {
    if (deadline.signal.aborted) throw deadline.translate(e, scrub);
  }
  const body = parseJsonOrUndefined(text);
  const init: ApiErrorInit = { status: res.status, errorClass: fallbackClass(res.status) };
  const retryAfter = parseRetryAfter(res.headers.get("retry-after"));
  if (retryAfter !== undefined) init.retryAfter = retryAfter;
  const requestId = res.headers.get("x-request-id");
  if (requestId) init.requestId = requestId;
  if (isErrorEnvelope(body)) {
    return apiError(scrub(body.error), { ...init, errorClass: body.error_class, markerCoverage: typeof body.marker_coverage === "number" ? body.marker_coverage : 0 });
  }
  if (isValidationBody(body)) {
    const msg = body.detail.map((d) => `${(d.loc ?? []).join(".")}: ${d.msg}`).join("; ");
    return apiError(scrub(`Invalid request: ${msg}`), { ...init, errorClass: "validation_error", detail: body.detail });
  }
  return apiError(scrub(`HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ""}`), init);
}

function fallbackClass(status: number): string {
  switch (status) {
    case 401: return "auth_error";
    case 402: return "subscription_inactive";
    case 403: return "forbidden";
    case 404: return "not_found";
    case 409: return "conflict";
    case 413: return "payload_too_large";
    case 422: return "validation_error";
    case 429: return "rate_limited";
    case 503: return "service_unavailable";
    default: return status >= 500 ? "internal_error" : "http_error";
  }
}

/**
 * The caller's signal and the call's time limit as one signal (AbortSignal.any is missing on
 * Node 18), plus abortable sleeps and the translation of an abort into the right error.
 */
class Deadline {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #timeoutMs: number;
  readonly #outer: AbortSignal | undefined;
  readonly #onOuterAbort = () => this.#controller.abort(this.#outer?.reason);
  #timedOut = false;

  constructor(outer: AbortSignal | undefined, timeoutMs: number) {
    this.#outer = outer;
    this.#timeoutMs = timeoutMs;
    if (outer?.aborted) this.#controller.abort(outer.reason);
    else outer?.addEventListener("abort", this.#onOuterAbort, { once: true });
    if (Number.isFinite(timeoutMs) && timeoutMs > 0) {
      this.#timer = setTimeout(() => {
        this.#timedOut = true;
        this.#controller.abort(new TimeoutError(`The call took longer than ${timeoutMs} ms`, { status: 0, errorClass: "timeout" }));
      }, timeoutMs);
    }
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.signal.aborted) return reject(this.signal.reason);
      const t = setTimeout(() => {
        this.signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(this.signal.reason);
      };
      this.signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Aborts become the caller's abort reason or a TimeoutError; other failures a NetworkError. */
  translate(e: unknown, scrub: (s: string) => string): unknown {
    if (e instanceof ApiError) return e;
    if (this.#timedOut) return new TimeoutError(`The call took longer than ${this.#timeoutMs} ms`, { status: 0, errorClass: "timeout" });
    if (this.#outer?.aborted) return this.#outer.reason;
    const message = e instanceof Error ? e.message : String(e);
    return apiError(scrub(`Could not reach the service: ${message}`), { status: 0, errorClass: "network_error" });
  }

  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#outer?.removeEventListener("abort", this.#onOuterAbort);
  }
}
