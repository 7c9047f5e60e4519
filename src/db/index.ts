import { mkdirSync } from "node:fs";
import type { Config } from "../config.ts";
import { type Db, openPglite, openPostgres } from "./client.ts";
import { migrate } from "./migrate.ts";

export type { Db, Queryable } from "./client.ts";

/** Opens the configured database (DATABASE_URL, else PGlite under DATA_DIR) and migrates it. */
export async function openDatabase(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): Promise<Db> {
  let db: Db;
  if (config.DATABASE_URL) {
    db = await openPostgres(config.DATABASE_URL);
  } else {
    mkdirSync(config.DATA_DIR, { recursive: true });
    db = await openPglite(config.DATA_DIR);
  }
  await migrate(db);
  return db;
}
