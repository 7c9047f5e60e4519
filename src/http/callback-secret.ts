import { Elysia } from "elysia";
import { z } from "zod";
import { rotateCallbackSecret } from "../db/callback-secrets.ts";
import { adminAuth } from "./auth.ts";
import { CallbackSecretIssued } from "./batch-schemas.ts";
import type { AppDeps } from "./deps.ts";
import { jsonBody } from "./json-body.ts";
import { LABEL_MAX } from "./keys.ts";
import { AdminHeaders, adminErrors, ErrorEnvelope } from "./schemas.ts";

const SecretBody = z.strictObject({
  owner: z
    .string()
    .min(1)
    .max(LABEL_MAX)
    .regex(/\S/, "owner must not be blank")
    .regex(/^[^\u0000-\u001f\u007f]*$/, "owner must not contain control characters")
    .describe("The owner whose completion callbacks the secret signs"),
});

/** Issue 27: the per-owner signing secret of completion callbacks, issued or rotated by the admin and shown once. */
export const callbackSecretRoutes = (deps: Pick<AppDeps, "db" | "adminTokenHash">) =>
  new Elysia({ name: "callback-secret", detail: { tags: ["Callbacks"], security: [{ adminToken: [] }] } }).use(adminAuth(deps)).post(
    "/v1/admin/callback-secret",
    async ({ body }) => ({ owner: body.owner, ...(await rotateCallbackSecret(deps.db, body.owner)) }),
    {
      ...jsonBody(),
      headers: AdminHeaders,
      body: SecretBody,
      response: { 200: CallbackSecretIssued, 413: ErrorEnvelope, ...adminErrors },
      detail: {
        summary: "Issue or rotate an owner's callback signing secret",
        description:
          "Admin token only. Issues the owner's secret for completion callbacks, or rotates it: the answer is the only time the secret is shown. After a rotation the previous secret keeps signing beside the new one (two v1= values in Stp-Signature) for 24 h (previous_valid_until), so receivers can switch without losing callbacks. The server keeps the secret as issued (it signs with it), not hashed; see docs/batch.md.",
      },
    },
  );
