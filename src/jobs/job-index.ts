import { CallbackDispatcher } from "../callbacks/deliver.ts";
import { allowedHosts } from "../callbacks/target.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/index.ts";
import { sweepIdempotency } from "../db/idempotency.ts";
import { markCallback, markJobEnded, markJobStarted, sweepJobRows } from "../db/parse-jobs.ts";
import type { Logger } from "../log.ts";
import type { JobBackend } from "./backend.ts";

/** A job's row stays listed at least this long, and at least as long as its result (JOB_RESULT_TTL_S), ms. */
export const LISTED_FOR_MS = 24 * 3600 * 1000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;

export type JobIndexConfig = Pick<Config, "JOB_RESULT_TTL_S" | "CALLBACK_ALLOWED_HOSTS" | "CALLBACK_RETRY_BASE_MS" | "CALLBACK_MAX_ATTEMPTS" | "CALLBACK_TIMEOUT_MS">;

/** How long a job's row is kept from now, ms. */
export const keepRowMs = (config: Pick<Config, "JOB_RESULT_TTL_S">): number => Math.max(LISTED_FOR_MS, config.JOB_RESULT_TTL_S * 1000);

export interface JobIndex {
  /** Stops the sweep and callback retries, waiting for the list's writes and the attempts on the wire. */
  stop(): Promise<void>;
}

/**
 * Keeps the database's jobs list (GET /v1/parse/jobs) in step with the job backend, whichever
 * instance starts or ends a job, and sends each ended job's completion callback. Database trouble
 * here is logged, never thrown: the job itself has already ended in its backend.
 */
export function startJobIndex({ db, log, config, jobs }: { db: Db; log: Logger; config: JobIndexConfig; jobs: Pick<JobBackend, "find" | "observe"> }): JobIndex {
  const warn = (what: string, id: string) => (e: unknown) => log.warn(`jobs list: ${what} not recorded`, { job_id: id, error: String(e instanceof Error ? e.message : e) });
  const callbacks = new CallbackDispatcher({
    db,
    log,
    allowed: allowedHosts(config.CALLBACK_ALLOWED_HOSTS),
    retryBaseMs: config.CALLBACK_RETRY_BASE_MS,
    maxAttempts: config.CALLBACK_MAX_ATTEMPTS,
    timeoutMs: config.CALLBACK_TIMEOUT_MS,
    snapshot: async (id, owner) => {
      try {
        return await (await jobs.find(id, owner)).snapshotJson();
      } catch {
        return undefined;
      }
    },
    record: (id, state, attempts) => markCallback(db, id, state, attempts).catch(warn("callback state", id)),
  });
  // Writes in flight, so stop() lets them land before the database closes (jobs failed at shutdown).
  const writes = new Set<Promise<void>>();
  const write = (p: Promise<void>) => {
    writes.add(p);
    void p.finally(() => writes.delete(p));
  };
  jobs.observe({
    started: (id) => write(markJobStarted(db, id).catch(warn("start", id))),
    ended: (end) =>
      write(
        markJobEnded(db, end.id, { state: end.state, errorClass: end.errorClass, sample: end.sample, keepMs: keepRowMs(config) })
          .then((url) => {
            if (url) callbacks.dispatch({ id: end.id, owner: end.owner, url });
          })
          .catch(warn("end", end.id)),
      ),
  });
  const sweep = setInterval(() => {
    void Promise.all([sweepJobRows(db), sweepIdempotency(db)]).catch((e: unknown) => log.warn("jobs list: sweep failed", { error: String(e) }));
  }, SWEEP_EVERY_MS);
  sweep.unref?.();
  return {
    async stop() {
      clearInterval(sweep);
      await Promise.allSettled([...writes]);
      await callbacks.stop();
    },
  };
}
