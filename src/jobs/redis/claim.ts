import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type { RedisKeys } from "./connection.ts";

const REFRESH = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * SPEC 6's one consumer per job, across instances: a consumer holds the job's claim key (SET NX
 * with an expiry), refreshes it with each heartbeat and deletes it when its stream ends. If its
 * instance dies, the claim lapses after `ttlMs` and the job can be streamed again.
 */
export class ConsumerClaim {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    /** Life of an unrefreshed claim, ms: a few heartbeats. */
    readonly ttlMs: number,
  ) {}

  /** The claim's token, or undefined while another consumer holds it. */
  async take(id: string): Promise<string | undefined> {
    const token = randomBytes(12).toString("base64url");
    const ok = await this.redis.set(this.keys.consumer(id), token, "PX", this.ttlMs, "NX");
    return ok === "OK" ? token : undefined;
  }

  async refresh(id: string, token: string): Promise<boolean> {
    return (await this.redis.eval(REFRESH, 1, this.keys.consumer(id), token, this.ttlMs)) === 1;
  }

  async release(id: string, token: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.keys.consumer(id), token);
  }
}
