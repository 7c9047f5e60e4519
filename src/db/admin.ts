import type { Queryable } from "./client.ts";
import { sha256Hex } from "../crypto.ts";

/**
 * Resolves the admin token: ADMIN_TOKEN wins; otherwise a token generated at first start is kept
 * (hashed) in settings. Returns the plain token only when it was generated now, to print once.
 */
export async function ensureAdminToken(db: Queryable, configured?: string): Promise<{ hash: string; generated?: string }> {
  if (configured) return { hash: sha256Hex(configured) };
  const rows = await db.query<{ value: string }>(`select value from settings where name = 'admin_token_sha256'`);
  if (rows[0]) return { hash: rows[0].value };
  const token = `adm_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
  const hash = sha256Hex(token);
  const inserted = await db.query<{ value: string }>(
    `insert into settings (name, value) values ('admin_token_sha256', $1) on conflict (name) do nothing returning value`,
    [hash],
  );
  // Another process won the race: use its token, ours was never valid.
  if (!inserted[0]) return ensureAdminToken(db);
  return { hash, generated: token };
}
