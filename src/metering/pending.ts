import type { ReservationOutcome } from "../db/usage.ts";
import type { Logger } from "../log.ts";

export type Outcome = ReservationOutcome;

export interface PendingWrite {
  id: string;
  outcome: Outcome;
  at: Date;
}

export interface PendingOptions {
  /** Writes one outcome; resolves once it is in the database (a repeat is a no-op there). */
  write(w: PendingWrite): Promise<unknown>;
  /** Most writes kept; past it the oldest is dropped (and logged). */
  max: number;
  log?: Pick<Logger, "warn" | "error" | "info">;
  /** First retry delay, ms; doubles per failed round up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * The outcomes of parses whose metering write failed (the database was away), kept in memory and
 * retried with backoff until they land, in order. The database write is idempotent per
 * reservation, so a retry after a write that did land but whose answer was lost changes nothing:
 * each parse is counted exactly once. Bounded (`max`); flushed at shutdown.
 */
export class PendingWrites {
  private readonly queue = new Map<string, PendingWrite>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private delayMs: number;
  private running: Promise<void> | undefined;

  constructor(private readonly options: PendingOptions) {
    this.delayMs = options.baseDelayMs ?? 250;
  }

  get size(): number {
    return this.queue.size;
  }

  add(w: PendingWrite): void {
    if (this.queue.size >= this.options.max) {
      const oldest = this.queue.keys().next().value;
      if (oldest !== undefined) {
        this.queue.delete(oldest);
        this.options.log?.error("metering: pending writes full, oldest dropped", { reservation: oldest, max: this.options.max });
      }
    }
    this.queue.set(w.id, w);
    this.schedule();
  }

  /** Retries until every write landed or `timeoutMs` passed; resolves with how many are left. */
  async flush(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.size > 0 && Date.now() < deadline) {
      await this.round();
      if (this.queue.size > 0) await Bun.sleep(Math.min(500, Math.max(0, deadline - Date.now())));
    }
    if (this.queue.size > 0) this.options.log?.error("metering: writes lost at shutdown (database away)", { count: this.queue.size });
    return this.queue.size;
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.queue.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.round().then(() => this.schedule());
    }, this.delayMs);
    this.timer.unref?.();
  }

  /** One pass over the queue in order; stops at the first failure (the database is still away). */
  private round(): Promise<void> {
    this.running ??= (async () => {
      try {
        for (const w of [...this.queue.values()]) {
          try {
            await this.options.write(w);
          } catch {
            this.delayMs = Math.min(this.options.maxDelayMs ?? 5000, this.delayMs * 2);
            return;
          }
          this.queue.delete(w.id);
          this.delayMs = this.options.baseDelayMs ?? 250;
        }
        if (this.queue.size === 0) this.options.log?.info("metering: deferred writes landed");
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
