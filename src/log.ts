import { createHash } from "node:crypto";
import type { Config } from "./config.ts";

/**
 * Structured logs: one JSON object per line on stdout. Never pass secrets in fields. A job id is
 * the only credential for its event stream, so none is ever written: every `job_…` id in a line
 * (a path, a field) is replaced by `job~` and its tag.
 */
export type LogFields = Record<string, unknown>;
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

/**
 * A short, non-reversible name for a job in logs: the first 6 hex characters of the SHA-256 of
 * its id. Enough to follow one job through a log; nothing to open its stream with.
 */
export const jobTag = (jobId: string): string => createHash("sha256").update(jobId).digest("hex").slice(0, 6);

// Job ids are "job_" and 22 base62 characters (src/ids.ts); the fixed length keeps this linear.
const JOB_ID = /job_[0-9A-Za-z]{22}(?![0-9A-Za-z])/g;

/** `text` with every job id replaced by `job~<tag>`. */
export const maskJobIds = (text: string): string => text.replace(JOB_ID, (id) => `job~${jobTag(id)}`);

export function createLogger(level: Config["LOG_LEVEL"] = "info", write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const min = LEVELS[level];
  const emit = (lvl: keyof typeof LEVELS, msg: string, fields?: LogFields) => {
    if (LEVELS[lvl] < min) return;
    write(`${maskJobIds(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }))}\n`);
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}
