import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openPostgres } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { createScratchDb, type ScratchDb } from "../helpers/postgres-server.ts";

/**
 * Several instances started at once on one new database (the usual first deployment of "Running
 * several instances") each migrate it. Each fresh database here is a first start; the schema must
 * come out whole and every server must start, not one of them exit on a duplicate-type error.
 */
const ROUNDS = 5;
const SERVERS = 4;
const scratches: ScratchDb[] = [];

beforeAll(async () => {
  for (let r = 0; r < ROUNDS; r++) scratches.push(await createScratchDb(`stp_migrate_race_${r}`));
});

afterAll(async () => {
  for (const s of scratches) await s.drop();
});

describe("migrations on a new database", () => {
  test(`${SERVERS} servers migrating one new database at once all succeed, and each migration is applied once`, async () => {
    for (const scratch of scratches) {
      const dbs = await Promise.all(Array.from({ length: SERVERS }, () => openPostgres(scratch.url)));
      try {
        const outcomes = await Promise.allSettled(dbs.map((db) => migrate(db)));
        const failures = outcomes.filter((o) => o.status === "rejected").map((o) => String((o as PromiseRejectedResult).reason));
        expect(failures).toEqual([]);
        const applied = outcomes.flatMap((o) => (o.status === "fulfilled" ? o.value : []));
        const recorded = (await scratch.sql<{ name: string }[]>`select name from schema_migrations order by name`).map((r) => r.name);
        // Every migration was applied by exactly one of the servers, and recorded once.
        expect([...applied].sort()).toEqual(recorded);
        expect(recorded.length).toBeGreaterThan(0);
      } finally {
        await Promise.all(dbs.map((db) => db.close()));
      }
    }
  }, 60_000);
});
