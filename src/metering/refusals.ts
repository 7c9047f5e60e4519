import { AppError } from "../errors.ts";
import type { Admission } from "./types.ts";

/**
 * Error classes of a document refused for what it is built to cost: a bomb or a drawing too big to
 * hold (payload_too_large), a page tree of millions (too_many_pages), content that outlasts the
 * time limit (parse_timeout). Each held a worker until a guard or the clock stopped it, and failed
 * parses are never counted, so without this bound one key could send them without end. A scan, a
 * password, a malformed file refused at once, or a layout the engine does not know are honest
 * failures and are not counted here.
 */
export const HOSTILE_ERROR_CLASSES: ReadonlySet<string> = new Set(["payload_too_large", "too_many_pages", "parse_timeout"]);

export interface RefusalLimitOptions {
  /** Refusals one key may collect within the window; the next parse gets 429 (0: no limit). */
  max: number;
  windowMs: number;
  now?: () => number;
}

export const refusalsLimited = (max: number, retryAfter: number) =>
  new AppError("rate_limited", 429, `This API key had ${max} documents refused as too costly to read (error classes ${[...HOSTILE_ERROR_CLASSES].join(", ")}) in a short time; retry later`, { retryAfter });

/**
 * A sliding window of hostile refusals per API key, in this process (each instance bounds what it
 * parses itself). `check` runs at admission, before the upload is read; `watch` wraps a parse's
 * admission so that its failure is recorded where it is settled.
 */
export class RefusalLimit {
  private readonly byKey = new Map<string, number[]>();
  private readonly now: () => number;

  constructor(private readonly opts: RefusalLimitOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Times of the key's refusals still inside the window (older ones dropped). */
  private recent(key: string): number[] {
    const times = this.byKey.get(key);
    if (!times) return [];
    const since = this.now() - this.opts.windowMs;
    while (times.length > 0 && times[0]! <= since) times.shift();
    if (times.length === 0) this.byKey.delete(key);
    return times;
  }

  /** Throws 429 rate_limited (Retry-After: until the oldest refusal leaves the window) when the key is over its limit. */
  check(key: string): void {
    if (this.opts.max === 0) return;
    const times = this.recent(key);
    if (times.length < this.opts.max) return;
    throw refusalsLimited(this.opts.max, Math.max(1, Math.ceil((times[0]! + this.opts.windowMs - this.now()) / 1000)));
  }

  record(key: string, errorClass: string): void {
    if (this.opts.max === 0 || !HOSTILE_ERROR_CLASSES.has(errorClass)) return;
    const times = this.recent(key);
    times.push(this.now());
    // Only the last `max` matter for the decision: a flood costs a bounded array per key.
    if (times.length > this.opts.max) times.splice(0, times.length - this.opts.max);
    this.byKey.set(key, times);
  }

  /** The admission, with its failure recorded against `key` before it is settled. */
  watch(key: string, admission: Admission): Admission {
    return {
      sample: admission.sample,
      succeeded: () => admission.succeeded(),
      failed: (errorClass) => {
        this.record(key, errorClass);
        return admission.failed(errorClass);
      },
    };
  }
}
