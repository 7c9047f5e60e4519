import { afterAll, describe, expect, test } from "bun:test";
import { Redis } from "ioredis";
import { ClusterAdmission, InstanceRegistry } from "../../src/jobs/redis/admission.ts";
import { ConsumerClaim } from "../../src/jobs/redis/claim.ts";
import { redisKeys } from "../../src/jobs/redis/connection.ts";
import { dropPrefix, REDIS_URL, uniquePrefix } from "./support.ts";

/**
 * The cluster-wide admission counts (issue 18) on the real Redis, without servers: the per-key
 * limit, the queue limit summed over the instances online, release exactly once, and a place or
 * a consumer claim left by a dead instance lapsing by itself.
 */
const prefix = uniquePrefix("admission");
const keys = redisKeys(prefix);
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
afterAll(async () => {
  redis.disconnect();
  await dropPrefix(prefix);
});

const errorClassOf = async (p: Promise<unknown>) =>
  p.then(
    () => "admitted",
    (e: { errorClass?: string }) => e.errorClass ?? String(e),
  );

describe("ClusterAdmission", () => {
  test("per key: the limit holds over any number of callers, and a release gives back exactly one place, once", async () => {
    const a = new ClusterAdmission(redis, keys, { maxPerKey: 3, maxQueued: 100, placeMs: 60_000 });
    const registry = new InstanceRegistry(redis, keys, { id: "inst_a", workers: 2 });
    await registry.start();
    try {
      // Twenty concurrent attempts on one key: exactly three get in.
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => errorClassOf(a.acquire({ keyId: "key_1", token: `t${i}` }))));
      expect(answers.filter((x) => x === "admitted").length).toBe(3);
      expect(answers.filter((x) => x === "rate_limited").length).toBe(17);
      const held = answers.map((x, i) => (x === "admitted" ? `t${i}` : undefined)).filter((t) => t !== undefined);
      expect(await a.release({ keyId: "key_1", token: held[0]! })).toBe(true);
      expect(await a.release({ keyId: "key_1", token: held[0]! })).toBe(false);
      expect(await errorClassOf(a.acquire({ keyId: "key_1", token: "again" }))).toBe("admitted");
      expect(await errorClassOf(a.acquire({ keyId: "key_1", token: "over" }))).toBe("rate_limited");
      // Another key has its own places.
      expect(await errorClassOf(a.acquire({ keyId: "key_2", token: "k2" }))).toBe("admitted");
    } finally {
      await registry.stop();
      await redis.del(keys.inflight("key_1"), keys.inflight("key_2"), keys.admitted);
    }
  });

  test("queue: jobs admitted on all instances may fill the workers online plus maxQueued; an instance that stops no longer counts", async () => {
    const a = new ClusterAdmission(redis, keys, { maxPerKey: 100, maxQueued: 1, placeMs: 60_000 });
    const one = new InstanceRegistry(redis, keys, { id: "inst_1", workers: 1 }, 200);
    const two = new InstanceRegistry(redis, keys, { id: "inst_2", workers: 2 }, 200);
    await Promise.all([one.start(), two.start()]);
    try {
      expect(await one.online()).toEqual({ instances: 2, workers: 3 });
      // 3 workers + 1 queued = 4 places, whichever keys take them.
      for (let i = 0; i < 4; i++) expect(await errorClassOf(a.acquire({ keyId: `key_${i}`, token: `q${i}` }))).toBe("admitted");
      expect(await errorClassOf(a.acquire({ keyId: "key_x", token: "q4" }))).toBe("queue_full");
      // A sync parse's place (key only) is not refused by the cluster's queue, and does not fill it.
      expect(await errorClassOf(a.acquire({ keyId: "key_s", token: "s1" }, { keyOnly: true }))).toBe("admitted");
      expect(await redis.zcard(keys.admitted)).toBe(4);
      await a.release({ keyId: "key_s", token: "s1" });
      await two.stop();
      expect(await one.online()).toEqual({ instances: 1, workers: 1 });
      await a.release({ keyId: "key_0", token: "q0" });
      // 3 held against 1 worker + 1 queued now.
      expect(await errorClassOf(a.acquire({ keyId: "key_x", token: "q5" }))).toBe("queue_full");
    } finally {
      await one.stop();
      await redis.del(keys.admitted, ...[0, 1, 2, 3].map((i) => keys.inflight(`key_${i}`)));
    }
  });

  test("a place left by an instance that died before queueing its job lapses after placeMs; extend() keeps a live one", async () => {
    const a = new ClusterAdmission(redis, keys, { maxPerKey: 1, maxQueued: 100, placeMs: 300 });
    const registry = new InstanceRegistry(redis, keys, { id: "inst_l", workers: 1 });
    await registry.start();
    try {
      await a.acquire({ keyId: "key_l", token: "orphan" });
      expect(await errorClassOf(a.acquire({ keyId: "key_l", token: "next" }))).toBe("rate_limited");
      await Bun.sleep(400);
      expect(await errorClassOf(a.acquire({ keyId: "key_l", token: "next" }))).toBe("admitted");
      for (let i = 0; i < 4; i++) {
        await Bun.sleep(150);
        await a.extend({ keyId: "key_l", token: "next" });
      }
      expect(await errorClassOf(a.acquire({ keyId: "key_l", token: "third" }))).toBe("rate_limited");
    } finally {
      await registry.stop();
    }
  });
});

describe("ConsumerClaim", () => {
  test("one holder at a time; only the holder releases it; an unrefreshed claim lapses", async () => {
    const claim = new ConsumerClaim(redis, keys, 300);
    const first = await claim.take("job_x");
    expect(first).toBeDefined();
    expect(await claim.take("job_x")).toBeUndefined();
    await claim.release("job_x", "not-the-token");
    expect(await claim.take("job_x")).toBeUndefined();
    expect(await claim.refresh("job_x", first!)).toBe(true);
    await claim.release("job_x", first!);
    const second = await claim.take("job_x");
    expect(second).toBeDefined();
    await Bun.sleep(400);
    expect(await claim.refresh("job_x", second!)).toBe(false);
    expect(await claim.take("job_x")).toBeDefined();
  });
});
