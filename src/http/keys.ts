import { Elysia } from "elysia";
import { z } from "zod";
import { issueKey, issueTestKey, listKeys, revokeKey } from "../db/keys.ts";
import { notFound } from "../errors.ts";
import { idPattern } from "../ids.ts";
import { adminAuth } from "./auth.ts";
import type { AppDeps } from "./deps.ts";
import { jsonBody } from "./json-body.ts";
import { AdminHeaders, adminErrors, ErrorEnvelope, IssuedKey, KeyList } from "./schemas.ts";

/** Longest name or owner label accepted; labels, not documents. */
export const LABEL_MAX = 200;
/** Owner of a key issued without one: single-tenant installs never have to think about owners. */
export const DEFAULT_OWNER = "default";

// PostgreSQL text cannot hold NUL, and control characters in labels only ever come from mistakes
// or attacks on log viewers, so they are refused up front rather than failing in the database.
const label = (what: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .max(LABEL_MAX)
    .regex(/\S/, `${what} must not be blank`)
    .regex(/^[^\u0000-\u001f\u007f]*$/, `${what} must not contain control characters`);

const IssueBody = z.strictObject({
  name: label("name"),
  owner: label("owner").optional().describe(`Owner label; default "${DEFAULT_OWNER}"`),
  tier: z.enum(["live", "first_party"]).default("live").describe("test keys come from POST /v1/keys/test"),
});
const TestKeyBody = z.strictObject({ owner: label("owner") });
const ListQuery = z.strictObject({ owner: label("owner").optional() });
const KeyIdParams = z.strictObject({
  key_id: z.string().regex(idPattern("apiKey"), "must be a key id (key_ followed by 22 letters or digits)"),
});

/** SPEC 4.3: issue, list and revoke API keys. Admin token only; an API key gets 403. */
export const keysRoutes = (deps: Pick<AppDeps, "db" | "adminTokenHash">) =>
  new Elysia({ name: "keys", detail: { tags: ["Keys"], security: [{ adminToken: [] }] } })
    .use(adminAuth(deps))
    .post(
      "/v1/keys",
      async ({ body }) => issueKey(deps.db, { name: body.name, owner: body.owner ?? DEFAULT_OWNER, tier: body.tier }),
      {
        ...jsonBody(),
        headers: AdminHeaders,
        body: IssueBody,
        response: { 200: IssuedKey, 413: ErrorEnvelope, ...adminErrors },
        detail: {
          summary: "Issue an API key",
          description: "Returns the raw key once; only its SHA-256 is stored. `tier=test` or any unknown field is 422.",
        },
      },
    )
    .post("/v1/keys/test", async ({ body }) => issueTestKey(deps.db, body.owner), {
      ...jsonBody(),
      headers: AdminHeaders,
      body: TestKeyBody,
      response: { 200: IssuedKey, 413: ErrorEnvelope, ...adminErrors },
      detail: {
        summary: "Issue the owner's test key",
        description: "Revokes the owner's active test key, if any, and issues a new one: exactly one active test key per owner.",
      },
    })
    .get("/v1/keys", async ({ query }) => ({ keys: await listKeys(deps.db, query.owner) }), {
      headers: AdminHeaders,
      query: ListQuery,
      response: { 200: KeyList, ...adminErrors },
      detail: { summary: "List API keys", description: "Includes revoked keys (audit trail); never the raw key or its hash." },
    })
    .delete(
      "/v1/keys/:key_id",
      async ({ params, set }) => {
        if (!(await revokeKey(deps.db, params.key_id))) throw notFound("No active key with this id");
        set.status = 204;
      },
      {
        headers: AdminHeaders,
        params: KeyIdParams,
        response: { 204: z.unknown().describe("Revoked; empty body"), 404: ErrorEnvelope, ...adminErrors },
        detail: {
          summary: "Revoke an API key",
          description: "Soft delete: the record stays for audit and the key fails on its next request. Unknown or already revoked: 404; an id not shaped like `key_…`: 422.",
        },
      },
    );
