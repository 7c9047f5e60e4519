import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { signingSecrets } from "../db/callback-secrets.ts";
import type { Queryable } from "../db/client.ts";
import type { CallbackState } from "../db/parse-jobs.ts";
import type { Logger } from "../log.ts";
import { SIGNATURE_HEADER, signatureHeader } from "./signature.ts";
import { type AllowedHosts, RefusedTarget, resolveTarget } from "./target.ts";

export interface DeliveryOptions {
  allowed: AllowedHosts;
  /** Wait before the second attempt, ms; each later wait doubles (CALLBACK_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** Attempts in all, the first included (CALLBACK_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** One attempt's limit, connect to answer, ms. */
  timeoutMs: number;
}

export interface DeliveryDeps extends DeliveryOptions {
  db: Queryable;
  log: Logger;
  /** The job's final snapshot as GET /v1/parse/jobs/{id} answers it; undefined once the backend has swept it. */
  snapshot(id: string, owner: string): Promise<string | undefined>;
  /** Told after each attempt (the jobs list's callback_state). */
  record(id: string, state: CallbackState, attempts: number): Promise<void>;
}

/** The wait after attempt `n` (1-based) failed: base, 2×base, 4×base, ... */
export const retryDelayMs = (base: number, n: number): number => base * 2 ** (n - 1);

/** Outcome of one POST: delivered, worth retrying, or refused for good (a private address, a redirect). */
type Attempt = { ok: true } | { ok: false; retry: boolean; reason: string };

/**
 * POSTs `body` to `url`, connecting only to the address resolveTarget checked (the socket's lookup
 * answers with it, so DNS cannot change between the check and the connection). Redirects are not
 * followed: node's http client never does, and a 3xx counts as refused.
 */
async function post(url: URL, body: string, headers: Record<string, string>, o: DeliveryOptions): Promise<Attempt> {
  let pinned: { address: string; family: 4 | 6 };
  try {
    pinned = await resolveTarget(url.hostname, o.allowed);
  } catch (e) {
    if (e instanceof RefusedTarget) return { ok: false, retry: false, reason: e.message };
    return { ok: false, retry: true, reason: `DNS: ${e instanceof Error ? e.message : String(e)}` };
  }
  const lookup: LookupFunction = (_host, options, cb) => {
    if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise<Attempt>((resolve) => {
    const req = client.request(
      url,
      { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, lookup, agent: false, timeout: o.timeoutMs },
      (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve({ ok: true });
        else if (status >= 300 && status < 400) resolve({ ok: false, retry: false, reason: `answered ${status} (redirects are not followed)` });
        else resolve({ ok: false, retry: true, reason: `answered ${status}` });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${o.timeoutMs} ms`)));
    req.on("error", (e) => resolve({ ok: false, retry: true, reason: e.message }));
    req.end(body);
  });
}

/**
 * Completion callbacks: the job's final snapshot POSTed to its callback_url, signed
 * (signature.ts), retried with doubling waits up to maxAttempts. Retries are timers of the
 * instance that ended the job: a restart drops the ones pending (docs/batch.md).
 */
export class CallbackDispatcher {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: DeliveryDeps) {}

  dispatch(job: { id: string; owner: string; url: string }): void {
    this.run(job, 1);
  }

  /** Stops scheduling retries and waits for attempts on the wire. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private run(job: { id: string; owner: string; url: string }, n: number): void {
    const p = this.attempt(job, n).catch((e: unknown) => this.deps.log.error("callback attempt failed", { job_id: job.id, error: String(e) }));
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async attempt(job: { id: string; owner: string; url: string }, n: number): Promise<void> {
    const { db, log } = this.deps;
    const give = async (reason: string) => {
      log.warn("callback failed", { job_id: job.id, attempts: n, reason });
      await this.deps.record(job.id, "failed", n);
    };
    const body = await this.deps.snapshot(job.id, job.owner);
    if (body === undefined) return give("the job's result was swept before the callback got through");
    const secrets = await signingSecrets(db, job.owner);
    if (secrets.length === 0) return give("the owner has no callback signing secret");
    const t = Math.floor(Date.now() / 1000);
    const headers = {
      "content-type": "application/json",
      "user-agent": "statement-parser-callback/1",
      [SIGNATURE_HEADER]: signatureHeader(secrets, body, t),
      "stp-job-id": job.id,
      "stp-delivery-attempt": String(n),
    };
    const result = await post(new URL(job.url), body, headers, this.deps);
    if (result.ok) {
      log.info("callback delivered", { job_id: job.id, attempts: n });
      await this.deps.record(job.id, "delivered", n);
      return;
    }
    if (!result.retry || n >= this.deps.maxAttempts || this.stopped) return give(result.reason);
    await this.deps.record(job.id, "pending", n);
    const wait = retryDelayMs(this.deps.retryBaseMs, n);
    log.info("callback will be retried", { job_id: job.id, attempt: n, reason: result.reason, retry_in_ms: wait });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.run(job, n + 1);
    }, wait);
    timer.unref?.();
    this.timers.add(timer);
  }
}
