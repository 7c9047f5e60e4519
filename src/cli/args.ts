import { parseArgs, type ParseArgsConfig } from "node:util";

/** Exit codes of the command line (documented in docs/operations.md and `--help`). */
export const EXIT_OK = 0;
/** At least one file could not be parsed (the others were still written). */
export const EXIT_PARSE_FAILED = 1;
/** Bad command line: unknown command or flag, missing argument, path that does not exist. */
export const EXIT_USAGE = 2;

export class UsageError extends Error {}

/** node:util parseArgs in strict mode, with its errors turned into UsageError. */
/** Flags both commands take: what to produce from a statement and how to show progress. */
export const DOCUMENT_FLAGS = {
  format: { type: "string" },
  redact: { type: "boolean" },
  password: { type: "string" },
  bank: { type: "string" },
  out: { type: "string" },
  progress: { type: "boolean" },
  quiet: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export function parseFlags<T extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export function oneOf<V extends string>(flag: string, value: string | undefined, allowed: readonly V[], fallback: V): V {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as V;
  throw new UsageError(`--${flag} must be one of ${allowed.join(", ")} (got ${JSON.stringify(value)})`);
}

export function positiveInt(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 256) throw new UsageError(`--${flag} must be an integer from 1 to 256 (got ${JSON.stringify(value)})`);
  return Number(value);
}
