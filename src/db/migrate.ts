import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "./client.ts";

const MIGRATIONS_DIR = join(import.meta.dir, "migrations");

/**
 * Applies every migrations/NNN_name.sql not yet recorded, in name order, in one transaction
 * (all or none). An advisory lock keeps two servers starting at once from racing on one database;
 * it is taken before the bookkeeping table is created, since two concurrent `create table if not
 * exists` on PostgreSQL can both pass the check and one fail on the type's unique index.
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith(".sql")).sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(724501)`);
    await tx.query(`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`);
    const done = new Set((await tx.query<{ name: string }>(`select name from schema_migrations`)).map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = readFileSync(join(MIGRATIONS_DIR, file), "utf8");
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query(`insert into schema_migrations (name) values ($1)`, [file]);
      applied.push(file);
    }
  });
  return applied;
}

/** Migrations hold plain DDL separated by `;` at line ends (no functions with bodies). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
    .filter((s) => s.length > 0);
}
