import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";

/**
 * The one database interface the service uses. PGlite (embedded) and postgres.js (a real server)
 * both sit behind it, so every query and migration is the same SQL with $1-style parameters.
 * Drivers differ on int8 (PGlite: number, postgres.js: string), so cast counts and sums to ::int
 * or ::text in SQL rather than converting in code.
 */
export interface Queryable {
  query<T extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs fn in one transaction; it commits when fn resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export async function openPglite(dataDir?: string): Promise<Db> {
  const pg = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  const asQueryable = (q: Pick<PGlite, "query">): Queryable => ({
    async query<T extends object>(sql: string, params: readonly unknown[] = []) {
      const res = await q.query<T>(sql, params as unknown[]);
      return res.rows;
    },
  });
  return {
    kind: "pglite",
    ...asQueryable(pg),
    transaction: (fn) => pg.transaction((tx) => fn(asQueryable(tx))),
    exec: async (sql) => {
      await pg.exec(sql);
    },
    close: () => pg.close(),
  };
}

export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Db> {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
  });
  type Unsafe = Pick<typeof sql, "unsafe">;
  const asQueryable = (q: Unsafe): Queryable => ({
    async query<T extends object>(text: string, params: readonly unknown[] = []) {
      const rows = await q.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
      // A plain array, like PGlite's rows (postgres.js adds count/state/columns to its result).
      return [...rows] as unknown as T[];
    },
  });
  await sql`select 1`;
  return {
    kind: "postgres",
    ...asQueryable(sql),
    transaction: (fn) => sql.begin((tx) => fn(asQueryable(tx as unknown as Unsafe))) as Promise<never>,
    exec: async (text) => {
      await sql.unsafe(text);
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
