import { ConfigError } from "./config.ts";
import { startServer } from "./server.ts";

try {
  const server = await startServer();
  const shutdown = async (signal: string) => {
    server.log.info("shutting down", { signal });
    await server.stop();
    process.exit(0);
  };
  // Draining can take SHUTDOWN_GRACE_S; a second signal does not start another shutdown.
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}
