import type { Queryable } from "./client.ts";

export type KeyTier = "live" | "first_party" | "test";

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
