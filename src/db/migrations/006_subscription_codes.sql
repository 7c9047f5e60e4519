-- Issue 29 items 11 and 12.
-- One Paystack subscription belongs to one owner: two owners paying with the same e-mail share a
-- Paystack customer, so only the subscription code tells their subscriptions apart. A code that
-- two rows hold already (written by the customer-code mix-up) is dropped from both: neither owner
-- can be told from it, and the next event naming it is ignored rather than applied to the wrong one.
update subscriptions set subscription_code = null
 where subscription_code in (select subscription_code from subscriptions where subscription_code is not null group by subscription_code having count(*) > 1);
drop index subscriptions_subscription_code_idx;
create unique index subscriptions_subscription_code_key on subscriptions (subscription_code) where subscription_code is not null;

-- When the latest successful charge of the owner's subscription was paid: a payment failure of an
-- invoice older than that (a late or retried delivery) no longer sets the owner back.
alter table subscriptions add column last_paid_at timestamptz;
