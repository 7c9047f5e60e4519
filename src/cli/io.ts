import type { Sink } from "./progress.ts";

/** Where a command writes; process.stdout/stderr in the bin, capturing sinks in tests. */
export interface Io {
  stdout: Sink;
  stderr: Sink;
}
