import type { KeyTier } from "./keys.ts";
import type { Queryable } from "./client.ts";

/** What an admitted parse reserves; see migrations/002_usage.sql. */
export interface Reservation {
  id: string;
  owner: string;
  keyId: string;
  keyTier: KeyTier;
  clientIp: string | null;
  period: string;
  day: string;
  reservedAt: Date;
  /** The server instance that admitted it (released when that instance no longer runs). */
  instanceId: string | null;
}

export async function insertReservation(db: Queryable, r: Reservation): Promise<void> {
  await db.query(
    `insert into parse_usage (id, owner, key_id, key_tier, client_ip, period, day, reserved_at, instance_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [r.id, r.owner, r.keyId, r.keyTier, r.clientIp, r.period, r.day, r.reservedAt.toISOString(), r.instanceId],
  );
}

/** Which of an owner's parses hold a place under a cap ($1 owner, $2 period, $3 tier, $4 end-user IP or null, $5 freshSince). */
const HELD_PLACES = `from parse_usage
      where owner = $1 and period = $2 and key_tier = $3 and ($4::text is null or client_ip = $4)
        and (state = 'succeeded' or (state = 'reserved' and reserved_at > $5))`;

/**
 * Parses that hold a place under a cap: successes, plus reservations younger than `freshSince`
 * (parses still running). Counts the owner's parses of one key tier, or of one end-user IP.
 */
export async function countHeldPlaces(
  db: Queryable,
  scope: { owner: string; keyTier: KeyTier; period: string; clientIp: string | null },
  freshSince: Date,
): Promise<number> {
  const rows = await db.query<{ n: number }>(`select count(*)::int as n ${HELD_PLACES}`, [scope.owner, scope.period, scope.keyTier, scope.clientIp, freshSince.toISOString()]);
  return rows[0]?.n ?? 0;
}

/**
 * Inserts the reservation only while fewer than `cap` places are held in its scope (see
 * countHeldPlaces), in one statement; false when the scope has used them all. Atomic only where
 * statements run one at a time: PGlite (one process, one connection). On a server, concurrent
 * statements could each see the count under the cap, so it needs the owner's lock and a
 * transaction (src/metering/metering.ts).
 */
export async function insertReservationUnderCap(db: Queryable, r: Reservation, cap: number, freshSince: Date): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `insert into parse_usage (id, owner, key_id, key_tier, client_ip, period, day, reserved_at, instance_id)
     select $6, $1, $7, $3, $4, $2, $8, $9, $10 where (select count(*) ${HELD_PLACES}) < $11 returning id`,
    [r.owner, r.period, r.keyTier, r.clientIp, freshSince.toISOString(), r.id, r.keyId, r.day, r.reservedAt.toISOString(), r.instanceId, cap],
  );
  return rows.length === 1;
}

/**
 * How a reservation ends: its parse succeeded or failed, or it is released ('abandoned') because
 * the parse never ran (an admission whose answer was lost, see src/metering/metering.ts).
 */
export type ReservationOutcome = { state: "succeeded" } | { state: "failed"; errorClass: string } | { state: "abandoned" };

/**
 * Moves a reservation to its final state. Only a 'reserved' row changes (or one released as
 * 'abandoned' by a server that took this instance for dead), so a second call (a retried write)
 * is a no-op and a parse is counted at most once. Returns whether it changed.
 */
export async function finishReservation(db: Queryable, id: string, outcome: ReservationOutcome, at: Date): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `update parse_usage set state = $2, error_class = $3, finished_at = $4
      where id = $1 and state in ('reserved', 'abandoned') returning id`,
    [id, outcome.state, outcome.state === "failed" ? outcome.errorClass : null, at.toISOString()],
  );
  return rows.length === 1;
}

export interface TierCounts {
  succeeded: number;
  failed: number;
}

/**
 * Finished parses of the owner in the period, per key tier (tiers with none are absent). A job its
 * owner cancelled (error_class job_cancelled) is neither a success nor a failure of the service.
 */
export async function countsByTier(db: Queryable, owner: string, period: string): Promise<Partial<Record<KeyTier, TierCounts>>> {
  const rows = await db.query<{ key_tier: KeyTier; succeeded: number; failed: number }>(
    `select key_tier,
            (count(*) filter (where state = 'succeeded'))::int as succeeded,
            (count(*) filter (where state = 'failed' and error_class is distinct from 'job_cancelled'))::int as failed
       from parse_usage where owner = $1 and period = $2 group by key_tier`,
    [owner, period],
  );
  const out: Partial<Record<KeyTier, TierCounts>> = {};
  for (const r of rows) out[r.key_tier] = { succeeded: r.succeeded, failed: r.failed };
  return out;
}

/** Successful parses of the owner per Lagos day of the period (days with none are absent). */
export async function dailySuccesses(db: Queryable, owner: string, period: string): Promise<Map<string, number>> {
  const rows = await db.query<{ day: string; n: number }>(
    `select day, count(*)::int as n from parse_usage
      where owner = $1 and period = $2 and state = 'succeeded' group by day`,
    [owner, period],
  );
  return new Map(rows.map((r) => [r.day, r.n]));
}

/** Namespace of the session advisory locks that say a server instance is running (key: hashtext of its id). */
export const INSTANCE_LOCK_NAMESPACE = 5106;

/**
 * Releases ('abandoned') the reservations of server instances that no longer run: on PostgreSQL
 * those whose instance holds no instance lock (and those written before instances were recorded);
 * with `all` (PGlite: one server per data directory, held by its lock file) every reservation
 * not made by `self`. Returns how many were released.
 */
export async function releaseOrphanedReservations(db: Queryable, self: string, at: Date, all: boolean): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `update parse_usage set state = 'abandoned', finished_at = $2
      where state = 'reserved' and instance_id is distinct from $1
        and ($3::boolean or instance_id is null or hashtext(instance_id)::oid not in
              (select objid from pg_locks where locktype = 'advisory' and classid = $4::int4::oid and objsubid = 2 and granted))
      returning id`,
    [self, at.toISOString(), all, INSTANCE_LOCK_NAMESPACE],
  );
  return rows.length;
}
