import { type Config, loadConfig } from "./config.ts";
import { openDatabase } from "./db/index.ts";
import type { Db } from "./db/index.ts";
import { createApp } from "./http/app.ts";
import { createLogger, type Logger } from "./log.ts";
import { ensureAdminToken } from "./db/admin.ts";
import { createMetering } from "./metering/metering.ts";
import { createParseService } from "./jobs/service.ts";

export interface RunningServer {
  url: string;
  port: number;
  config: Config;
  db: Db;
  log: Logger;
  /** Stops accepting, drains running work up to the grace period, closes the database. */
  stop(): Promise<void>;
}

export interface StartOptions {
  config?: Config;
  /** Reuse an open database (tests share one PGlite per run); it is not closed by stop(). */
  db?: Db;
  log?: Logger;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const config = options.config ?? loadConfig();
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const db = options.db ?? (await openDatabase(config));
  const admin = await ensureAdminToken(db, config.ADMIN_TOKEN);
  if (admin.generated) {
    // Printed once, at the start that created it; only its hash is kept.
    // On stderr: stdout carries the JSON log stream, which is shipped and kept.
    console.error(`\n  Admin token (shown once, keep it safe): ${admin.generated}\n`);
  }
  const metering = createMetering({ db, config });
  // The one worker pool; its threads start now and load the engine in the background (/readyz waits for it).
  const parser = createParseService({ config, log, metering });
  const app = createApp({
    config,
    db,
    log,
    adminTokenHash: admin.hash,
    metering,
    parser,
    readiness: [{ name: "engine_pool", check: async () => parser.ready() }],
  });
  app.listen({ port: config.PORT, hostname: config.HOST });
  const port = app.server?.port ?? config.PORT;
  const host = config.HOST === "0.0.0.0" ? "127.0.0.1" : config.HOST;
  log.info("listening", { port, database: db.kind });
  return {
    url: `http://${host}:${port}`,
    port,
    config,
    db,
    log,
    async stop() {
      // Stop accepting, let running parses finish (their streams end with the final event), then
      // close what is left and destroy the pool.
      app.server?.stop(false)?.catch(() => {});
      await parser.shutdown(config.SHUTDOWN_GRACE_S * 1000);
      await app.stop(true);
      if (!options.db) await db.close();
    },
  };
}
