import { LRUCache } from "lru-cache";

/** Job ids remembered after their record is gone: 10,000 ids of about 30 characters plus an owner label, well under 2 MB. */
export const REMEMBERED_JOB_IDS = 10_000;

/**
 * Which finished jobs the server has held, and for which owner, kept after the job store drops
 * them (TTL sweep or byte budget). A poll for such an id then gets 404 `job_expired` instead of
 * "No such job", so a client knows to submit again rather than suspect a typo. Bounded: the
 * oldest ids are forgotten first, and a forgotten id is simply unknown again.
 */
export class RememberedJobs {
  private readonly owners: LRUCache<string, string>;

  constructor(max = REMEMBERED_JOB_IDS) {
    this.owners = new LRUCache<string, string>({ max });
  }

  remember(id: string, owner: string): void {
    this.owners.set(id, owner);
  }

  /** Whether `id` was a job of `owner` (any owner when omitted: the SSE stream, where the id is the capability). */
  held(id: string, owner?: string): boolean {
    const o = this.owners.get(id);
    return o !== undefined && (owner === undefined || o === owner);
  }
}
