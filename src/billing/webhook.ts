import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db, Queryable } from "../db/client.ts";
import { activateSubscription, claimEvent, endSubscription, getSubscription, markNonRenewing } from "../db/subscriptions.ts";
import { periodOf } from "./periods.ts";
import type { PlanTable } from "./plans.ts";
import { Event, type EventData } from "./webhook-event.ts";
import { resolveTarget, type Target } from "./webhook-target.ts";

/**
 * Paystack signs each delivery with HMAC-SHA512 of the raw body keyed by the secret key, hex in
 * `x-paystack-signature`. The raw bytes are checked before any parsing; the comparison is
 * constant-time over equal-length digests.
 */
export function verifySignature(rawBody: Uint8Array, signature: string | null, secretKey: string): boolean {
  if (!signature || !/^[0-9a-f]{128}$/i.test(signature.trim())) return false;
  const expected = createHmac("sha512", secretKey).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature.trim(), "hex"));
}

export const signBody = (rawBody: string | Uint8Array, secretKey: string): string =>
  createHmac("sha512", secretKey).update(rawBody).digest("hex");

export const HANDLED_EVENTS = ["charge.success", "invoice.update", "subscription.create", "subscription.not_renew", "subscription.disable", "invoice.payment_failed"] as const;

export type WebhookOutcome =
  | { status: "processed"; event: string; owner: string; change: string }
  | { status: "duplicate"; event: string }
  /** `rejected`: the event failed a check (a charge we did not start, a wrong amount) rather than simply not concerning us. */
  | { status: "ignored"; event: string; reason: string; rejected?: boolean; object_id?: string };

export interface WebhookContext {
  db: Db;
  plans: PlanTable;
  /** Mode of the configured secret; events of the other mode are ignored. Undefined accepts both. */
  mode?: "test" | "live";
  now?: () => Date;
}

/**
 * Applies one verified webhook body. Each event is claimed under a key made of its name and the
 * provider's id of its object, in the same transaction as its effect, so a redelivery (or two
 * deliveries racing) changes nothing the second time. Unmatched events are not claimed: they
 * change nothing and may match once an earlier event has arrived. Every outcome is acknowledged
 * (HTTP 200), so Paystack stops retrying an event that failed the checks.
 */
export async function processWebhook(ctx: WebhookContext, rawBody: Uint8Array): Promise<WebhookOutcome> {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(rawBody));
  } catch {
    return { status: "ignored", event: "", reason: "body is not JSON" };
  }
  const parsed = Event.safeParse(json);
  if (!parsed.success) return { status: "ignored", event: "", reason: "not a Paystack event" };
  const { event, data } = parsed.data;
  if (!(HANDLED_EVENTS as readonly string[]).includes(event)) return { status: "ignored", event, reason: "event not handled" };
  if (ctx.mode && data.domain && data.domain !== ctx.mode) return { status: "ignored", event, reason: `a ${data.domain}-mode event on a ${ctx.mode}-mode server` };
  const objectId = eventObjectId(event, data);
  if (!objectId) return { status: "ignored", event, reason: "event carries no id" };
  const now = (ctx.now ?? (() => new Date()))();

  return ctx.db.transaction(async (tx) => {
    const resolved = await resolveTarget(tx, ctx.plans, event, data, now);
    if (!resolved.ok) return { status: "ignored", event, reason: resolved.reason, rejected: resolved.rejected, object_id: objectId } as const;
    const { target } = resolved;
    const stale = event === "invoice.payment_failed" ? await staleFailure(tx, target.owner, data) : undefined;
    if (stale) return { status: "ignored", event, reason: stale, object_id: objectId } as const;
    const change = changeFor(event);
    if (!(await claimEvent(tx, { key: `${event}:${objectId}`, event, owner: target.owner, outcome: change }))) return { status: "duplicate", event } as const;
    await apply(tx, event, data, target, now);
    return { status: "processed", event, owner: target.owner, change } as const;
  });
}

/**
 * Why a payment failure no longer applies: its invoice is older than the latest successful charge
 * of the owner's subscription (Paystack retried the card and it went through; the failure was
 * delivered late or again). A failure without a date is applied.
 */
async function staleFailure(db: Queryable, owner: string, data: EventData): Promise<string | undefined> {
  const failedAt = data.created_at ? new Date(data.created_at) : undefined;
  if (!failedAt || Number.isNaN(failedAt.getTime())) return undefined;
  const paidAt = (await getSubscription(db, owner))?.lastPaidAt;
  if (!paidAt || failedAt > paidAt) return undefined;
  return `the invoice failed at ${failedAt.toISOString()}, before the latest successful charge (${paidAt.toISOString()})`;
}

function eventObjectId(event: string, data: EventData): string | undefined {
  const str = (v: unknown) => (v === undefined || v === null || v === "" ? undefined : String(v));
  switch (event) {
    case "charge.success":
      return str(data.reference) ?? str(data.id);
    case "invoice.payment_failed":
    case "invoice.update":
      return str(data.invoice_code) ?? str(data.id);
    default:
      return str(data.subscription_code) ?? str(data.id);
  }
}

const changeFor = (event: string): string =>
  ({
    "charge.success": "activated",
    "invoice.update": "activated",
    "subscription.create": "activated",
    "subscription.not_renew": "non_renewing",
    "subscription.disable": "ended",
    "invoice.payment_failed": "past_due",
  })[event] ?? "none";

async function apply(db: Queryable, event: string, data: EventData, target: Target, now: Date): Promise<void> {
  const codes = {
    email: data.customer?.email?.toLowerCase(),
    customerCode: data.customer?.customer_code,
    subscriptionCode: data.subscription_code,
  };
  switch (event) {
    case "charge.success":
    case "invoice.update":
    case "subscription.create":
      if (target.activation) await activateSubscription(db, { owner: target.owner, ...target.activation, ...codes });
      return;
    case "subscription.not_renew": {
      // Cancelled at period end: usable until the date Paystack would have charged next, else to the end of our period.
      const next = data.next_payment_date ? new Date(data.next_payment_date) : undefined;
      const until = next && !Number.isNaN(next.getTime()) && next > now ? next : periodOf(now).end;
      await markNonRenewing(db, target.owner, until);
      return;
    }
    case "subscription.disable":
      await endSubscription(db, target.owner, "ended");
      return;
    case "invoice.payment_failed":
      // Only a subscription that is running is set back; an ended one stays ended.
      if ((await getSubscription(db, target.owner))?.status !== "ended") await endSubscription(db, target.owner, "past_due");
      return;
  }
}
