import type { Db } from "../db/client.ts";
import { INSTANCE_LOCK_NAMESPACE, releaseOrphanedReservations } from "../db/usage.ts";
import { randomToken } from "../crypto.ts";
import type { Logger } from "../log.ts";

/** How often a running PostgreSQL server also sweeps reservations of instances that died meanwhile. */
const SWEEP_MS = 60_000;

export interface Instance {
  id: string;
  stop(): void;
}

/**
 * This server process as a metering instance (issue 15 item 9). Its id goes on every reservation;
 * on PostgreSQL it holds a session advisory lock for its lifetime (dropped by the database when
 * the process dies, even by kill -9), which is how other servers tell running instances from
 * dead ones. At start, and every minute after, reservations of dead instances are released. On
 * PGlite one server owns the data directory (its lock file), so every reservation it did not make
 * is an orphan.
 */
export async function registerInstance(db: Db, { log, releaseOrphans }: { log: Logger; releaseOrphans: boolean }): Promise<Instance> {
  const id = `inst_${randomToken(16)}`;
  // A database borrowed from the caller (tests) is not this process's to hold a session on.
  if (releaseOrphans) db.holdSessionLock?.(INSTANCE_LOCK_NAMESPACE, id);
  const sweep = async () => {
    const released = await releaseOrphanedReservations(db, id, new Date(), db.kind === "pglite");
    if (released > 0) log.info("metering: released reservations of servers no longer running", { count: released });
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  if (releaseOrphans) {
    await sweep();
    if (db.kind === "postgres") {
      timer = setInterval(() => void sweep().catch(() => {}), SWEEP_MS);
      timer.unref?.();
    }
  }
  return { id, stop: () => clearInterval(timer) };
}
