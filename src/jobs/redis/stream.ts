import type { Redis } from "ioredis";
import type { Logger } from "../../log.ts";
import { type SseMessage, sseResponse } from "../../http/sse.ts";
import type { ConsumerClaim } from "./claim.ts";
import type { RedisKeys } from "./connection.ts";

/** One entry of a job's event stream: its Redis id is the SSE id, so Last-Event-ID works on any instance. */
export interface StreamEvent {
  id: string;
  event?: "result";
  data: string;
}

/** Redis stream ids are `<ms>-<seq>`; anything else in Last-Event-ID reads as "no event seen". */
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;
/** Longest one XREAD waits before the follower refreshes its claim and checks the job still exists, ms. */
const BLOCK_MS = 5000;

export const parseLastEventId = (raw: string | null): string | undefined => (raw && STREAM_ID.test(raw.trim()) ? raw.trim() : undefined);

type Entries = Array<[string, string[]]>;

/** A stream entry as an event; a `result` that refers to the job's json key (`r`) gets its data from there. */
async function toEvent(redis: Redis, keys: RedisKeys, jobId: string, [id, fields]: [string, string[]]): Promise<StreamEvent> {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i] as string] = fields[i + 1] as string;
  if (f.e !== "result") return { id, data: f.d ?? "" };
  const data = f.r === "json" ? ((await redis.get(keys.json(jobId))) ?? "null") : (f.d ?? "");
  return { id, event: "result", data };
}

const isRetry = (e: StreamEvent) => !e.event && e.data.includes('"stage":"retry"');

/**
 * What a consumer gets first. Without Last-Event-ID: the latest event (progress, or the result),
 * as the in-process job does. With it: what it missed, progress collapsed to the latest one, but
 * every `retry` stage and the result kept.
 */
export async function replay(redis: Redis, keys: RedisKeys, jobId: string, after: string | undefined): Promise<StreamEvent[]> {
  if (after === undefined) {
    const latest = (await redis.xrevrange(keys.events(jobId), "+", "-", "COUNT", 1)) as Entries;
    return Promise.all(latest.map((e) => toEvent(redis, keys, jobId, e)));
  }
  const missed = await Promise.all(((await redis.xrange(keys.events(jobId), `(${after}`, "+")) as Entries).map((e) => toEvent(redis, keys, jobId, e)));
  const lastProgress = missed.findLast((e) => !e.event);
  return missed.filter((e) => e.event === "result" || isRetry(e) || e === lastProgress);
}

export interface FollowDeps {
  redis: Redis;
  /** A dedicated connection for this consumer's XREAD BLOCK (closed when the stream ends). */
  follower: () => Redis;
  keys: RedisKeys;
  claim: ConsumerClaim;
  log: Logger;
}

const toSse = (e: StreamEvent): SseMessage => ({ id: e.id, data: e.data, ...(e.event ? { event: e.event } : {}) });

/**
 * SSE for a job held in Redis, by a consumer that holds its claim: the replay, then live events
 * read with XREAD BLOCK until the `result` event. The claim is refreshed while waiting and given
 * back however the stream ends.
 */
export function redisJobStream(deps: FollowDeps, jobId: string, token: string, first: StreamEvent[], from: string, heartbeatMs: number): Response {
  const { keys, claim } = deps;
  let conn: Redis | undefined;
  return sseResponse(
    {
      async run(send, signal) {
        // Live events are those after the replay, or after what the client last saw.
        let last = from;
        for (const e of first) {
          send(toSse(e));
          if (e.event === "result") return;
        }
        conn = deps.follower();
        const stop = () => conn?.disconnect();
        signal.addEventListener("abort", stop, { once: true });
        try {
          const block = Math.min(BLOCK_MS, Math.max(100, Math.floor(heartbeatMs / 2)));
          while (!signal.aborted) {
            const got = (await conn.xread("BLOCK", block, "STREAMS", keys.events(jobId), last)) as Array<[string, Entries]> | null;
            await claim.refresh(jobId, token);
            if (!got) {
              // Swept while nobody wrote (e.g. every instance gone past the record's bound): end here.
              if ((await deps.redis.exists(keys.meta(jobId))) === 0) return;
              continue;
            }
            for (const entry of got[0]?.[1] ?? []) {
              const e = await toEvent(deps.redis, keys, jobId, entry);
              send(toSse(e));
              last = e.id;
              if (e.event === "result") return;
            }
          }
        } catch (e) {
          if (!signal.aborted) deps.log.warn("job stream: Redis read failed", { job_id: jobId, error: String(e instanceof Error ? e.message : e) });
        } finally {
          signal.removeEventListener("abort", stop);
        }
      },
      onClose: () => {
        conn?.disconnect();
        void claim.release(jobId, token).catch(() => {});
      },
    },
    { heartbeatMs },
  );
}
