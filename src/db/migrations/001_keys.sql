-- API keys: only the SHA-256 of the raw key is stored; lookups go through the unique index on it.
create table api_keys (
  id text primary key,
  key_hash text not null unique,
  prefix text not null,
  name text not null,
  owner text not null,
  tier text not null check (tier in ('live', 'first_party', 'test')),
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index api_keys_owner_idx on api_keys (owner);
-- Exactly one active test key per owner, enforced by the database whatever the callers race.
create unique index api_keys_one_active_test on api_keys (owner) where tier = 'test' and revoked_at is null;

-- Service settings such as the generated admin token's hash.
create table settings (
  name text primary key,
  value text not null,
  updated_at timestamptz not null default now()
);
