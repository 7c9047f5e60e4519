import type { Db } from "../../src/db/index.ts";
import { openPglite, openPostgres } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";

let shared: Promise<Db> | undefined;

/**
 * One database for the whole `bun test` process: PGlite in memory by default, or the PostgreSQL
 * server named by TEST_DATABASE_URL (test/run.ts creates a throwaway database for it). PGlite's
 * first start is slow and large, so every test file shares this instance; tests isolate
 * themselves with unique owner names, never by truncating tables.
 */
export function sharedDb(): Promise<Db> {
  shared ??= (async () => {
    const url = process.env.TEST_DATABASE_URL;
    const db = url ? await openPostgres(url) : await openPglite();
    await migrate(db);
    return db;
  })();
  return shared;
}

export const testDbKind = (): "pglite" | "postgres" => (process.env.TEST_DATABASE_URL ? "postgres" : "pglite");

/** A name no other test uses, for owners and labels. */
export const unique = (prefix = "owner"): string => `${prefix}-${crypto.randomUUID().slice(0, 12)}`;
