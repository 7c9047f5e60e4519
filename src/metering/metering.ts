import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Caller, KeyTier } from "../db/keys.ts";
import { getSubscription, isActive } from "../db/subscriptions.ts";
import { countHeldPlaces, finishReservation, insertReservation, insertReservationUnderCap, type Reservation } from "../db/usage.ts";
import type { Logger } from "../log.ts";
import { type Outcome, PendingWrites } from "./pending.ts";
import { lagosDate, periodOf } from "../billing/periods.ts";
import { AppError } from "../errors.ts";
import { randomToken } from "../crypto.ts";
import { firstPartyClientIp } from "./client-ip.ts";
import type { Admission, Metering } from "./types.ts";

export interface MeteringOptions {
  db: Db;
  config: Pick<Config, "TEST_MONTHLY_CAP" | "FIRST_PARTY_IP_MONTHLY_CAP" | "METERING_RESERVATION_TTL_S"> & Partial<Pick<Config, "METERING_PENDING_MAX">>;
  /** The clock; tests move it across a period boundary. */
  now?: () => Date;
  /** This server's instance id, written on each reservation (src/metering/instances.ts). */
  instanceId?: string;
  log?: Logger;
  /** First retry delay of a failed outcome write, ms (tests shorten it). */
  retryBaseMs?: number;
  /** Live keys need an active subscription (402 otherwise). Off when no payment provider is configured (src/billing/mode.ts). */
  gateLiveKeys?: boolean;
}

export const subscriptionInactive = () =>
  new AppError("subscription_inactive", 402, "This key's owner has no active subscription; start one with the service operator");

// Namespace of the advisory locks that serialize cap checks of one owner (the second key is the owner's hash).
const CAP_LOCK_NAMESPACE = 5105;

/**
 * How long a parse's answer waits for its outcome write. A write to a database that is going away
 * can hang for its whole bound (connect plus statement timeout) instead of failing; the parse is
 * done and needs no database, so past this the write is left to the background retries
 * (PendingWrites), which count it exactly once whenever it lands.
 */
const OUTCOME_WAIT_MS = 2_000;

const SAMPLE: Admission = { sample: true, succeeded: async () => {}, failed: async () => {} };

/**
 * Database-backed metering. Every admitted parse first reserves a row (state 'reserved'); the
 * caller later finalizes it once as succeeded or failed. Capped tiers (test, first_party) check
 * and reserve under a per-owner transaction-scoped advisory lock, so concurrent requests can't
 * overshoot a cap; live keys are never refused for volume (overage is billed), only for a missing
 * subscription, and only when billing is on (`gateLiveKeys`).
 */
export function createMetering({ db, config, now = () => new Date(), instanceId, log, retryBaseMs, gateLiveKeys = true }: MeteringOptions): Metering {
  const pending = new PendingWrites({
    write: (w) => finishReservation(db, w.id, w.outcome, w.at),
    max: config.METERING_PENDING_MAX ?? 100_000,
    log,
    baseDelayMs: retryBaseMs,
  });
  const reservation = (caller: Caller, clientIp: string | null, at: Date, chosenId?: string): Reservation => ({
    id: chosenId ?? `use_${randomToken(16)}`,
    owner: caller.owner,
    keyId: caller.keyId,
    keyTier: caller.tier,
    clientIp,
    period: periodOf(at).key,
    day: lagosDate(at),
    reservedAt: at,
    instanceId: instanceId ?? null,
  });
  /** Reserves a place under `cap`; false when the scope has used them all. */
  const reserveUnderCap = async (r: Reservation, cap: number): Promise<boolean> => {
    const freshSince = new Date(r.reservedAt.getTime() - config.METERING_RESERVATION_TTL_S * 1000);
    // PGlite runs one statement at a time: the count and the insert in one statement cannot be
    // overtaken, and cost half of the locked transaction's five round trips.
    if (db.kind === "pglite") return insertReservationUnderCap(db, r, cap, freshSince);
    return db.transaction(async (tx) => {
      await tx.query(`select pg_advisory_xact_lock($1, hashtext($2))`, [CAP_LOCK_NAMESPACE, r.owner]);
      const held = await countHeldPlaces(tx, { owner: r.owner, keyTier: r.keyTier, period: r.period, clientIp: r.clientIp }, freshSince);
      if (held >= cap) return false;
      await insertReservation(tx, r);
      return true;
    });
  };

  const admission = (id: string): Admission => {
    // One admission finalizes once; the SQL guard (state = 'reserved') also holds across processes.
    let finished = false;
    const finish = async (outcome: Outcome) => {
      if (finished) return;
      finished = true;
      const at = now();
      const keep = (error: string) => {
        // The parse happened: its outcome is kept and written once the database is back.
        log?.warn("metering: write failed, retrying in the background", { reservation: id, state: outcome.state, error });
        pending.add({ id, outcome, at });
      };
      const write = finishReservation(db, id, outcome, at);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), OUTCOME_WAIT_MS)));
      try {
        if ((await Promise.race([write, late])) !== "late") return;
        // Still unanswered: the background retry takes over (a late landing makes it a no-op).
        write.catch(() => {});
        keep(`no answer within ${OUTCOME_WAIT_MS} ms`);
      } catch (e) {
        keep(String(e instanceof Error ? e.message : e));
      } finally {
        clearTimeout(timer);
      }
    };
    return {
      sample: false,
      succeeded: () => finish({ state: "succeeded" }),
      failed: (errorClass) => finish({ state: "failed", errorClass }),
    };
  };

  const capFor: Record<Exclude<KeyTier, "live">, number> = {
    test: config.TEST_MONTHLY_CAP,
    first_party: config.FIRST_PARTY_IP_MONTHLY_CAP,
  };

  /**
   * What admission refuses before counting anything (402 without a subscription when live keys
   * are gated, 422 without a valid first-party IP header), and the end-user IP it counts under.
   */
  const refuse = async (caller: Caller, headers: Headers, at: Date): Promise<string | null> => {
    if (caller.tier === "live") {
      if (gateLiveKeys && !isActive(await getSubscription(db, caller.owner), at)) throw subscriptionInactive();
      return null;
    }
    return caller.tier === "first_party" ? firstPartyClientIp(headers) : null;
  };

  return {
    flush: (timeoutMs) => pending.flush(timeoutMs),
    resume: (id) => admission(id),
    async precheck(caller, request) {
      await refuse(caller, request.headers, now());
    },
    async admit(caller, request, { reservationId } = {}) {
      const at = now();
      // Checked before anything is counted, so a refused request never holds a place.
      const clientIp = await refuse(caller, request.headers, at);
      const r = reservation(caller, clientIp, at, reservationId);
      try {
        if (caller.tier === "live") await insertReservation(db, r);
        else if (!(await reserveUnderCap(r, capFor[caller.tier]))) return SAMPLE;
      } catch (e) {
        // The caller is refused (503), yet a lost answer to the insert or to its COMMIT may hide a
        // reservation that landed: release it once the database answers, so no row is left
        // 'reserved' (a no-op when nothing landed).
        pending.add({ id: r.id, outcome: { state: "abandoned" }, at });
        throw e;
      }
      return admission(r.id);
    },
  };
}
