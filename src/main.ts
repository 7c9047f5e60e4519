import { ConfigError } from "./config.ts";
import { installLastResort } from "./last-resort.ts";
import { prewarmInsights } from "./output/insights-pool.ts";
import { startServer } from "./server.ts";

try {
  const server = await startServer();
  // The insights thread is started warm once the server is ready (docs/insights.md, Speed).
  void prewarmInsights(server.url);
  installLastResort(server.log);
  let stopping = false;
  const shutdown = async (signal: string) => {
    // Draining takes up to SHUTDOWN_GRACE_S and ends with the metering flush. A repeated signal
    // (an impatient operator, an orchestrator sending SIGTERM twice) must not cut that short: a
    // signal with no handler would kill the process and lose the use of parses already answered.
    if (stopping) {
      server.log.warn("already shutting down; signal ignored", { signal });
      return;
    }
    stopping = true;
    server.log.info("shutting down", { signal });
    await server.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}
