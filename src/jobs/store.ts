import { LRUCache } from "lru-cache";
import type { Job } from "./job.ts";
import { besideBytes, watchBeside } from "./result-formats.ts";

export interface StoreOptions {
  /** How long a finished job (and its result) is kept, ms. */
  ttlMs: number;
  /** Byte budget of finished jobs, all owners together (JOB_CACHE_MAX_BYTES). */
  maxBytes: number;
  /** Share of the budget one owner's finished jobs may fill (JOB_CACHE_OWNER_MAX_BYTES); default: all of it. */
  ownerMaxBytes?: number;
  /** Told when the results held pass maxBytes because every byte is other owners' unexpired results. */
  onOverBudget?: (heldBytes: number) => void;
}

/**
 * A sample job's own record: the canned result it points at is one copy shared by every sample
 * job (src/jobs/service.ts sampleResult), so it is not counted per job.
 */
const SAMPLE_RECORD_BYTES = 512;

/**
 * Job records, in memory only. Unfinished jobs sit in a plain map (they must not be evicted while
 * a worker is on them); a finished job moves to its owner's LRU, with a TTL and the owner's share
 * of the byte budget (issue 15 item 11). An owner's results are only ever evicted by its own newer
 * results or by their TTL, never by another owner's: one busy tenant (say 70,000 samples from a
 * capped test key) cannot push out anyone else's result. When the whole budget is full of other
 * owners' unexpired results, a new one is still kept (and reported): the budget then bounds memory
 * at owners × share. A sweep drops expired entries so memory goes back even when nobody asks.
 */
export class JobStore {
  private readonly active = new Map<string, Job>();
  private readonly owners = new Map<string, LRUCache<string, Job>>();
  /** Which owner's cache holds a finished job, for lookups by id alone (the SSE stream). */
  private readonly ownerOf = new Map<string, string>();
  private readonly sweeper: ReturnType<typeof setInterval>;
  private readonly ownerMaxBytes: number;

  constructor(private readonly options: StoreOptions) {
    this.ownerMaxBytes = Math.min(options.ownerMaxBytes ?? options.maxBytes, options.maxBytes);
    this.sweeper = setInterval(() => this.sweep(), Math.min(options.ttlMs, 30_000));
    this.sweeper.unref?.();
  }

  add(job: Job): void {
    this.active.set(job.id, job);
  }

  /** Called once the job has its final state. */
  settle(job: Job): void {
    this.active.delete(job.id);
    const cache = this.cacheOf(job.owner);
    this.ownerOf.set(job.id, job.owner);
    cache.set(job.id, job);
    // What is made from the result later (its insights, src/jobs/result-formats.ts keptBeside) counts in its size.
    if (job.outcome && !job.sample) watchBeside(job.outcome, () => this.recount(job));
    this.fitBudget(cache);
  }

  /** The job's size again (an output was kept beside its result), keeping its expiry. */
  private recount(job: Job): void {
    const cache = this.owners.get(job.owner);
    if (!cache?.has(job.id)) return;
    const ttl = cache.getRemainingTTL(job.id);
    cache.delete(job.id);
    this.ownerOf.set(job.id, job.owner);
    cache.set(job.id, job, ttl > 0 && Number.isFinite(ttl) ? { ttl } : {});
    this.fitBudget(cache);
  }

  private fitBudget(cache: LRUCache<string, Job>): void {
    if (this.heldBytes > this.options.maxBytes) {
      this.sweep();
      // Room is made from this owner's own older results only.
      while (this.heldBytes > this.options.maxBytes && cache.size > 1) cache.pop();
      if (this.heldBytes > this.options.maxBytes) this.options.onOverBudget?.(this.heldBytes);
    }
  }

  get(id: string): Job | undefined {
    const active = this.active.get(id);
    if (active) return active;
    const owner = this.ownerOf.get(id);
    const job = owner === undefined ? undefined : this.owners.get(owner)?.get(id);
    if (!job) this.ownerOf.delete(id);
    return job;
  }

  /** The job, if `owner` created it; anyone else's job reads as absent. */
  getOwned(id: string, owner: string): Job | undefined {
    const job = this.get(id);
    return job && job.owner === owner ? job : undefined;
  }

  /** Finished jobs held (expired ones count until the sweep drops them). */
  get finishedCount(): number {
    let n = 0;
    for (const c of this.owners.values()) n += c.size;
    return n;
  }

  /** Bytes of finished jobs held, all owners. */
  get heldBytes(): number {
    let n = 0;
    for (const c of this.owners.values()) n += c.calculatedSize;
    return n;
  }

  unfinished(): Job[] {
    return [...this.active.values()];
  }

  sweep(): void {
    for (const [owner, cache] of this.owners) {
      cache.purgeStale();
      if (cache.size === 0) this.owners.delete(owner);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private cacheOf(owner: string): LRUCache<string, Job> {
    let cache = this.owners.get(owner);
    if (!cache) {
      cache = new LRUCache<string, Job>({
        ttl: this.options.ttlMs,
        maxSize: this.ownerMaxBytes,
        sizeCalculation: (job) => (job.sample ? SAMPLE_RECORD_BYTES : Math.max(1, Math.min(job.size() + besideBytes(job.outcome), this.ownerMaxBytes))),
        dispose: (_job, id, reason) => {
          if (reason !== "set") this.ownerOf.delete(id);
        },
      });
      this.owners.set(owner, cache);
    }
    return cache;
  }
}
