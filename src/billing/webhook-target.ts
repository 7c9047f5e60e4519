import type { Queryable } from "../db/client.ts";
import { findCheckout, findOwnerByProviderCodes, getSubscription, ownersAwaitingSubscription, ownersOfCustomer } from "../db/subscriptions.ts";
import { dueWithGrace, paidThrough } from "./periods.ts";
import { planByCode, type PlanTable, type PlanTier } from "./plans.ts";
import type { EventData } from "./webhook-event.ts";

/**
 * Which owner an event is about and, for an activation, which plan and until when. Nothing in a
 * webhook that this server did not create is trusted: a charge activates a plan only for a
 * reference this server initialised (its owner and tier come from our database), or as the
 * renewal of a subscription we already hold, named by a Paystack code we stored, for a plan code
 * we configured. Either way the amount and currency paid must be the plan's. `metadata` is
 * never read: any payer can set it.
 *
 * Paystack makes one customer per e-mail address, so owners who pay with the same address share
 * a customer code: a customer code names an owner only when one owner holds it. A subscription
 * code names exactly one (a unique column); a checkout reference names its owner.
 */

/** The currency plan prices are configured in. */
export const PLAN_CURRENCY = "NGN";

export interface Target {
  owner: string;
  /** Set for activating events; `paidAt` for a charge (when it was paid). */
  activation?: { tier: PlanTier; activeUntil: Date; paidAt?: Date };
}

/** A matched event, or why it changes nothing; `rejected` marks a failed check (worth a warning) rather than an event that is simply not ours. */
export type Resolution = { ok: true; target: Target } | { ok: false; reason: string; rejected: boolean };

const found = (target: Target): Resolution => ({ ok: true, target });
const notOurs = (reason: string): Resolution => ({ ok: false, reason, rejected: false });
const rejected = (reason: string): Resolution => ({ ok: false, reason, rejected: true });

/** Integer kobo from Paystack's `amount` (a JSON number, sometimes a digit string); undefined for anything else. */
function koboOf(v: unknown): bigint | undefined {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === "string" && /^\d{1,15}$/.test(v)) return BigInt(v);
  return undefined;
}

/** Why the amount and currency paid are not `expected` in the plan currency, or undefined when they are. */
function paymentMismatch(amount: unknown, currency: string | undefined, expected: bigint, expectedCurrency = PLAN_CURRENCY): string | undefined {
  const paid = koboOf(amount);
  if (paid === undefined) return "the event carries no amount";
  if ((currency ?? "").toUpperCase() !== expectedCurrency) return `paid in ${currency || "an unnamed currency"}, the plan is priced in ${expectedCurrency}`;
  if (paid !== expected) return `paid ${paid} kobo, the plan costs ${expected} kobo`;
  return undefined;
}

/** A valid date from Paystack's ISO text, or undefined. */
function dateOf(v: unknown): Date | undefined {
  if (typeof v !== "string" || v === "") return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

async function chargeTarget(db: Queryable, plans: PlanTable, data: EventData, known: string | undefined, now: Date): Promise<Resolution> {
  if (data.status !== undefined && data.status !== "success") return rejected(`charge status is ${data.status}`);
  const planCode = data.plan?.plan_code;
  // The month a charge pays for starts when it was paid (a late delivery does not shorten it).
  const paidAt = dateOf(data.paid_at) ?? now;
  const checkout = data.reference ? await findCheckout(db, data.reference) : undefined;
  if (checkout) {
    const plan = plans[checkout.tier];
    if (planCode && planCode !== checkout.planCode) return rejected(`charge for plan ${planCode} on a checkout started for ${checkout.planCode}`);
    const mismatch = paymentMismatch(data.amount, data.currency, checkout.amountKobo ?? BigInt(plan.priceKobo), checkout.currency);
    if (mismatch) return rejected(`checkout ${checkout.reference}: ${mismatch}`);
    return found({ owner: checkout.owner, activation: { tier: checkout.tier, activeUntil: paidThrough(paidAt), paidAt } });
  }
  // Not a checkout of ours: only a renewal of a subscription we hold, for a plan we configured.
  const plan = planByCode(plans, planCode);
  if (!plan) {
    return planCode || data.metadata ? rejected("charge names no checkout of this server and no configured plan") : notOurs("a charge unrelated to a plan");
  }
  const owner = known ?? (await renewingOwner(db, data.customer?.customer_code, plan.tier));
  if (typeof owner !== "string") return rejected(owner?.reason ?? `charge for plan ${plan.tier} from a customer with no subscription here`);
  const mismatch = paymentMismatch(data.amount, data.currency, BigInt(plan.priceKobo));
  if (mismatch) return rejected(`renewal for ${owner}: ${mismatch}`);
  return found({ owner, activation: { tier: plan.tier, activeUntil: paidThrough(paidAt), paidAt } });
}

/**
 * The owner a renewal charge (no reference of ours, no subscription code) is for, when its
 * customer is shared: the one owner of that customer on the charged plan. Several: nobody can
 * tell whose card paid, so nobody is credited (a reason instead).
 */
async function renewingOwner(db: Queryable, customerCode: string | undefined, tier: PlanTier): Promise<string | { reason: string } | undefined> {
  if (!customerCode) return undefined;
  const owners = await ownersOfCustomer(db, customerCode);
  const onPlan: string[] = [];
  for (const owner of owners) if ((await getSubscription(db, owner))?.tier === tier) onPlan.push(owner);
  if (onPlan.length === 1) return onPlan[0];
  return onPlan.length > 1 ? { reason: `renewal charge of a customer shared by ${onPlan.length} owners on plan ${tier}; it names no subscription` } : undefined;
}

async function subscriptionCreateTarget(db: Queryable, plans: PlanTable, data: EventData, now: Date): Promise<Resolution> {
  const plan = planByCode(plans, data.plan?.plan_code);
  if (!plan) return rejected("subscription for a plan code that is not configured");
  // The subscription's own amount and the plan's currency, as Paystack sends them.
  const mismatch = paymentMismatch(data.amount ?? data.plan?.amount, data.plan?.currency ?? PLAN_CURRENCY, BigInt(plan.priceKobo));
  if (mismatch) return rejected(`subscription for ${plan.tier}: ${mismatch}`);
  const next = dateOf(data.next_payment_date);
  const until = next && next > now ? dueWithGrace(next) : paidThrough(now);
  const subscriptionOwner = data.subscription_code ? await findOwnerByProviderCodes(db, { subscriptionCode: data.subscription_code }) : undefined;
  // Its own code, when we hold it already (a redelivery, or a charge that came first).
  if (subscriptionOwner) return found({ owner: subscriptionOwner, activation: { tier: plan.tier, activeUntil: until } });
  // A new subscription names no checkout: it is the subscription of the one owner who checked out
  // for this e-mail and plan and has none yet. Two such owners cannot be told apart: neither is chosen.
  const email = data.customer?.email;
  const awaiting = email && plan.paystackPlanCode ? await ownersAwaitingSubscription(db, email, plan.paystackPlanCode) : [];
  if (awaiting.length > 1) return rejected(`subscription for ${awaiting.length} owners who checked out with the same e-mail and plan; it names no checkout`);
  if (awaiting.length === 1) return found({ owner: awaiting[0]!.owner, activation: { tier: awaiting[0]!.tier, activeUntil: until } });
  // A new subscription of an owner who had one (a plan change): only when the customer is theirs alone.
  const customerCode = data.customer?.customer_code;
  const customerOwner = customerCode ? await findOwnerByProviderCodes(db, { customerCode }) : undefined;
  if (customerOwner) return found({ owner: customerOwner, activation: { tier: plan.tier, activeUntil: until } });
  return notOurs("no checkout of this server for this customer and plan");
}

/**
 * A renewal paid (`invoice.update` with `paid: true`): Paystack names the subscription, so the
 * owner is that subscription's, even when its customer is shared (a renewal charge.success names
 * only the customer). The amount must be the owner's plan price.
 */
async function invoicePaidTarget(db: Queryable, plans: PlanTable, data: EventData, now: Date): Promise<Resolution> {
  if (data.paid !== true) return notOurs("the invoice is not paid");
  const subscriptionCode = data.subscription?.subscription_code ?? data.subscription_code;
  const owner = subscriptionCode ? await findOwnerByProviderCodes(db, { subscriptionCode }) : undefined;
  const sub = owner ? await getSubscription(db, owner) : undefined;
  if (!owner || !sub) return notOurs("no owner holds this invoice's subscription");
  const mismatch = paymentMismatch(data.amount, data.transaction?.currency ?? data.currency ?? PLAN_CURRENCY, BigInt(plans[sub.tier].priceKobo));
  if (mismatch) return rejected(`renewal invoice for ${owner}: ${mismatch}`);
  const paidAt = dateOf(data.paid_at) ?? now;
  return found({ owner, activation: { tier: sub.tier, activeUntil: paidThrough(paidAt), paidAt } });
}

/** Which owner (and for activations, which plan and until when) an event is about. */
export async function resolveTarget(db: Queryable, plans: PlanTable, event: string, data: EventData, now: Date): Promise<Resolution> {
  if (event === "subscription.create") return subscriptionCreateTarget(db, plans, data, now);
  if (event === "invoice.update") return invoicePaidTarget(db, plans, data, now);
  const customerCode = data.customer?.customer_code;
  const subscriptionCode = data.subscription_code ?? data.subscription?.subscription_code;
  // An event about one subscription must not end another (an owner who changed plans): when it
  // names a subscription, only that subscription's owner matches.
  const ending = event !== "charge.success";
  const known = await findOwnerByProviderCodes(db, ending && subscriptionCode ? { subscriptionCode } : { subscriptionCode, customerCode });
  if (event === "charge.success") return chargeTarget(db, plans, data, known, now);
  return known ? found({ owner: known }) : notOurs("no owner matches this event");
}
