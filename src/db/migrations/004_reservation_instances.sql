-- Issue 15: every reservation names the server instance that admitted it, so a starting server can
-- release the reservations of instances that no longer run (a kill -9 used to leave them holding
-- cap places for METERING_RESERVATION_TTL_S). A released reservation is 'abandoned': it never
-- counts as a success, never holds a place and is left out of the success rate. A late outcome
-- from an instance thought dead still lands (finishReservation accepts 'abandoned' rows).
alter table parse_usage add column instance_id text;
alter table parse_usage drop constraint parse_usage_state_check;
alter table parse_usage add constraint parse_usage_state_check check (state in ('reserved', 'succeeded', 'failed', 'abandoned'));
create index parse_usage_reserved_idx on parse_usage (instance_id) where state = 'reserved';
