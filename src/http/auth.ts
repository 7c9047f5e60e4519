import { Elysia } from "elysia";
import { safeEqual, sha256Hex } from "../crypto.ts";
import { findActiveKeyByHash } from "../db/keys.ts";
import { authError, forbidden } from "../errors.ts";
import type { AppDeps } from "./deps.ts";

export type { Caller } from "../db/keys.ts";

function bearer(headers: Headers): string | undefined {
  const h = headers.get("authorization");
  const m = h ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m?.[1];
}

/**
 * API-key authentication for /v1 routes: resolves `caller` or answers 401 auth_error. The key is
 * looked up on every request (no cache), so a revoked key fails on its very next request.
 */
export const apiKeyAuth = (deps: Pick<AppDeps, "db">) =>
  new Elysia({ name: "api-key-auth" }).resolve({ as: "scoped" }, async ({ request }) => {
    const token = bearer(request.headers);
    if (!token) throw authError("Missing Authorization: Bearer <API key> header");
    const caller = await findActiveKeyByHash(deps.db, sha256Hex(token));
    if (!caller) throw authError("Unknown or revoked API key");
    return { caller };
  });

/**
 * Admin-token authentication. Missing or wrong token: 401; a valid API key: 403, so a key can
 * never reach key management or billing.
 */
export const adminAuth = (deps: Pick<AppDeps, "db" | "adminTokenHash">) =>
  new Elysia({ name: "admin-auth" }).onBeforeHandle({ as: "scoped" }, async ({ request }) => {
    const token = bearer(request.headers);
    if (!token) throw authError("Missing Authorization: Bearer <admin token> header");
    const hash = sha256Hex(token);
    if (safeEqual(hash, deps.adminTokenHash)) return;
    if (await findActiveKeyByHash(deps.db, hash)) throw forbidden("API keys cannot use admin endpoints");
    throw authError("Invalid admin token");
  });
