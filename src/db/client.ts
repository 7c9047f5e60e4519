import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { AppError, databaseUnavailable } from "../errors.ts";

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
  /**
   * Holds a session-level advisory lock (namespace, key) for as long as this Db is open, on a
   * connection of its own, and takes it again after that connection is lost (a database restart).
   * Other servers see who runs by the locks held (see src/metering/instances.ts). PostgreSQL only.
   */
  holdSessionLock?(namespace: number, key: string): void;
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

export interface PostgresOptions {
  max?: number;
  /** Time to open a connection, ms (DB_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** Longest a statement may run, ms: the server's statement_timeout, and a bound on the wait here (DB_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs?: number;
}

/** Driver and server codes that mean "the database is not there right now", not "the query is wrong". */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN",
  "CONNECT_TIMEOUT", "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED",
  // SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections, query_canceled (statement_timeout).
  "57P01", "57P02", "57P03", "53300", "57014",
]);

/** True when `e` says the database is unreachable, restarting or too slow (SQLSTATE class 08 included). */
export function isUnavailable(e: unknown): boolean {
  if (e instanceof AppError) return e.errorClass === "database_unavailable";
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  return UNAVAILABLE_CODES.has(code) || code.startsWith("08");
}

/**
 * Failures that prove the statement never ran: no connection could be made, the server is
 * starting or full, or it ended the session (which rolls back what the session was running).
 */
const NOT_RUN_CODES = new Set(["ECONNREFUSED", "CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "57P01", "57P02", "57P03", "53300"]);

/** True when `e` proves the statement did not run, so running it again cannot apply it twice. */
export function neverRan(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && NOT_RUN_CODES.has(code);
}

/** A statement that only reads: safe to run again whatever happened to the first try. */
const READ_ONLY = /^\s*select\b/i;

const FIRST_RETRY_MS = 50;
const LAST_RETRY_MS = 400;
/**
 * How long a statement is tried again while the database is away: a restart takes a second or
 * two, and a database that is down must still be answered 503 well under 2 s (README, Security).
 */
const RETRY_WITHIN_MS = 1200;

/**
 * Runs `op`, and again on a new connection while the database is away (a restart, a dropped
 * connection) and `mayRetry` says a second run cannot apply anything twice, for up to
 * RETRY_WITHIN_MS. Then an outage (or no answer within `boundMs`) is 503 database_unavailable.
 */
async function guarded<T>(op: () => Promise<T>, boundMs: number, mayRetry: (e: unknown) => boolean = () => false, readOnly = false): Promise<T> {
  const window = Math.min(boundMs, RETRY_WITHIN_MS);
  const retryUntil = performance.now() + window;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let windowTimer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(databaseUnavailable(new Error(`no answer within ${boundMs} ms`))), boundMs);
  });
  // A read tried again must answer within the retry window too: a new connection that hangs in its
  // connect would otherwise stretch an outage's 503 by a whole connect timeout per statement. Only
  // a read may be given up while it runs; a write tried again keeps the whole bound.
  const windowEnd = readOnly
    ? new Promise<never>((_, reject) => {
        windowTimer = setTimeout(() => reject(databaseUnavailable(new Error(`no answer within the ${window} ms retry window`))), window);
      })
    : bound;
  windowEnd.catch(() => {});
  try {
    for (let wait = FIRST_RETRY_MS, first = true; ; wait = Math.min(LAST_RETRY_MS, wait * 2), first = false) {
      try {
        return await Promise.race([op(), first ? bound : windowEnd, bound]);
      } catch (e) {
        const again = !(e instanceof AppError) && isUnavailable(e) && mayRetry(e) && performance.now() + wait < retryUntil;
        if (!again) throw e;
        await Promise.race([Bun.sleep(wait), bound]);
      }
    }
  } catch (e) {
    throw isUnavailable(e) ? (e instanceof AppError ? e : databaseUnavailable(e)) : e;
  } finally {
    clearTimeout(timer);
    clearTimeout(windowTimer);
  }
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Db> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 1500;
  const statementTimeoutMs = options.statementTimeoutMs ?? 5000;
  const clientOptions = {
    onnotice: () => {},
    // Fractional seconds are fine for postgres.js; a refused or silent server fails the request fast.
    connect_timeout: connectTimeoutMs / 1000,
    connection: { statement_timeout: statementTimeoutMs },
  };
  const sql = postgres(url, { ...clientOptions, max: options.max ?? 10 });
  // A statement waits for a connection and then runs: bound the whole with a little slack, so a
  // server that stops answering without closing the socket cannot hang a request either.
  const boundMs = connectTimeoutMs + statementTimeoutMs + 500;
  type Unsafe = Pick<typeof sql, "unsafe">;
  const asQueryable = (q: Unsafe): Queryable => ({
    query<T extends object>(text: string, params: readonly unknown[] = []) {
      // A read runs again after any outage; a write only when it surely did not run.
      const readOnly = READ_ONLY.test(text);
      return guarded(async () => {
        const rows = await q.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
        // A plain array, like PGlite's rows (postgres.js adds count/state/columns to its result).
        return [...rows] as unknown as T[];
      }, boundMs, readOnly ? () => true : neverRan, readOnly);
    },
  });
  // Inside a transaction the outer guard bounds the whole; statements are not guarded twice.
  const raw = (q: Unsafe): Queryable => ({
    async query<T extends object>(text: string, params: readonly unknown[] = []) {
      return [...(await q.unsafe(text, params as postgres.ParameterOrJSON<never>[]))] as unknown as T[];
    },
  });
  await guarded(() => sql`select 1`, boundMs);
  const locks: Array<{ sql: postgres.Sql; timer: ReturnType<typeof setInterval> }> = [];
  return {
    kind: "postgres",
    ...asQueryable(sql),
    transaction: (fn) => {
      // Until fn has finished, COMMIT was not sent: a lost connection rolled everything back, and
      // the whole transaction runs again on a new one. Once COMMIT is on its way, only a failure
      // that proves nothing ran is retried (a lost answer to COMMIT may hide a commit).
      let committing = false;
      const attempt = () => {
        committing = false;
        return sql.begin(async (tx) => {
          const result = await fn(raw(tx as unknown as Unsafe));
          committing = true;
          return result;
        }) as Promise<never>;
      };
      return guarded(attempt, boundMs * 2, (e) => !committing || neverRan(e));
    },
    exec: async (text) => {
      await guarded(() => sql.unsafe(text), boundMs * 4);
    },
    holdSessionLock(namespace, key) {
      // One connection of its own (max 1, never idle-closed): a session lock lives as long as it.
      const own = postgres(url, { ...clientOptions, max: 1, idle_timeout: 0 });
      const take = () =>
        own
          .unsafe(
            `select case when exists (select 1 from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()
                     and classid = $1::int4::oid and objid = hashtext($2)::oid and objsubid = 2)
                   then true else pg_try_advisory_lock($1, hashtext($2)) end as held`,
            [namespace, key],
          )
          .catch(() => {});
      void take();
      // After a restart of the database the connection (and the lock) are gone: take it again.
      const timer = setInterval(() => void take(), 2000);
      timer.unref?.();
      locks.push({ sql: own, timer });
    },
    close: async () => {
      for (const l of locks) {
        clearInterval(l.timer);
        await l.sql.end({ timeout: 1 }).catch(() => {});
      }
      await sql.end({ timeout: 5 });
    },
  };
}
