-- Issue 30: a job created with ?include=insights answers its result endpoint with insights
-- (made at read time from the kept ParseResponse, docs/insights.md), whichever instance serves it.
alter table parse_jobs add column include_insights boolean not null default false;
