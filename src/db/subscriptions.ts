import type { PlanTier } from "../billing/plans.ts";
import type { Queryable } from "./client.ts";

export type SubscriptionStatus = "active" | "non_renewing" | "past_due" | "ended";

export interface Subscription {
  owner: string;
  tier: PlanTier;
  status: SubscriptionStatus;
  /** When access ends: the end of the period paid for (plus grace); null once ended or past due. */
  activeUntil: Date | null;
  email: string | null;
  customerCode: string | null;
  subscriptionCode: string | null;
  /** When the latest successful charge was paid (null before the first one this server saw). */
  lastPaidAt: Date | null;
}

interface Row {
  owner: string;
  tier: PlanTier;
  status: SubscriptionStatus;
  active_until: string | null;
  email: string | null;
  customer_code: string | null;
  subscription_code: string | null;
  last_paid_at: string | null;
}

// Timestamps leave the database as ISO text so both drivers hand back the same thing.
const isoText = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`;
const COLUMNS = `owner, tier, status, ${isoText("active_until")}, email, customer_code, subscription_code, ${isoText("last_paid_at")}`;

const fromRow = (r: Row): Subscription => ({
  owner: r.owner,
  tier: r.tier,
  status: r.status,
  activeUntil: r.active_until ? new Date(r.active_until) : null,
  email: r.email,
  customerCode: r.customer_code,
  subscriptionCode: r.subscription_code,
  lastPaidAt: r.last_paid_at ? new Date(r.last_paid_at) : null,
});

/**
 * Whether the subscription lets the owner's live keys parse at `at`: active or non-renewing, and
 * inside the period paid for. A subscription without an end date is not active (every activation
 * sets one; a row without one was never paid for through a checked webhook).
 */
export function isActive(sub: Subscription | undefined, at: Date): sub is Subscription {
  if (!sub || (sub.status !== "active" && sub.status !== "non_renewing")) return false;
  return sub.activeUntil !== null && sub.activeUntil.getTime() > at.getTime();
}

export async function getSubscription(db: Queryable, owner: string): Promise<Subscription | undefined> {
  const rows = await db.query<Row>(`select ${COLUMNS} from subscriptions where owner = $1`, [owner]);
  return rows[0] && fromRow(rows[0]);
}

/**
 * The owner a provider subscription or customer code belongs to, if we have seen it. A
 * subscription code names one owner (a unique column). A customer code does only when one owner
 * holds it: Paystack makes one customer per e-mail, so two owners paying with the same address
 * share it, and then it names neither (undefined) rather than whichever row comes first.
 */
export async function findOwnerByProviderCodes(
  db: Queryable,
  codes: { subscriptionCode?: string; customerCode?: string },
): Promise<string | undefined> {
  if (codes.subscriptionCode) {
    const rows = await db.query<{ owner: string }>(`select owner from subscriptions where subscription_code = $1`, [codes.subscriptionCode]);
    if (rows[0]) return rows[0].owner;
  }
  if (codes.customerCode) {
    const owners = await ownersOfCustomer(db, codes.customerCode);
    if (owners.length === 1) return owners[0];
  }
  return undefined;
}

/** Every owner whose subscription was paid by this provider customer. */
export async function ownersOfCustomer(db: Queryable, customerCode: string): Promise<string[]> {
  const rows = await db.query<{ owner: string }>(`select owner from subscriptions where customer_code = $1 order by owner`, [customerCode]);
  return rows.map((r) => r.owner);
}

/**
 * Owners who started a checkout for this payer e-mail and plan and hold no subscription code
 * yet: those a new `subscription.create` (which names no checkout) may belong to.
 */
export async function ownersAwaitingSubscription(db: Queryable, email: string, planCode: string): Promise<Array<{ owner: string; tier: PlanTier }>> {
  return db.query<{ owner: string; tier: PlanTier }>(
    `select distinct on (c.owner) c.owner, c.tier from billing_checkouts c
       left join subscriptions s on s.owner = c.owner
      where c.email = $1 and c.plan_code = $2 and s.subscription_code is null
      order by c.owner, c.created_at desc`,
    [email.toLowerCase(), planCode],
  );
}

/**
 * Starts or renews the owner's subscription: active until `activeUntil`. A renewal of a running
 * subscription never shortens it (subscription.create after the first charge names an earlier
 * date). Provider codes are kept when not given.
 */
export async function activateSubscription(
  db: Queryable,
  s: { owner: string; tier: PlanTier; activeUntil: Date; email?: string; customerCode?: string; subscriptionCode?: string; paidAt?: Date },
): Promise<void> {
  await db.query(
    `insert into subscriptions (owner, tier, status, active_until, email, customer_code, subscription_code, last_paid_at, updated_at)
     values ($1, $2, 'active', $6, $3, $4, $5, $7, now())
     on conflict (owner) do update set
       tier = excluded.tier, status = 'active',
       active_until = case
         when subscriptions.status in ('active', 'non_renewing') and subscriptions.active_until > excluded.active_until
         then subscriptions.active_until else excluded.active_until end,
       email = coalesce(excluded.email, subscriptions.email),
       customer_code = coalesce(excluded.customer_code, subscriptions.customer_code),
       subscription_code = coalesce(excluded.subscription_code, subscriptions.subscription_code),
       last_paid_at = greatest(excluded.last_paid_at, subscriptions.last_paid_at),
       updated_at = now()`,
    [s.owner, s.tier, s.email ?? null, s.customerCode ?? null, s.subscriptionCode ?? null, s.activeUntil.toISOString(), s.paidAt?.toISOString() ?? null],
  );
}

/** Cancelled at period end: stays usable until `until`. Only an active subscription changes. */
export async function markNonRenewing(db: Queryable, owner: string, until: Date): Promise<boolean> {
  const rows = await db.query<{ owner: string }>(
    `update subscriptions set status = 'non_renewing', active_until = $2, updated_at = now()
      where owner = $1 and status in ('active', 'non_renewing') returning owner`,
    [owner, until.toISOString()],
  );
  return rows.length === 1;
}

/** Ends access now: `ended` (disabled) or `past_due` (a renewal payment failed). */
export async function endSubscription(db: Queryable, owner: string, status: "ended" | "past_due"): Promise<boolean> {
  const rows = await db.query<{ owner: string }>(
    `update subscriptions set status = $2, active_until = null, updated_at = now() where owner = $1 returning owner`,
    [owner, status],
  );
  return rows.length === 1;
}

/** A checkout this server started: the reference it sent to Paystack and what it asked for. */
export interface Checkout {
  reference: string;
  owner: string;
  tier: PlanTier;
  email: string;
  planCode: string;
  /** The amount asked for, integer kobo; null on checkouts recorded before amounts were kept. */
  amountKobo: bigint | null;
  currency: string;
}

interface CheckoutRow {
  reference: string;
  owner: string;
  tier: PlanTier;
  email: string;
  plan_code: string;
  amount_kobo: string | null;
  currency: string;
}

// bigint leaves the database as text: the two drivers hand back different types for it.
const CHECKOUT_COLUMNS = `reference, owner, tier, email, plan_code, amount_kobo::text as amount_kobo, currency`;

const checkoutFromRow = (r: CheckoutRow): Checkout => ({
  reference: r.reference,
  owner: r.owner,
  tier: r.tier,
  email: r.email,
  planCode: r.plan_code,
  amountKobo: r.amount_kobo === null ? null : BigInt(r.amount_kobo),
  currency: r.currency,
});

export async function insertCheckout(db: Queryable, c: Omit<Checkout, "amountKobo"> & { amountKobo: bigint }): Promise<void> {
  await db.query(
    `insert into billing_checkouts (reference, owner, tier, email, plan_code, amount_kobo, currency) values ($1, $2, $3, $4, $5, $6, $7)`,
    [c.reference, c.owner, c.tier, c.email.toLowerCase(), c.planCode, c.amountKobo.toString(), c.currency],
  );
}

export async function findCheckout(db: Queryable, reference: string): Promise<Checkout | undefined> {
  const rows = await db.query<CheckoutRow>(`select ${CHECKOUT_COLUMNS} from billing_checkouts where reference = $1`, [reference]);
  return rows[0] && checkoutFromRow(rows[0]);
}

/**
 * Claims a webhook event for processing. Returns false when it was processed before, so the same
 * event twice changes nothing. Run it in the transaction that applies the event.
 */
export async function claimEvent(db: Queryable, e: { key: string; event: string; owner: string | null; outcome: string }): Promise<boolean> {
  const rows = await db.query<{ event_key: string }>(
    `insert into paystack_events (event_key, event, owner, outcome) values ($1, $2, $3, $4)
     on conflict (event_key) do nothing returning event_key`,
    [e.key, e.event, e.owner, e.outcome],
  );
  return rows.length === 1;
}
