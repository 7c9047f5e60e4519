import type { Logger } from "./log.ts";

const describe = (e: unknown): string => (e instanceof Error ? (e.stack ?? e.message) : String(e));

/**
 * The process-wide handlers of an error nothing else caught: a library's timer callback throwing
 * (postgres.js writing to a connection that closed meanwhile, porsager/postgres#1208), a promise
 * nobody awaited. The request it belonged to has failed or is bounded by its own timeout; exiting
 * would drop every other request in flight, so the error is logged and the process keeps serving.
 * Installed by src/main.ts (a test runner keeps its own handlers).
 */
export function installLastResort(log: Pick<Logger, "error">): void {
  process.on("uncaughtException", (e) => log.error("uncaught exception; still serving", { error: describe(e) }));
  process.on("unhandledRejection", (e) => log.error("unhandled rejection; still serving", { error: describe(e) }));
}
