import type { Redis } from "ioredis";
import { type Config, ConfigError } from "../../config.ts";
import { randomToken } from "../../crypto.ts";
import { AppError, jobCancelled, jobExpired, jobFinished, notFound, toAppError } from "../../errors.ts";
import { streamInUse } from "../../http/job-stream.ts";
import { newId } from "../../ids.ts";
import type { Logger } from "../../log.ts";
import type { Caller } from "../../db/keys.ts";
import type { Metering } from "../../metering/types.ts";
import type { JobBackend, JobView } from "../backend.ts";
import { type Hold, holdOf } from "../gate.ts";
import { refuseNonStatement } from "../../metering/sample.ts";
import { type ParseService, sampleResult } from "../service.ts";
import { ClusterAdmission, InstanceRegistry, type PlaceRef } from "./admission.ts";
import { ConsumerClaim } from "./claim.ts";
import { onRedis, openRedis, redisKeys } from "./connection.ts";
import { checkPersistence } from "./persistence-check.ts";
import { ClusterQueue, reservationOf } from "./queue.ts";
import { type JobMeta, JobRecords, snapshotOf } from "./results.ts";
import { parseLastEventId, redisJobStream, replay } from "./stream.ts";

export interface RedisBackendDeps {
  config: Config & { REDIS_URL: string };
  log: Logger;
  metering: Metering;
  parser: ParseService;
  /** This server's instance id (src/metering/instances.ts), also its name in the cluster. */
  instanceId: string;
}

/** A stream consumer refreshes its claim at least every 5 s (stream.ts); a dead one's lapses after three missed refreshes, ms. */
const CLAIM_TTL_MS = 15_000;

/** Least time an admission place lasts before it lapses unless its job ends first, ms. */
const MIN_PLACE_MS = 15 * 60 * 1000;

const finished = (m: JobMeta) => m.state === "done" || m.state === "failed";

/**
 * Jobs on Redis through BullMQ (REDIS_URL): any instance creates, streams, polls, cancels and
 * serves any job, and parses whatever the queue hands its worker. Refuses to start (ConfigError,
 * exit 2) when Redis is unreachable or persists to disk (see persistence-check.ts).
 */
export async function createRedisBackend({ config, log, metering, parser, instanceId }: RedisBackendDeps): Promise<JobBackend> {
  const url = config.REDIS_URL;
  const keys = redisKeys(config.REDIS_PREFIX);
  const redis = openRedis(url, { name: `stp-${instanceId}`, log });
  const connections: Redis[] = [redis];
  const closeAll = () => Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
  try {
    await redis.ping();
  } catch (e) {
    await closeAll();
    throw new ConfigError(`Redis at REDIS_URL is not answering (${e instanceof Error ? e.message : String(e)}); start it or unset REDIS_URL`);
  }
  try {
    await checkPersistence(redis, config.REDIS_ALLOW_PERSISTENCE);
  } catch (e) {
    await closeAll();
    throw e;
  }
  if (config.REDIS_ALLOW_PERSISTENCE) log.warn("REDIS_ALLOW_PERSISTENCE is set: uploads and results may reach Redis's disk");

  const open = (name: string, blocking = true) => {
    const c = openRedis(url, { blocking, name: `stp-${instanceId}-${name}`, log });
    connections.push(c);
    return c;
  };
  const records = new JobRecords(redis, keys, config.JOB_RESULT_TTL_S * 1000);
  const admission = new ClusterAdmission(redis, keys, {
    maxPerKey: config.MAX_INFLIGHT_PER_KEY,
    maxQueued: config.MAX_QUEUED_JOBS,
    placeMs: Math.max(MIN_PLACE_MS, 2 * config.PARSE_TIMEOUT_MS * config.JOB_MAX_ATTEMPTS),
  });
  const registry = new InstanceRegistry(redis, keys, { id: instanceId, workers: config.WORKERS });
  const claim = new ConsumerClaim(redis, keys, CLAIM_TTL_MS);
  // The queue's connection serves requests (adding a job): it fails fast when Redis is away; the worker's blocks.
  const queue = new ClusterQueue({ config, log, metering, parser, records, admission, instanceId, queueConnection: open("queue", false), workerConnection: open("worker") });
  const subscriber = open("cancel");
  await subscriber.subscribe(keys.cancel);
  subscriber.on("message", (_channel: string, jobId: string) => queue.abort(jobId, jobCancelled()));
  await registry.start();
  queue.start();
  log.info("jobs on Redis", { prefix: config.REDIS_PREFIX, instance: instanceId, max_attempts: config.JOB_MAX_ATTEMPTS });

  /** Cluster places behind the holds handed out here, for submit() (the Hold type stays the gate's). */
  const places = new WeakMap<Hold, { ref: PlaceRef; local: Hold }>();

  async function find(id: string, owner?: string): Promise<JobMeta> {
    return onRedis(async () => {
      const meta = await records.meta(id);
      if (meta && (owner === undefined || meta.owner === owner)) return meta;
      if (!meta) {
        const seen = await records.seenOwner(id);
        if (seen !== null && (owner === undefined || seen === owner)) throw jobExpired();
      }
      throw notFound("No such job");
    });
  }

  const view = (id: string, meta: JobMeta): JobView => ({
    id,
    state: meta.state,
    kind: meta.kind,
    sample: meta.sample === "1",
    async snapshotJson() {
      const head = JSON.stringify(snapshotOf(id, meta));
      if (meta.state !== "done" || meta.kind === "redact") return head;
      const json = await onRedis(() => redis.get(keys.json(id)));
      return json === null ? head : `${head.slice(0, -1)},"result":${json}}`;
    },
    // Redis hands the result back as text; the bytes path is for results held in this process.
    snapshotBody() {
      return this.snapshotJson();
    },
    outcome: async () => (meta.state === "done" ? onRedis(() => records.outcome(id, meta)) : undefined),
  });

  async function hold(caller: Caller, bytes: number): Promise<Hold> {
    // This process's upload-bytes budget (the bytes are in its memory until they reach Redis)...
    const local = parser.holdUpload(bytes, caller.owner);
    // ...and the key's in-flight place and the queue, cluster-wide.
    const ref = { keyId: caller.keyId, token: randomToken(12) };
    try {
      await onRedis(() => admission.acquire(ref));
    } catch (e) {
      local.release();
      throw e;
    }
    const hold = bothPlaces(caller.keyId, bytes, local, ref);
    places.set(hold, { ref, local });
    return hold;
  }

  /** A hold giving back this instance's hold and (when it was taken) the cluster-wide place, once. */
  function bothPlaces(key: string, bytes: number, local: Hold, ref: PlaceRef | undefined): Hold {
    return holdOf(key, bytes, () => {
      local.release();
      if (ref) void admission.release(ref).catch(() => {});
    });
  }

  async function holdSync(caller: Caller, bytes: number): Promise<Hold> {
    const local = parser.hold(caller, bytes);
    const ref = { keyId: caller.keyId, token: randomToken(12) };
    let counted = true;
    try {
      await admission.acquire(ref, { keyOnly: true });
    } catch (e) {
      if (e instanceof AppError) {
        local.release();
        throw e;
      }
      // Redis away: a sync parse needs nothing from it, so it goes on under this instance's limits.
      counted = false;
      log.warn("sync parse admitted without Redis (per-key limit counted on this instance only)", { error: String(e instanceof Error ? e.message : e) });
    }
    return bothPlaces(local.key, bytes, local, counted ? ref : undefined);
  }

  return {
    hold,
    holdSync,

    async submit(caller, upload, request, options = {}) {
      let place = upload.hold ? places.get(upload.hold) : undefined;
      if (!place) {
        // Not received through hold() (a caller that skipped it): take the place now.
        place = places.get(await hold(caller, 0)) as { ref: PlaceRef; local: Hold };
      }
      const { ref, local } = place;
      const id = options.id ?? newId("job");
      const job = {
        id,
        owner: caller.owner,
        keyId: caller.keyId,
        kind: upload.kind,
        token: ref.token,
        bytes: upload.bytes,
        bank: upload.bank,
        password: upload.password,
        clientReference: upload.clientReference,
      };
      let created = false;
      try {
        // Reserved under the job's id: whichever instance ends the job settles this one row.
        const metered = await metering.admit(caller, request, { reservationId: reservationOf(id) });
        if (metered.sample) {
          // Past a cap the engine does not run, but a file that is no statement still gets its real 4xx.
          refuseNonStatement(upload.bytes);
          await onRedis(() => records.create(job, false));
          created = true;
          await queue.end(id, { key_id: caller.keyId, token: ref.token }, { outcome: sampleResult(upload.kind), sample: true });
          return { id };
        }
        try {
          await onRedis(() => records.create(job, true));
        } catch (e) {
          await metered.failed(toAppError(e).errorClass).catch(() => {});
          throw e;
        }
        created = true;
        await onRedis(() => queue.add(id));
        return { id };
      } catch (e) {
        if (created) await queue.end(id, { key_id: caller.keyId, token: ref.token }, { error: toAppError(e) }).catch(() => {});
        else await admission.release(ref).catch(() => {});
        throw e;
      } finally {
        // The upload is in Redis now (or refused): this process no longer holds its bytes.
        local.release();
      }
    },

    async find(id, owner) {
      return view(id, await find(id, owner));
    },

    async keep(caller, id, kind, { result, sample }) {
      // A finished record like any job's, with no upload and no admission place (the sync parse held its own).
      await onRedis(async () => {
        await records.create({ id, owner: caller.owner, keyId: caller.keyId, kind, token: "", bytes: new Uint8Array(0) }, false);
        await records.finish(id, { outcome: result, sample });
      });
    },

    observe(observer) {
      queue.observers.push(observer);
    },

    async cancel(id, owner) {
      const meta = await find(id, owner);
      if (finished(meta)) throw jobFinished(meta.state);
      const won = await onRedis(() => queue.end(id, meta, { error: jobCancelled() }));
      const now = await find(id, owner);
      if (!won) throw jobFinished(now.state);
      // Wherever it runs, its instance aborts the parse; if still queued, it leaves the queue.
      await onRedis(async () => {
        await redis.publish(keys.cancel, id);
        await queue.removeWaiting(id);
      });
      log.info("parse job cancelled", { job_id: id });
      return view(id, now);
    },

    async stream(id, lastEventIdHeader, heartbeatMs) {
      const meta = await find(id);
      const token = await onRedis(() => claim.take(id));
      if (!token) throw streamInUse();
      try {
        const after = parseLastEventId(lastEventIdHeader);
        const first = await onRedis(() => replay(redis, keys, id, after));
        // A reconnecting EventSource that already has the result gets 204: stop reconnecting.
        if (finished(meta) && after !== undefined && first.length === 0) {
          await claim.release(id, token);
          return new Response(null, { status: 204 });
        }
        const from = first.at(-1)?.id ?? after ?? "0-0";
        // Each consumer follows on a connection of its own (XREAD BLOCK holds it), closed when its stream ends.
        const follower = () => openRedis(url, { blocking: true, name: `stp-${instanceId}-follow` });
        return redisJobStream({ redis, follower, keys, claim, log }, id, token, first, from, heartbeatMs);
      } catch (e) {
        await claim.release(id, token).catch(() => {});
        throw e;
      }
    },

    readiness: () => [
      { name: "redis", check: async () => (await redis.ping()) === "PONG" },
      { name: "job_worker", check: async () => queue.workerRunning() },
    ],

    async status() {
      try {
        const [counts, online] = await Promise.all([queue.counts(), registry.online()]);
        return {
          instance_id: instanceId,
          cluster: { queue_depth: counts.waiting, running: counts.active, instances_online: online.instances, workers_online: online.workers },
        };
      } catch (e) {
        log.warn("status: Redis did not answer", { error: String(e instanceof Error ? e.message : e) });
        return { instance_id: instanceId };
      }
    },

    async shutdown(graceMs) {
      const started = Date.now();
      await registry.stop().catch(() => {});
      await queue.close(graceMs, () => parser.shutdown(Math.max(0, graceMs - (Date.now() - started))));
      await closeAll();
    },
  };
}
