import type { Queryable } from "./client.ts";

/** How long an Idempotency-Key stays bound to its request, ms (24 h, as Stripe). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export type IdempotentEndpoint = "parse" | "jobs";

export type Claim =
  /** First use of the key: the caller goes on and later calls settleIdempotency or releaseIdempotency. */
  | { kind: "new" }
  /** The same request seen before: its job answers it. */
  | { kind: "replay"; jobId: string }
  /** The same key with another request. */
  | { kind: "mismatch" }
  /** The same request, still being admitted by another call. */
  | { kind: "in_progress" };

/**
 * Binds (owner, endpoint, key) to a request's fingerprint and the job answering it, atomically: of
 * two calls racing with one key, exactly one gets "new". An expired row is taken over.
 */
export async function claimIdempotency(db: Queryable, k: { owner: string; endpoint: IdempotentEndpoint; key: string; fingerprint: string; jobId: string }): Promise<Claim> {
  const inserted = await db.query<{ job_id: string }>(
    `insert into idempotency_keys (owner, endpoint, idem_key, fingerprint, job_id, state, expires_at)
     values ($1, $2, $3, $4, $5, 'pending', now() + ($6::bigint * interval '1 millisecond'))
     on conflict (owner, endpoint, idem_key) do update
       set fingerprint = excluded.fingerprint, job_id = excluded.job_id, state = 'pending', created_at = now(), expires_at = excluded.expires_at
       where idempotency_keys.expires_at <= now()
     returning job_id`,
    [k.owner, k.endpoint, k.key, k.fingerprint, k.jobId, IDEMPOTENCY_WINDOW_MS],
  );
  if (inserted.length > 0) return { kind: "new" };
  const rows = await db.query<{ fingerprint: string; job_id: string; state: string }>(
    `select fingerprint, job_id, state from idempotency_keys where owner = $1 and endpoint = $2 and idem_key = $3`,
    [k.owner, k.endpoint, k.key],
  );
  const r = rows[0];
  // Gone between the two statements (swept): the caller may simply retry.
  if (!r || r.state === "pending") return r && r.fingerprint !== k.fingerprint ? { kind: "mismatch" } : { kind: "in_progress" };
  return r.fingerprint === k.fingerprint ? { kind: "replay", jobId: r.job_id } : { kind: "mismatch" };
}

/** The request was admitted: replays now get its job. */
export async function settleIdempotency(db: Queryable, owner: string, endpoint: IdempotentEndpoint, key: string): Promise<void> {
  await db.query(`update idempotency_keys set state = 'ready' where owner = $1 and endpoint = $2 and idem_key = $3`, [owner, endpoint, key]);
}

/** The request was refused (nothing ran): the key is free again, so a retry goes through. */
export async function releaseIdempotency(db: Queryable, owner: string, endpoint: IdempotentEndpoint, key: string): Promise<void> {
  await db.query(`delete from idempotency_keys where owner = $1 and endpoint = $2 and idem_key = $3 and state = 'pending'`, [owner, endpoint, key]);
}

export async function sweepIdempotency(db: Queryable): Promise<void> {
  await db.query(`delete from idempotency_keys where expires_at <= now()`);
}
