import type { Redis } from "ioredis";
import { queueFull, rateLimited } from "../gate.ts";
import type { RedisKeys } from "./connection.ts";

/**
 * Takes one in-flight place of an API key, cluster-wide, in one atomic step: refused when the key
 * already holds `maxPerKey` places (rate_limited), or when the jobs admitted on every instance
 * fill the workers online plus MAX_QUEUED_JOBS (queue_full) — the single-process gate's rule
 * (running >= workers and waiting >= MAX_QUEUED_JOBS) summed over the cluster. A place is a member
 * of two sorted sets scored by when it lapses: released explicitly when its job ends (every end
 * path), it lapses by itself only if an instance died between taking it and queueing the job.
 */
const ACQUIRE = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 'rate_limited' end
if ARGV[6] == 'key' then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
  redis.call('PEXPIREAT', KEYS[1], ARGV[3])
  return 'ok'
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local workers = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  workers = workers + tonumber(redis.call('HGET', KEYS[4], id) or '0')
end
if redis.call('ZCARD', KEYS[2]) >= workers + tonumber(ARGV[5]) then return 'queue_full' end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
redis.call('PEXPIREAT', KEYS[2], ARGV[3])
return 'ok'
`;

/** Whether the place was still held (so exactly one end path gives it back). */
const RELEASE = `
local n = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return n
`;

/** Moves a held place's lapse time (the job was queued, or an instance started it). */
const EXTEND = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
  if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
  if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[3]) then redis.call('PEXPIREAT', KEYS[2], ARGV[2]) end
  return 1
end
return 0
`;

export interface PlaceRef {
  keyId: string;
  token: string;
}

export interface AdmissionLimits {
  maxPerKey: number;
  maxQueued: number;
  /** How long a place lasts before it lapses unless extended or released, ms. */
  placeMs: number;
  retryAfterS?: number;
}

export class ClusterAdmission {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly limits: AdmissionLimits,
  ) {}

  /**
   * Takes a place for `ref`; throws 429 rate_limited or 503 queue_full as the local gate does.
   * `keyOnly`: only the key's place (a sync parse, which never enters the cluster's queue).
   */
  async acquire(ref: PlaceRef, { keyOnly = false }: { keyOnly?: boolean } = {}): Promise<void> {
    const now = Date.now();
    const { maxPerKey, maxQueued, placeMs, retryAfterS = 2 } = this.limits;
    const answer = (await this.redis.eval(
      ACQUIRE,
      4,
      this.keys.inflight(ref.keyId),
      this.keys.admitted,
      this.keys.instances,
      this.keys.instanceWorkers,
      now,
      ref.token,
      now + placeMs,
      maxPerKey,
      maxQueued,
      keyOnly ? "key" : "job",
    )) as string;
    if (answer === "rate_limited") throw rateLimited(maxPerKey);
    if (answer === "queue_full") throw queueFull(retryAfterS);
  }

  /** Gives the place back; true when it was still held. Idempotent. */
  async release(ref: PlaceRef): Promise<boolean> {
    return (await this.redis.eval(RELEASE, 2, this.keys.inflight(ref.keyId), this.keys.admitted, ref.token)) === 1;
  }

  /** Keeps the place `placeMs` more from now (the job is still queued or running). */
  async extend(ref: PlaceRef): Promise<void> {
    const until = Date.now() + this.limits.placeMs;
    await this.redis.eval(EXTEND, 2, this.keys.inflight(ref.keyId), this.keys.admitted, ref.token, until, this.limits.placeMs);
  }
}

/** Each instance's heartbeat: its id and worker threads, lapsing when it stops beating. */
export class InstanceRegistry {
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly self: { id: string; workers: number },
    /** Heartbeat period, ms; an instance counts as online for three periods after its last beat. */
    private readonly periodMs = 2000,
  ) {}

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch(() => {}), this.periodMs);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.multi().zrem(this.keys.instances, this.self.id).hdel(this.keys.instanceWorkers, this.self.id).exec();
  }

  /** Instances online and their worker threads together. */
  async online(): Promise<{ instances: number; workers: number }> {
    const ids = await this.redis.zrangebyscore(this.keys.instances, Date.now(), "+inf");
    if (ids.length === 0) return { instances: 0, workers: 0 };
    const counts = await this.redis.hmget(this.keys.instanceWorkers, ...ids);
    return { instances: ids.length, workers: counts.reduce((n, c) => n + Number(c ?? 0), 0) };
  }

  private async beat(): Promise<void> {
    // Instances that stopped beating (killed) leave their entries; whoever beats next clears them.
    const dead = await this.redis.zrangebyscore(this.keys.instances, "-inf", Date.now());
    if (dead.length > 0) await this.redis.multi().zrem(this.keys.instances, ...dead).hdel(this.keys.instanceWorkers, ...dead).exec();
    await this.redis
      .multi()
      .zadd(this.keys.instances, Date.now() + 3 * this.periodMs, this.self.id)
      .hset(this.keys.instanceWorkers, this.self.id, String(this.self.workers))
      .exec();
  }
}
