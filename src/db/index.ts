import type { Config } from "../config.ts";
import { type Db, openPglite, openPostgres } from "./client.ts";
import { prepareDataDir } from "./data-dir.ts";
import { migrate } from "./migrate.ts";

export type { Db, Queryable } from "./client.ts";

/** Opens the configured database (DATABASE_URL, else PGlite under DATA_DIR) and migrates it. */
export async function openDatabase(config: Pick<Config, "DATABASE_URL" | "DATA_DIR" | "DB_CONNECT_TIMEOUT_MS" | "DB_STATEMENT_TIMEOUT_MS">): Promise<Db> {
  let db: Db;
  let narrow: (() => void) | undefined;
  if (config.DATABASE_URL) {
    db = await openPostgres(config.DATABASE_URL, { connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS, statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS });
  } else {
    // Private directory, one server at a time (data-dir.ts); the lock goes when the database closes.
    const lock = prepareDataDir(config.DATA_DIR);
    narrow = lock.narrow;
    try {
      const pglite = await openPglite(config.DATA_DIR);
      db = {
        ...pglite,
        close: async () => {
          try {
            await pglite.close();
            lock.narrow();
          } finally {
            lock.release();
          }
        },
      };
    } catch (e) {
      lock.release();
      throw e;
    }
  }
  try {
    await migrate(db);
    narrow?.();
  } catch (e) {
    await db.close().catch(() => {});
    throw e;
  }
  return db;
}
