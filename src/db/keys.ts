import { sha256Hex } from "../crypto.ts";
import { newId } from "../ids.ts";
import { KeyCache } from "../keys/cache.ts";
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

/** Keys found active, per embedded database (PGlite: this process alone writes it, see KeyCache). */
const remembered = new WeakMap<Db, KeyCache<Caller>>();

/**
 * findActiveKeyByHash for every request's authentication. On PGlite a key found active is taken as
 * active for a few seconds without a query (each revocation below forgets them all, so a revoked
 * key still fails on its next request); on PostgreSQL, which other instances write, every call
 * asks the database.
 */
export async function findActiveKey(db: Db, keyHash: string): Promise<Caller | undefined> {
  if (db.kind !== "pglite") return findActiveKeyByHash(db, keyHash);
  let cache = remembered.get(db);
  if (!cache) remembered.set(db, (cache = new KeyCache<Caller>()));
  const hit = cache.get(keyHash);
  if (hit) return hit;
  const found = await findActiveKeyByHash(db, keyHash);
  if (found) cache.set(keyHash, found);
  return found;
}

/** Forgets every key remembered active (after any revocation). */
const forgetActiveKeys = (db: Queryable) => remembered.get(db as Db)?.forgetAll();

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
export async function issueTestKey(db: Db, owner: string): Promise<IssuedKey> {
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`select pg_advisory_xact_lock(hashtext('api_keys.test:' || $1))`, [owner]);
      await tx.query(`update api_keys set revoked_at = now() where owner = $1 and tier = 'test' and revoked_at is null`, [owner]);
      return insertKey(tx, { name: TEST_KEY_NAME, owner, tier: "test" });
    });
  } finally {
    // Once the old test key is revoked (committed), or whatever happened: it is asked for again.
    forgetActiveKeys(db);
  }
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
  try {
    const rows = await db.query<{ id: string }>(`update api_keys set revoked_at = now() where id = $1 and revoked_at is null returning id`, [id]);
    return rows.length === 1;
  } finally {
    forgetActiveKeys(db);
  }
}
