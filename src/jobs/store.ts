import { LRUCache } from "lru-cache";
import type { Job } from "./job.ts";

export interface StoreOptions {
  /** How long a finished job (and its result) is kept, ms. */
  ttlMs: number;
  /** Byte budget of finished jobs; the least recently used go first when it is exceeded. */
  maxBytes: number;
}

/**
 * Job records, in memory only. Unfinished jobs sit in a plain map (they must not be evicted while
 * a worker is on them); a finished job moves to an LRU with a TTL and a byte budget. A sweep
 * drops expired entries so memory goes back even when nobody asks for them.
 */
export class JobStore {
  private readonly active = new Map<string, Job>();
  private readonly finished: LRUCache<string, Job>;
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor({ ttlMs, maxBytes }: StoreOptions) {
    this.finished = new LRUCache<string, Job>({ ttl: ttlMs, maxSize: maxBytes, sizeCalculation: (job) => Math.max(1, job.size()) });
    this.sweeper = setInterval(() => this.sweep(), Math.min(ttlMs, 30_000));
    this.sweeper.unref?.();
  }

  add(job: Job): void {
    this.active.set(job.id, job);
  }

  /** Called once the job has its final state. */
  settle(job: Job): void {
    this.active.delete(job.id);
    this.finished.set(job.id, job);
  }

  get(id: string): Job | undefined {
    return this.active.get(id) ?? this.finished.get(id);
  }

  /** The job, if `owner` created it; anyone else's job reads as absent. */
  getOwned(id: string, owner: string): Job | undefined {
    const job = this.get(id);
    return job && job.owner === owner ? job : undefined;
  }

  /** Finished jobs held (expired ones count until the sweep drops them). */
  get finishedCount(): number {
    return this.finished.size;
  }

  unfinished(): Job[] {
    return [...this.active.values()];
  }

  sweep(): void {
    this.finished.purgeStale();
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
