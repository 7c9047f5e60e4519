-- Issue 27: the jobs an owner can list, and Idempotency-Key records. Neither holds any document
-- content (no upload, no result): a job's result stays where its backend keeps it (memory or Redis,
-- JOB_RESULT_TTL_S). A row goes once expires_at has passed (24 h, or the result's retention if longer).
create table parse_jobs (
  id text primary key,
  owner text not null,
  key_id text not null,
  result_kind text not null check (result_kind in ('json', 'csv', 'xlsx', 'redact')),
  state text not null check (state in ('queued', 'running', 'done', 'failed')),
  client_reference text,
  callback_url text,
  error_class text,
  sample boolean not null default false,
  -- Delivery of the completion callback: pending, delivered or failed (null without callback_url).
  callback_state text check (callback_state in ('pending', 'delivered', 'failed')),
  callback_attempts integer not null default 0,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  expires_at timestamptz not null
);
-- Listing: an owner's jobs newest first, paged by (created_at, id).
create index parse_jobs_owner_created_idx on parse_jobs (owner, created_at desc, id desc);
create index parse_jobs_expires_idx on parse_jobs (expires_at);

-- Idempotency-Key: one row per owner, endpoint and key, for 24 h. `fingerprint` is the SHA-256 of
-- what the request asked for (the file's bytes and every option); `job_id` the job that answers it.
create table idempotency_keys (
  owner text not null,
  endpoint text not null,
  idem_key text not null,
  fingerprint text not null,
  job_id text not null,
  state text not null check (state in ('pending', 'ready')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (owner, endpoint, idem_key)
);
create index idempotency_keys_expires_idx on idempotency_keys (expires_at);

-- Per-owner signing secret of completion callbacks. Stored as issued (not hashed): the server
-- signs with it, so it must be able to read it back; it is shown to the admin once, at issue.
-- After a rotation the previous secret also signs (a second v1= signature) until previous_until,
-- so a receiver can switch without dropping callbacks.
create table callback_secrets (
  owner text primary key,
  secret text not null,
  previous_secret text,
  previous_until timestamptz,
  created_at timestamptz not null default now()
);
