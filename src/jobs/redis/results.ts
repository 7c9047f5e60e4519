import type { Redis } from "ioredis";
import type { Progress } from "../../engine/types.ts";
import type { AppError, ErrorClass } from "../../errors.ts";
import { envelope } from "../../http/errors.ts";
import { FORMAT_VERSION } from "../../version.ts";
import { jobPaths, type JobSnapshot, type JobState } from "../job.ts";
import type { DocumentResult } from "../runner.ts";
import type { ResultKind } from "../tasks.ts";
import type { RedisKeys } from "./connection.ts";

/**
 * Job records in Redis, read and written by every instance: the job's hash (state, progress,
 * error), its event stream and its result keys. Every change of state is one Lua script, so two
 * instances (say a cancel on one and the parse ending on another) cannot both end a job: the
 * first wins, the other is told it lost and does nothing more.
 */

/** Progress events kept per job stream (approximately: Redis trims whole nodes). */
export const EVENTS_MAXLEN = 1000;
/** How long a job id is remembered after its result is swept (404 job_expired instead of not_found), ms. */
export const REMEMBER_MS = 24 * 3600 * 1000;
/** Bound on a queued or running job's record, in case nothing ends it (every instance gone for a day), ms. */
export const UNFINISHED_TTL_MS = 24 * 3600 * 1000;

/** The job's hash, as stored (all strings). */
export interface JobMeta {
  owner: string;
  key_id: string;
  kind: ResultKind;
  state: JobState;
  progress: string;
  sample?: string;
  attempts?: string;
  token: string;
  error?: string;
  error_class?: string;
  redactions?: string;
  content_type?: string;
  final_id?: string;
  runner?: string;
  password?: string;
  bank?: string;
  client_reference?: string;
}

const PROGRESS = `
local st = redis.call('HGET', KEYS[1], 'state')
if (not st) or st == 'done' or st == 'failed' then return false end
redis.call('HSET', KEYS[1], 'progress', ARGV[1])
if ARGV[3] == '1' then redis.call('HSET', KEYS[1], 'state', 'running') end
return redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', 'd', ARGV[1])
`;

const START = `
local st = redis.call('HGET', KEYS[1], 'state')
if (not st) or st == 'done' or st == 'failed' then return -1 end
redis.call('HSET', KEYS[1], 'runner', ARGV[1])
return redis.call('HINCRBY', KEYS[1], 'attempts', 1)
`;

/** The bytes of a view as a Buffer for Redis, without copying them. */
const bufferOf = (v: Uint8Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** Ends an unfinished job: its result keys, final fields and `result` event at once; the upload goes. */
const FINISH = `
local st = redis.call('HGET', KEYS[1], 'state')
if (not st) or st == 'done' or st == 'failed' then return false end
local ttl = ARGV[1]
if ARGV[4] ~= '' then redis.call('SET', KEYS[3], ARGV[4], 'PX', ttl) end
if ARGV[5] ~= '' then redis.call('SET', KEYS[4], ARGV[5], 'PX', ttl) end
if ARGV[6] ~= '' then redis.call('SET', KEYS[5], ARGV[6], 'PX', ttl) end
for i = 7, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('HDEL', KEYS[1], 'password', 'bank')
local id
if ARGV[2] == '' then
  -- The ParseResponse is in the json key: the event points at it instead of holding a second copy.
  id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'e', 'result', 'r', 'json')
else
  id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'e', 'result', 'd', ARGV[2])
end
redis.call('HSET', KEYS[1], 'final_id', id)
redis.call('DEL', KEYS[6])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return id
`;

export interface NewJob {
  id: string;
  owner: string;
  keyId: string;
  kind: ResultKind;
  /** The cluster admission place it holds until it ends. */
  token: string;
  bytes: Uint8Array;
  bank?: string;
  password?: string;
  clientReference?: string;
}

export type Ending = { outcome: DocumentResult; sample?: boolean } | { error: AppError };

export class JobRecords {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    /** JOB_RESULT_TTL_S, ms. */
    private readonly resultTtlMs: number,
  ) {}

  /** Writes a queued job and its upload (the upload only for a parse that will run). */
  async create(job: NewJob, withUpload: boolean): Promise<void> {
    const k = this.keys;
    const meta: Record<string, string> = {
      owner: job.owner,
      key_id: job.keyId,
      kind: job.kind,
      state: "queued",
      progress: JSON.stringify({ stage: "queued", current: 0, total: 0 }),
      token: job.token,
      ...(job.bank === undefined ? {} : { bank: job.bank }),
      ...(job.password === undefined ? {} : { password: job.password }),
      ...(job.clientReference === undefined ? {} : { client_reference: job.clientReference }),
    };
    const m = this.redis.multi().hset(k.meta(job.id), meta).pexpire(k.meta(job.id), UNFINISHED_TTL_MS);
    m.set(k.seen(job.id), job.owner, "PX", UNFINISHED_TTL_MS + this.resultTtlMs + REMEMBER_MS);
    if (withUpload) m.set(k.upload(job.id), bufferOf(job.bytes), "PX", UNFINISHED_TTL_MS);
    await m.exec();
  }

  async meta(id: string): Promise<JobMeta | undefined> {
    const h = await this.redis.hgetall(this.keys.meta(id));
    return h.state ? (h as unknown as JobMeta) : undefined;
  }

  /** The owner a swept job had (undefined once forgotten too). */
  seenOwner(id: string): Promise<string | null> {
    return this.redis.get(this.keys.seen(id));
  }

  async upload(id: string): Promise<Buffer | null> {
    return this.redis.getBuffer(this.keys.upload(id));
  }

  /** An instance takes the job: its attempt number from 1, or -1 when it has already ended. */
  async start(id: string, instanceId: string): Promise<number> {
    return Number(await this.redis.eval(START, 1, this.keys.meta(id), instanceId));
  }

  /** Appends a progress event (and marks the job running); false once the job has ended. */
  async progress(id: string, p: Progress, running = true): Promise<boolean> {
    const r = await this.redis.eval(PROGRESS, 2, this.keys.meta(id), this.keys.events(id), JSON.stringify(p), EVENTS_MAXLEN, running ? "1" : "0");
    return r !== null;
  }

  /** Ends the job as done or failed; false when it had already ended (another instance, a cancel). */
  async finish(id: string, end: Ending): Promise<boolean> {
    const k = this.keys;
    let event: string;
    let json: Buffer | string = "";
    let csv = "";
    let bytes: Buffer | string = "";
    const fields: string[] = [];
    if ("error" in end) {
      event = JSON.stringify(envelope(end.error));
      fields.push("state", "failed", "error", end.error.message, "error_class", end.error.errorClass);
    } else {
      const o = end.outcome;
      fields.push("state", "done", "sample", end.sample ? "1" : "0");
      if (o.kind === "redact") {
        bytes = bufferOf(o.bytes);
        fields.push("redactions", String(o.redactions), "content_type", o.contentType);
        event = JSON.stringify({ format_version: FORMAT_VERSION, result_url: jobPaths(id).result_url, redactions: o.redactions, content_type: o.contentType });
      } else {
        // The worker's UTF-8 as it is (what Redis stores anyway), rather than its text decoded and encoded again.
        json = o.utf8 ? bufferOf(o.utf8) : o.json;
        if (o.kind === "csv") csv = o.csv;
        // Empty: the event refers to the json key (see FINISH), so a large result is held once.
        event = "";
      }
    }
    const r = await this.redis.eval(
      FINISH,
      6,
      k.meta(id),
      k.events(id),
      k.json(id),
      k.csv(id),
      k.bytes(id),
      k.upload(id),
      this.resultTtlMs,
      event,
      EVENTS_MAXLEN,
      json,
      csv,
      bytes,
      ...fields,
    );
    return r !== null;
  }

  /** The finished parse of a done job (undefined once swept). */
  async outcome(id: string, meta: JobMeta): Promise<DocumentResult | undefined> {
    const k = this.keys;
    if (meta.kind === "redact") {
      const bytes = await this.redis.getBuffer(k.bytes(id));
      if (!bytes) return undefined;
      return { kind: "redact", bytes: new Uint8Array(bytes), contentType: meta.content_type ?? "application/octet-stream", redactions: Number(meta.redactions ?? 0) };
    }
    const [json, csv] = await this.redis.mget(k.json(id), k.csv(id));
    if (json == null) return undefined;
    if (meta.kind === "csv") return { kind: "csv", json, csv: csv ?? "" };
    return { kind: "json", json };
  }
}

/** SPEC 2.5 snapshot of a job's hash, in the same order and shape as the in-process Job's. */
export function snapshotOf(id: string, meta: JobMeta): JobSnapshot {
  const s: JobSnapshot = {
    job_id: id,
    state: meta.state,
    result_kind: meta.kind,
    progress: JSON.parse(meta.progress) as Progress,
    format_version: FORMAT_VERSION,
    redactions: Number(meta.redactions ?? 0),
    sample: meta.sample === "1",
  };
  if (meta.kind !== "json") s.result_url = jobPaths(id).result_url;
  if (meta.state === "failed") {
    s.error = meta.error ?? "";
    s.error_class = (meta.error_class ?? "internal_error") as ErrorClass;
  }
  if (meta.client_reference !== undefined) s.client_reference = meta.client_reference;
  return s;
}
