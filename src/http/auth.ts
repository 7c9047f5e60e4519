import { Elysia } from "elysia";
import { safeEqual, sha256Hex } from "../crypto.ts";
import { findActiveKey, findActiveKeyByHash } from "../db/keys.ts";
import { authError, forbidden } from "../errors.ts";
import { parseRawKey } from "../keys/format.ts";
import type { AppDeps } from "./deps.ts";

export type { Caller } from "../db/keys.ts";

function bearer(headers: Headers): string | undefined {
  const h = headers.get("authorization");
  const m = h ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m?.[1];
}

/**
 * API-key authentication for /v1 routes: derives `caller` or answers 401 auth_error. A revoked key
 * fails on its very next request: PostgreSQL is asked every time; PGlite's few seconds of memory
 * of active keys are forgotten at every revocation (findActiveKey).
 * `derive` (transform stage) rather than `resolve`, so an unauthenticated caller gets 401 before
 * any schema validation can answer 422 about a request it may not make.
 */
export const apiKeyAuth = (deps: Pick<AppDeps, "db">) =>
  new Elysia({ name: "api-key-auth" }).derive({ as: "scoped" }, async ({ request }) => {
    const token = bearer(request.headers);
    if (!token) throw authError("Missing Authorization: Bearer <API key> header");
    // Shape and checksum first: a mistyped or truncated key is told so without a database lookup.
    if (!parseRawKey(token)) throw authError("Malformed API key");
    const caller = await findActiveKey(deps.db, sha256Hex(token));
    if (!caller) throw authError("Unknown or revoked API key");
    return { caller };
  });

/**
 * Admin-token authentication. Missing or wrong token: 401; a valid API key: 403, so a key can
 * never reach key management or billing. Runs at the transform stage, before validation (401/403
 * come before any 422).
 */
export const adminAuth = (deps: Pick<AppDeps, "db" | "adminTokenHash">) =>
  new Elysia({ name: "admin-auth" }).onTransform({ as: "scoped" }, async ({ request }) => {
    const token = bearer(request.headers);
    if (!token) throw authError("Missing Authorization: Bearer <admin token> header");
    const hash = sha256Hex(token);
    if (safeEqual(hash, deps.adminTokenHash)) return;
    if (await findActiveKeyByHash(deps.db, hash)) throw forbidden("API keys cannot use admin endpoints");
    throw authError("Invalid admin token");
  });
