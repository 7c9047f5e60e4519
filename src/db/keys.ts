import { sha256Hex } from "../crypto.ts";
import { newId } from "../ids.ts";
import { generateRawKey } from "../keys/format.ts";
import type { KeyTier } from "../keys/tiers.ts";
import type { Db, Queryable } from "./client.ts";

export type { KeyTier };

/** The authenticated caller of a /v1 endpoint, resolved from its API key. */
export interface Caller {
  keyId: string;
  owner: string;
  tier: KeyTier;
  prefix: string;
}

/** Looks up an active key by the SHA-256 of the raw key (unique index); revoked keys are not found. */
export async function findActiveKeyByHash(db: Queryable, keyHash: string): Promise<Caller | undefined> {
  const rows = await db.query<{ id: string; owner: string; tier: KeyTier; prefix: string }>(
    `select id, owner, tier, prefix from api_keys where key_hash = $1 and revoked_at is null`,
    [keyHash],
  );
  const r = rows[0];
  return r && { keyId: r.id, owner: r.owner, tier: r.tier, prefix: r.prefix };
}

/** What POST /v1/keys and POST /v1/keys/test return: the raw key, this once. */
export interface IssuedKey {
  id: string;
  key: string;
  prefix: string;
  name: string;
  tier: KeyTier;
}

/** A key as listed: never the raw key nor its hash. Timestamps are ISO 8601 (UTC). */
export interface KeyRecord {
  id: string;
  name: string;
  prefix: string;
  tier: KeyTier;
  owner: string;
  created_at: string;
  revoked_at: string | null;
}

/** Name given to the keys POST /v1/keys/test issues (its body has only `owner`). */
export const TEST_KEY_NAME = "test";

async function insertKey(db: Queryable, input: { name: string; owner: string; tier: KeyTier }): Promise<IssuedKey> {
  const id = newId("apiKey");
  const { key, prefix } = generateRawKey(input.tier);
  await db.query(`insert into api_keys (id, key_hash, prefix, name, owner, tier) values ($1, $2, $3, $4, $5, $6)`, [
    id,
    sha256Hex(key),
    prefix,
    input.name,
    input.owner,
    input.tier,
  ]);
  return { id, key, prefix, name: input.name, tier: input.tier };
}

/** Issues a live or first_party key (test keys go through issueTestKey, one per owner). */
export function issueKey(db: Queryable, input: { name: string; owner: string; tier: Exclude<KeyTier, "test"> }): Promise<IssuedKey> {
  return insertKey(db, input);
}

/**
 * Revokes the owner's active test key, if any, and issues a new one, in one transaction. The
 * per-owner advisory lock serialises concurrent calls for the same owner (the partial unique
 * index would otherwise turn the loser of a race into a unique violation); other owners proceed.
 */
export function issueTestKey(db: Db, owner: string): Promise<IssuedKey> {
  return db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtext('api_keys.test:' || $1))`, [owner]);
    await tx.query(`update api_keys set revoked_at = now() where owner = $1 and tier = 'test' and revoked_at is null`, [owner]);
    return insertKey(tx, { name: TEST_KEY_NAME, owner, tier: "test" });
  });
}

/** Every key (active and revoked, for the audit trail), newest first, optionally of one owner. */
export async function listKeys(db: Queryable, owner?: string): Promise<KeyRecord[]> {
  const select = `select id, name, prefix, tier, owner,
      to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
      to_char(revoked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as revoked_at
    from api_keys`;
  const order = `order by api_keys.created_at desc, id`;
  return owner === undefined
    ? db.query<KeyRecord>(`${select} ${order}`)
    : db.query<KeyRecord>(`${select} where owner = $1 ${order}`, [owner]);
}

/** Soft-deletes an active key. False when it is unknown or already revoked (nothing changes). */
export async function revokeKey(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(`update api_keys set revoked_at = now() where id = $1 and revoked_at is null returning id`, [id]);
  return rows.length === 1;
}
