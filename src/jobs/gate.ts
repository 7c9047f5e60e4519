import { AppError } from "../errors.ts";

export interface GateOptions {
  /** Documents parsed at once (one per worker thread). */
  concurrency: number;
  /** Documents allowed to wait for a slot; beyond it, 503 queue_full. */
  maxQueued: number;
  /** Documents one API key may have waiting or running; beyond it, 429 rate_limited. */
  maxPerKey: number;
  /** Retry-After for queue_full, seconds. */
  retryAfterS?: number;
}

export interface Ticket {
  /** Resolves when the document may start; never rejects. */
  readonly started: Promise<void>;
  /** Gives the slot (or the place in the queue) back; idempotent. */
  release(): void;
}

export const queueFull = (retryAfter: number) =>
  new AppError("queue_full", 503, "Too many documents are waiting to be parsed; retry shortly", { retryAfter });
export const rateLimited = (limit: number) =>
  new AppError("rate_limited", 429, `At most ${limit} parses may be in flight per API key`, { retryAfter: 1 });
export const shuttingDown = () => new AppError("service_unavailable", 503, "The service is shutting down", { retryAfter: 5 });

/**
 * Admission control for parses, sync and jobs alike: a FIFO of documents in front of the pool,
 * bounded in length and per key. Refusals are immediate, so a caller is never left waiting on a
 * queue it cannot get into.
 */
export class DocumentGate {
  private running = 0;
  private readonly waiting: Array<{ start: () => void }> = [];
  private readonly perKey = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: GateOptions) {}

  get runningCount(): number {
    return this.running;
  }
  get queuedCount(): number {
    return this.waiting.length;
  }

  /** Refuses new documents from now on (shutdown); those admitted carry on. */
  close(): void {
    this.closed = true;
  }

  /** Throws what enter() would throw now, without taking a place (to refuse before reading an upload). */
  check(key: string): void {
    const { concurrency, maxQueued, maxPerKey, retryAfterS = 2 } = this.options;
    if (this.closed) throw shuttingDown();
    if ((this.perKey.get(key) ?? 0) >= maxPerKey) throw rateLimited(maxPerKey);
    if (this.running >= concurrency && this.waiting.length >= maxQueued) throw queueFull(retryAfterS);
  }

  enter(key: string): Ticket {
    this.check(key);
    const mine = this.perKey.get(key) ?? 0;
    const mustWait = this.running >= this.options.concurrency;
    this.perKey.set(key, mine + 1);

    let state: "waiting" | "running" | "released" = "waiting";
    let resolveStart!: () => void;
    const started = new Promise<void>((r) => (resolveStart = r));
    const entry = {
      start: () => {
        state = "running";
        this.running++;
        resolveStart();
      },
    };
    if (mustWait) this.waiting.push(entry);
    else entry.start();

    return {
      started,
      release: () => {
        if (state === "released") return;
        const wasRunning = state === "running";
        state = "released";
        const n = (this.perKey.get(key) ?? 1) - 1;
        if (n > 0) this.perKey.set(key, n);
        else this.perKey.delete(key);
        if (wasRunning) {
          this.running--;
          this.waiting.shift()?.start();
        } else {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
        }
      },
    };
  }
}
