import type { Redis } from "ioredis";
import { ConfigError } from "../../config.ts";

/** What Redis writes to its own disk: RDB snapshots (`save`) and the append-only file. */
export interface Persistence {
  save: string;
  appendonly: string;
}

export async function readPersistence(redis: Redis): Promise<Persistence> {
  const save = (await redis.config("GET", "save")) as string[];
  const aof = (await redis.config("GET", "appendonly")) as string[];
  return { save: save[1] ?? "", appendonly: aof[1] ?? "no" };
}

/**
 * The upload travels in the job's Redis data, so the promise that no byte of a statement touches
 * disk holds only if Redis keeps nothing on disk. Refuses the start (ConfigError: exit 2) when it
 * does, or when it cannot tell (CONFIG disabled), unless REDIS_ALLOW_PERSISTENCE says so.
 */
export async function checkPersistence(redis: Redis, allow: boolean): Promise<void> {
  if (allow) return;
  let p: Persistence;
  try {
    p = await readPersistence(redis);
  } catch (e) {
    throw new ConfigError(
      `Cannot read Redis's persistence settings (CONFIG GET failed: ${e instanceof Error ? e.message : String(e)}). Uploads are kept in Redis while their job runs; ` +
        "if this Redis writes nothing to disk, set REDIS_ALLOW_PERSISTENCE=1 to start anyway.",
    );
  }
  const on: string[] = [];
  if (p.save.trim() !== "") on.push(`RDB snapshots (save "${p.save}")`);
  if (p.appendonly === "yes") on.push("the append-only file (appendonly yes)");
  if (on.length === 0) return;
  throw new ConfigError(
    `Redis at REDIS_URL persists to disk: ${on.join(" and ")}. Uploads and results are kept in Redis, so they would reach its disk. ` +
      `Turn persistence off (redis-server --save "" --appendonly no, or CONFIG SET save "" and CONFIG SET appendonly no), ` +
      "or set REDIS_ALLOW_PERSISTENCE=1 to accept that statements may be written to Redis's disk.",
  );
}
