import { Redis } from "ioredis";
import { AppError } from "../../errors.ts";
import type { Logger } from "../../log.ts";

/** Seconds a client is told to wait when Redis does not answer. */
export const REDIS_RETRY_AFTER_S = 5;

export const redisUnavailable = (internal?: unknown) =>
  new AppError("service_unavailable", 503, "The job queue (Redis) is not answering; retry shortly", { retryAfter: REDIS_RETRY_AFTER_S, internal });

/**
 * A connection to REDIS_URL. `blocking` ones (BullMQ's worker, XREAD BLOCK followers) wait as
 * long as Redis is away, which is what BullMQ requires; request-path ones give up after a couple
 * of retries so an HTTP request fails with 503 instead of hanging.
 */
export function openRedis(url: string, { blocking = false, name, log }: { blocking?: boolean; name?: string; log?: Logger } = {}): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: blocking ? null : 2,
    connectionName: name,
    // Reconnect quickly at first, then every 2 s at most: an instance follows a Redis restart by itself.
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  // Without a listener ioredis prints every failed reconnect; one line per outage is enough.
  let down = false;
  redis.on("error", (e: Error) => {
    if (!down) log?.warn("Redis connection lost; reconnecting", { connection: name, error: e.message });
    down = true;
  });
  redis.on("ready", () => {
    if (down) log?.info("Redis connection back", { connection: name });
    down = false;
  });
  return redis;
}

/** Runs a request-path Redis call; a connection failure becomes 503 service_unavailable. */
export async function onRedis<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw redisUnavailable(e);
  }
}

/**
 * Every Redis key of the service, under REDIS_PREFIX (BullMQ's own keys sit under the same
 * prefix, `<prefix>:parse:*`). One job's keys share the `{job id}` hash tag.
 */
export function redisKeys(prefix: string) {
  const job = (id: string) => `${prefix}:job:{${id}}`;
  return {
    /** Hash: owner, key_id, kind, state, progress, attempts, error fields, final event id. */
    meta: (id: string) => job(id),
    /** The upload's bytes while the job is queued or running (deleted when it ends). */
    upload: (id: string) => `${job(id)}:upload`,
    /** Progress and result events (a Redis stream; its entry ids are the SSE ids). */
    events: (id: string) => `${job(id)}:events`,
    /** The finished result: ParseResponse JSON, CSV, redacted bytes. */
    json: (id: string) => `${job(id)}:json`,
    csv: (id: string) => `${job(id)}:csv`,
    bytes: (id: string) => `${job(id)}:bytes`,
    /** The one SSE consumer's claim (SET NX PX, refreshed by its heartbeat). */
    consumer: (id: string) => `${job(id)}:consumer`,
    /** The job's owner, kept after the result is swept: a poll then gets job_expired. */
    seen: (id: string) => `${job(id)}:seen`,
    /** Sorted set of the in-flight places of one API key (score: when the place lapses, ms). */
    inflight: (keyId: string) => `${prefix}:inflight:${keyId}`,
    /** Sorted set of every job place taken cluster-wide (queued or running). */
    admitted: `${prefix}:admitted`,
    /** Sorted set of instances by heartbeat deadline, and their worker threads. */
    instances: `${prefix}:instances`,
    instanceWorkers: `${prefix}:instance-workers`,
    /** Pub/sub channel: a job id to abort wherever it runs (DELETE on another instance). */
    cancel: `${prefix}:cancel`,
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;
