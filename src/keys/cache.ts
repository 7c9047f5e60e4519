/** How long a key found active is taken as active without asking the database again. */
export const KEY_CACHE_TTL_MS = 5_000;
/** Most keys remembered; past it the oldest entry goes. */
const MAX_ENTRIES = 10_000;

/**
 * Active keys by the SHA-256 of the raw key, remembered for a few seconds, for a database that
 * one process alone writes (PGlite): every revocation goes through this process, which forgets
 * all it remembers at once (`forgetAll`), so a revoked key still fails on its very next request.
 * Unknown keys are never remembered (a key issued a moment later must work at once).
 */
export class KeyCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  get(hash: string): T | undefined {
    const hit = this.entries.get(hash);
    if (!hit) return undefined;
    if (hit.until > this.now()) return hit.value;
    this.entries.delete(hash);
    return undefined;
  }

  set(hash: string, value: T): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { value, until: this.now() + KEY_CACHE_TTL_MS });
  }

  forgetAll(): void {
    this.entries.clear();
  }
}
