import { randomToken } from "../crypto.ts";
import type { Queryable } from "./client.ts";

/** Prefix of a callback signing secret, so one pasted in the wrong place is recognisable. */
export const CALLBACK_SECRET_PREFIX = "whsec_";
/** How long the previous secret keeps signing after a rotation, ms. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/**
 * Per-owner signing secrets of completion callbacks. Kept as issued, not hashed: the server signs
 * every callback with it and so must read it back (a hash could only verify). Whoever can read the
 * database can read them, as with every other server-side secret; docs/batch.md says so.
 */

/** Issues the owner's secret, or rotates it: the old one signs alongside for ROTATION_OVERLAP_MS. Returns the new secret, once. */
export async function rotateCallbackSecret(db: Queryable, owner: string): Promise<{ secret: string; created_at: string; previous_valid_until: string | null }> {
  const secret = `${CALLBACK_SECRET_PREFIX}${randomToken(32)}`;
  const rows = await db.query<{ created_at: string; previous_valid_until: string | null }>(
    `insert into callback_secrets (owner, secret) values ($1, $2)
     on conflict (owner) do update
       set previous_secret = callback_secrets.secret,
           previous_until = now() + ($3::bigint * interval '1 millisecond'),
           secret = excluded.secret,
           created_at = now()
     returning to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
               to_char(previous_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as previous_valid_until`,
    [owner, secret, ROTATION_OVERLAP_MS],
  );
  const r = rows[0];
  if (!r) throw new Error("callback secret not written");
  return { secret, created_at: r.created_at, previous_valid_until: r.previous_valid_until };
}

/** The secrets that sign the owner's callbacks now: the current one first, then the previous one during the overlap. Empty: none issued. */
export async function signingSecrets(db: Queryable, owner: string): Promise<string[]> {
  const rows = await db.query<{ secret: string; previous_secret: string | null; previous_live: boolean }>(
    `select secret, previous_secret, coalesce(previous_until > now(), false) as previous_live from callback_secrets where owner = $1`,
    [owner],
  );
  const r = rows[0];
  if (!r) return [];
  return r.previous_secret && r.previous_live ? [r.secret, r.previous_secret] : [r.secret];
}
