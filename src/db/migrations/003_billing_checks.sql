-- Webhook checks (issue 15). A checkout records what the payer was asked to pay, so a charge is
-- accepted for it only when Paystack reports that amount in that currency. Rows from before this
-- migration have no amount; the plan's configured price stands in for it.
alter table billing_checkouts add column amount_kobo bigint;
alter table billing_checkouts add column currency text not null default 'NGN';

-- Every activation now carries an end (active_until): a renewal charge pushes it on, and without
-- one access stops. Active rows from before this migration get 35 days, which spans the next
-- monthly renewal of a real subscription; one activated without a payment simply runs out.
update subscriptions set active_until = now() + interval '35 days' where status = 'active' and active_until is null;
