import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import postgres from "postgres";

/**
 * The real local PostgreSQL server, for tests of what happens when it goes away (issue 15): a
 * throwaway database of their own on it, and stopping/starting the cluster itself. Every test
 * that stops the server starts it again in a `finally`, and keeps the stop short: other test
 * files (and other people's suites on this machine) use the same server.
 */
export const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface ScratchDb {
  url: string;
  /** A connection for the test's own checks (not through the server under test). */
  sql: postgres.Sql;
  drop(): Promise<void>;
}

export async function createScratchDb(prefix: string): Promise<ScratchDb> {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  const name = `${prefix}_${Date.now()}_${process.pid}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const sql = postgres(url.toString(), { max: 2, onnotice: () => {}, connect_timeout: 2 });
  return {
    url: url.toString(),
    sql,
    async drop() {
      await sql.end({ timeout: 1 }).catch(() => {});
      await waitForPostgres();
      await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
    },
  };
}

function cluster(action: "stop" | "start" | "restart"): void {
  for (const version of readdirSync("/etc/postgresql")) {
    const r = spawnSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", action], { encoding: "utf8" });
    if (r.status !== 0 && !/already running|not running/i.test(`${r.stderr}${r.stdout}`)) throw new Error(`pg_ctlcluster ${action}: ${r.stderr}${r.stdout}`);
  }
}

export const stopPostgres = () => cluster("stop");

/** A fast restart of the cluster (its sessions are ended, as in a real restart); waits until it accepts connections. */
export async function restartPostgres(): Promise<void> {
  try {
    cluster("restart");
  } finally {
    await startPostgres();
  }
}

/** Starts the cluster (a no-op when it runs) and waits until it accepts connections. */
export async function startPostgres(): Promise<void> {
  cluster("start");
  await waitForPostgres();
}

export async function waitForPostgres(timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const probe = postgres(ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 1 });
    const ok = await probe`select 1`.then(() => true, () => false);
    await probe.end({ timeout: 1 }).catch(() => {});
    if (ok) return;
    if (Date.now() > deadline) throw new Error("PostgreSQL did not come back");
    await Bun.sleep(250);
  }
}
