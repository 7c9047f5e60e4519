import type { ErrorClass } from "../errors.ts";
import type { Queryable } from "./client.ts";

/**
 * The jobs an owner can list (GET /v1/parse/jobs): one row per job, written when it is created,
 * started and ended, whichever instance does it. No document content: the result stays with the
 * job backend (memory or Redis) for JOB_RESULT_TTL_S.
 */

export type JobRowState = "queued" | "running" | "done" | "failed";
export type CallbackState = "pending" | "delivered" | "failed";

/** A job as listed. Timestamps are ISO 8601 (UTC). */
export interface JobListing {
  job_id: string;
  state: JobRowState;
  result_kind: "json" | "csv" | "xlsx" | "redact";
  client_reference: string | null;
  error_class: ErrorClass | null;
  sample: boolean;
  callback_state: CallbackState | null;
  created_at: string;
  finished_at: string | null;
}

const ISO = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const LISTED = `id as job_id, state, result_kind, client_reference, error_class, sample, callback_state,
  ${ISO("created_at")} as created_at, ${ISO("finished_at")} as finished_at`;

export interface NewJobRow {
  id: string;
  owner: string;
  keyId: string;
  kind: string;
  clientReference?: string;
  callbackUrl?: string;
  /** Created with ?include=insights: its result is answered with insights (docs/insights.md). */
  includeInsights?: boolean;
  /** How long the row is kept from now, ms (at least the result's retention). */
  keepMs: number;
}

export async function insertJobRow(db: Queryable, j: NewJobRow): Promise<void> {
  await db.query(
    `insert into parse_jobs (id, owner, key_id, result_kind, state, client_reference, callback_url, callback_state, expires_at, include_insights)
     values ($1, $2, $3, $4, 'queued', $5, $6, $7, now() + ($8::bigint * interval '1 millisecond'), $9)`,
    [j.id, j.owner, j.keyId, j.kind, j.clientReference ?? null, j.callbackUrl ?? null, j.callbackUrl ? "pending" : null, j.keepMs, j.includeInsights === true],
  );
}

/** The job was created with ?include=insights (false for a job without a row, such as a kept sync parse). */
export async function jobIncludesInsights(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query<{ include_insights: boolean }>(`select include_insights from parse_jobs where id = $1`, [id]);
  return rows[0]?.include_insights === true;
}

/** A job its backend refused after the row was written (queue full, payment required): it never existed. */
export async function deleteJobRow(db: Queryable, id: string): Promise<void> {
  await db.query(`delete from parse_jobs where id = $1`, [id]);
}

export async function markJobStarted(db: Queryable, id: string): Promise<void> {
  await db.query(`update parse_jobs set state = 'running' where id = $1 and state = 'queued'`, [id]);
}

/**
 * The job's end; the row is kept `keepMs` from now (the result's retention, at least 24 h).
 * Returns the job's callback_url, if it has one (undefined also when the end was already recorded).
 */
export async function markJobEnded(db: Queryable, id: string, end: { state: "done" | "failed"; errorClass?: string; sample: boolean; keepMs: number }): Promise<string | undefined> {
  const rows = await db.query<{ callback_url: string | null }>(
    `update parse_jobs set state = $2, error_class = $3, sample = $4, finished_at = now(),
       expires_at = greatest(expires_at, now() + ($5::bigint * interval '1 millisecond'))
     where id = $1 and state in ('queued', 'running')
     returning callback_url`,
    [id, end.state, end.errorClass ?? null, end.sample, end.keepMs],
  );
  return rows[0]?.callback_url ?? undefined;
}

export async function markCallback(db: Queryable, id: string, state: CallbackState, attempts: number): Promise<void> {
  await db.query(`update parse_jobs set callback_state = $2, callback_attempts = $3 where id = $1`, [id, state, attempts]);
}

export interface ListQuery {
  limit: number;
  /** A job id of this owner: the page starts after it (older jobs). */
  startingAfter?: string;
  state?: JobRowState;
}

/** The owner's jobs, newest first; undefined when `startingAfter` is not one of its listed jobs. */
export async function listJobRows(db: Queryable, owner: string, q: ListQuery): Promise<{ jobs: JobListing[]; hasMore: boolean } | undefined> {
  const params: unknown[] = [owner, q.limit + 1];
  const where = [`owner = $1`, `expires_at > now()`];
  if (q.state) {
    params.push(q.state);
    where.push(`state = $${params.length}`);
  }
  if (q.startingAfter) {
    const cursor = await db.query<{ id: string }>(`select id from parse_jobs where id = $1 and owner = $2 and expires_at > now()`, [q.startingAfter, owner]);
    if (cursor.length === 0) return undefined;
    params.push(q.startingAfter);
    const c = `$${params.length}`;
    // Row comparison: strictly older than the cursor, ties on created_at broken by id as in the order.
    where.push(`(created_at, id) < ((select created_at from parse_jobs where id = ${c}), ${c})`);
  }
  const rows = await db.query<JobListing>(`select ${LISTED} from parse_jobs where ${where.join(" and ")} order by created_at desc, id desc limit $2`, params);
  return { jobs: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
}

/** Drops rows past their time. */
export async function sweepJobRows(db: Queryable): Promise<void> {
  await db.query(`delete from parse_jobs where expires_at <= now()`);
}
