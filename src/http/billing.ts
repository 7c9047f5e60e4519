import { Elysia } from "elysia";
import { z } from "zod";
import { billingNotConfigured, paystackClient, secretKeyMode } from "../billing/paystack.ts";
import { PLAN_TIERS, plansFromConfig } from "../billing/plans.ts";
import { processWebhook, verifySignature } from "../billing/webhook.ts";
import { PLAN_CURRENCY } from "../billing/webhook-target.ts";
import { insertCheckout } from "../db/subscriptions.ts";
import { authError, payloadTooLarge } from "../errors.ts";
import { randomBase62 } from "../keys/base62.ts";
import { adminAuth } from "./auth.ts";
import type { AppDeps } from "./deps.ts";
import { jsonBody } from "./json-body.ts";
import { adminErrors, ErrorEnvelope } from "./schemas.ts";

const SubscribeBody = z.strictObject({
  owner: z.string().min(1, "owner must not be empty").max(200).regex(/^[^\u0000-\u001f\u007f]*$/, "owner must not contain control characters"),
  email: z.email().max(254).describe("The payer's email, where Paystack sends receipts"),
  tier: z.enum(PLAN_TIERS).describe("Plan: starter, growth or scale"),
});
const CheckoutBody = z.object({
  authorization_url: z.string().describe("Paystack checkout page to send the payer to"),
  access_code: z.string().describe("For Paystack's inline (popup) checkout"),
  reference: z.string().describe("The transaction reference; the webhook matches it to the owner"),
});
const WebhookAnswer = z.object({ status: z.enum(["processed", "duplicate", "ignored"]) });

// Paystack events are a few KiB; a body far larger is not from Paystack.
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** SPEC 4.4 POST /v1/admin/billing/subscribe: starts a Paystack checkout for a plan. */
export const billingAdminRoutes = (deps: Pick<AppDeps, "db" | "config" | "adminTokenHash" | "log">) => {
  const plans = plansFromConfig(deps.config);
  return new Elysia({ name: "billing-admin", detail: { tags: ["Admin billing"], security: [{ adminToken: [] }] } })
    .use(adminAuth(deps))
    .post(
      "/v1/admin/billing/subscribe",
      async ({ body }) => {
        const secretKey = deps.config.PAYSTACK_SECRET_KEY;
        if (!secretKey) throw billingNotConfigured("no Paystack secret key");
        const plan = plans[body.tier];
        if (!plan.paystackPlanCode) throw billingNotConfigured(`no Paystack plan code for the ${plan.tier} tier`);
        // Paystack references allow letters, digits, '-', '.' and '='.
        const reference = `sub-${randomBase62(24)}`;
        // Recorded before Paystack is called, so the webhook finds the owner even if our answer is lost.
        await insertCheckout(deps.db, {
          reference,
          owner: body.owner,
          tier: plan.tier,
          email: body.email,
          planCode: plan.paystackPlanCode,
          amountKobo: BigInt(plan.priceKobo),
          currency: PLAN_CURRENCY,
        });
        const client = paystackClient({ baseUrl: deps.config.PAYSTACK_BASE_URL, secretKey, timeoutMs: deps.config.PAYSTACK_TIMEOUT_MS });
        try {
          return await client.initializeTransaction({
            email: body.email,
            amountKobo: plan.priceKobo,
            planCode: plan.paystackPlanCode,
            reference,
            metadata: { owner: body.owner, tier: plan.tier },
            callbackUrl: deps.config.PAYSTACK_CALLBACK_URL,
          });
        } catch (e) {
          deps.log.warn("paystack initialize failed", { owner: body.owner, tier: plan.tier, reference, error: e instanceof Error ? e.message : String(e) });
          throw e;
        }
      },
      {
        ...jsonBody(),
        body: SubscribeBody,
        response: { 200: CheckoutBody, 413: ErrorEnvelope, 502: ErrorEnvelope, 503: ErrorEnvelope, ...adminErrors },
        detail: {
          summary: "Start a subscription checkout",
          description:
            "Calls Paystack's transaction/initialize with the tier's plan code and returns inline-checkout parameters. " +
            "Unknown tier or bad email: 422; billing not configured: 503 billing_not_configured; Paystack error or timeout: 502 payment_provider_error.",
        },
      },
    );
};

/** POST /v1/billing/paystack/webhook (no key; Paystack's signature is the credential). */
export const paystackWebhookRoutes = (deps: Pick<AppDeps, "db" | "config" | "log">) => {
  const plans = plansFromConfig(deps.config);
  return new Elysia({ name: "paystack-webhook", detail: { tags: ["Billing"] } }).post(
    "/v1/billing/paystack/webhook",
    async ({ request }) => {
      const secretKey = deps.config.PAYSTACK_SECRET_KEY;
      if (!secretKey) throw billingNotConfigured("no Paystack secret key");
      const raw = await readRaw(request);
      if (!verifySignature(raw, request.headers.get("x-paystack-signature"), secretKey)) {
        deps.log.warn("paystack webhook with a bad signature");
        throw authError("Missing or invalid x-paystack-signature");
      }
      const outcome = await processWebhook({ db: deps.db, plans, mode: secretKeyMode(secretKey) }, raw);
      // A rejected event is acknowledged all the same (Paystack would retry it for days) but logged as a warning.
      if (outcome.status === "ignored" && outcome.rejected) deps.log.warn("paystack webhook rejected", { ...outcome });
      else deps.log.info("paystack webhook", { ...outcome });
      return { status: outcome.status };
    },
    {
      // The signature covers the exact bytes, so the body is read raw, never re-serialized.
      parse: "none",
      response: { 200: WebhookAnswer, 401: ErrorEnvelope, 413: ErrorEnvelope, 503: ErrorEnvelope },
      detail: {
        summary: "Paystack webhook",
        description:
          "Verifies x-paystack-signature (HMAC-SHA512 of the raw body with the secret key) and applies charge.success, invoice.update (paid), subscription.create, " +
          "subscription.not_renew, subscription.disable and invoice.payment_failed idempotently. Bad or missing signature: 401 and nothing changes.",
      },
    },
  );
};

/** The exact bytes Paystack signed, refused past the limit from Content-Length or while streaming. */
async function readRaw(request: Request): Promise<Uint8Array> {
  const tooLarge = () => payloadTooLarge(`Webhook bodies are at most ${WEBHOOK_BODY_LIMIT} bytes`);
  if (Number(request.headers.get("content-length") ?? 0) > WEBHOOK_BODY_LIMIT) throw tooLarge();
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    size += r.value.byteLength;
    if (size > WEBHOOK_BODY_LIMIT) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(r.value);
  }
  return Buffer.concat(chunks);
}
