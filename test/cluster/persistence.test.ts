import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Redis } from "ioredis";
import { spawnServer } from "../helpers/child-server.ts";
import { createScratchDb, type ScratchDb } from "../helpers/postgres-server.ts";
import { dropPrefix, type ThrowawayRedis, throwawayRedis, uniquePrefix } from "./support.ts";

/**
 * Issue 18: uploads travel in Redis, so a Redis that writes to disk (RDB snapshots or the AOF)
 * would break the promise that no statement byte reaches a disk. The server refuses to start on
 * one (exit 2, saying why and what to do) unless REDIS_ALLOW_PERSISTENCE=1. A throwaway
 * redis-server with `--save "60 1"` in a temporary directory stands in for such a Redis.
 */
const prefix = uniquePrefix("persist");
let redis: ThrowawayRedis | undefined;
let url = "";
let scratch: ScratchDb;

beforeAll(async () => {
  redis = await throwawayRedis("persist", "60 1");
  await redis.start();
  url = redis.url;
  const probe = new Redis(url, { maxRetriesPerRequest: 1 });
  expect(await probe.config("GET", "save")).toEqual(["save", "60 1"]);
  probe.disconnect();
  scratch = await createScratchDb("stp_persist");
}, 60_000);

afterAll(async () => {
  await redis?.remove();
  await scratch?.drop();
  await dropPrefix(prefix);
});

describe("a Redis that persists to disk", () => {
  test("is refused at start with exit 2 and a message naming the setting and the way out", async () => {
    const started = await spawnServer({ DATABASE_URL: scratch.url, REDIS_URL: url, REDIS_PREFIX: prefix }).ready;
    expect("exitCode" in started).toBe(true);
    if (!("exitCode" in started)) return;
    expect(started.exitCode).toBe(2);
    expect(started.stderr).toContain('save "60 1"');
    expect(started.stderr).toContain("REDIS_ALLOW_PERSISTENCE=1");
  }, 60_000);

  test("starts with REDIS_ALLOW_PERSISTENCE=1, and says so in its log", async () => {
    const started = await spawnServer({ DATABASE_URL: scratch.url, REDIS_URL: url, REDIS_PREFIX: prefix, REDIS_ALLOW_PERSISTENCE: "1" }).ready;
    expect("exitCode" in started).toBe(false);
    if ("exitCode" in started) return;
    try {
      expect(started.logs.some((l) => l.level === "warn" && String(l.msg).includes("REDIS_ALLOW_PERSISTENCE"))).toBe(true);
      expect((await started.fetch("/v1/status")).status).toBe(200);
    } finally {
      expect(await started.stop()).toBe(0);
    }
  }, 60_000);
});
