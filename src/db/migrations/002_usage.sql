-- Usage metering and billing. PostgreSQL (or PGlite) is the record of truth for both.

-- One row per admitted parse that runs the engine (samples are never recorded). The row is written
-- as 'reserved' when the parse is admitted, so concurrent requests see each other under a cap, and
-- finalized once to 'succeeded' or 'failed'. A reservation never finalized (its server died) stops
-- holding a place after METERING_RESERVATION_TTL_S and never counts as a success.
-- period is the Lagos month (YYYY-MM) and day the Lagos date (YYYY-MM-DD) at admission.
create table parse_usage (
  id text primary key,
  owner text not null,
  key_id text not null,
  key_tier text not null check (key_tier in ('live', 'first_party', 'test')),
  client_ip text,
  period text not null,
  day text not null,
  state text not null default 'reserved' check (state in ('reserved', 'succeeded', 'failed')),
  error_class text,
  reserved_at timestamptz not null,
  finished_at timestamptz
);
create index parse_usage_owner_period_idx on parse_usage (owner, period, key_tier, state);
create index parse_usage_client_ip_idx on parse_usage (owner, client_ip, period) where client_ip is not null;

-- The subscription of an owner's live keys, driven by Paystack webhooks. Active when status is
-- 'active', or 'non_renewing' until active_until (the end of the period already paid for).
create table subscriptions (
  owner text primary key,
  tier text not null check (tier in ('starter', 'growth', 'scale')),
  status text not null check (status in ('active', 'non_renewing', 'past_due', 'ended')),
  active_until timestamptz,
  email text,
  customer_code text,
  subscription_code text,
  updated_at timestamptz not null default now()
);
create index subscriptions_customer_code_idx on subscriptions (customer_code);
create index subscriptions_subscription_code_idx on subscriptions (subscription_code);

-- Every checkout started by POST /v1/admin/billing/subscribe: ties Paystack's reference (and the
-- payer's email) back to the owner and tier when the webhook arrives.
create table billing_checkouts (
  reference text primary key,
  owner text not null,
  tier text not null,
  email text not null,
  plan_code text not null,
  created_at timestamptz not null default now()
);
create index billing_checkouts_email_idx on billing_checkouts (email, created_at);

-- Webhook events already processed, keyed by event name and the provider's id of its object, so a
-- redelivered event changes nothing.
create table paystack_events (
  event_key text primary key,
  event text not null,
  owner text,
  outcome text not null,
  received_at timestamptz not null default now()
);
