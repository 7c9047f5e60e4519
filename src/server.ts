import { type Config, ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/index.ts";
import type { Db } from "./db/index.ts";
import { createApp } from "./http/app.ts";
import { createLogger, type Logger } from "./log.ts";
import { ensureAdminToken } from "./db/admin.ts";
import { createMetering } from "./metering/metering.ts";
import { billingMode } from "./billing/mode.ts";
import { registerInstance } from "./metering/instances.ts";
import { createParseService } from "./jobs/service.ts";
import type { JobBackend } from "./jobs/backend.ts";
import { createLocalBackend } from "./jobs/local-backend.ts";
import { startJobIndex } from "./jobs/job-index.ts";

export interface RunningServer {
  url: string;
  port: number;
  config: Config;
  db: Db;
  log: Logger;
  /** This process's id in reservations (src/metering/instances.ts). */
  instanceId: string;
  /**
   * Answers /readyz 503 `draining`, refuses new parses, lets running ones finish up to the grace
   * period while polls and results are still served, then stops listening and closes the database.
   */
  stop(): Promise<void>;
}

export interface StartOptions {
  config?: Config;
  /** Reuse an open database (tests share one PGlite per run); it is not closed by stop(). */
  db?: Db;
  log?: Logger;
  /** The parse worker's module; tests wrap the real one (a hold, a fault). Defaults to workers/parse.worker.ts. */
  workerFilename?: string;
}

/** Thrown when the port is taken: main.ts prints it and exits 2, like a bad configuration. */
export class AddressInUseError extends ConfigError {}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const config = options.config ?? loadConfig();
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const db = options.db ?? (await openDatabase(config));
  try {
    return await start(config, log, db, options.db === undefined, options.workerFilename);
  } catch (e) {
    if (!options.db) await db.close().catch(() => {});
    throw e;
  }
}

async function start(config: Config, log: Logger, db: Db, ownsDb: boolean, workerFilename?: string): Promise<RunningServer> {
  const admin = await ensureAdminToken(db, config.ADMIN_TOKEN);
  if (admin.generated) {
    // Printed once, at the start that created it; only its hash is kept.
    // On stderr: stdout carries the JSON log stream, which is shipped and kept.
    console.error(`\n  Admin token (shown once, keep it safe): ${admin.generated}\n`);
  }
  // A database shared with other servers of this process (tests) is not swept for orphans: they run.
  const instance = await registerInstance(db, { log, releaseOrphans: ownsDb });
  const billing = billingMode(config);
  const metering = createMetering({ db, config, instanceId: instance.id, log, gateLiveKeys: billing.enabled });
  // The one worker pool; its threads start now and load the engine in the background (/readyz waits for it).
  const parser = createParseService({ config, log, metering, workerFilename });
  // Where jobs live, chosen once: this process (default), or Redis shared by several instances.
  let jobs: JobBackend;
  try {
    const { REDIS_URL } = config;
    // Loaded only when asked for: a single instance never loads BullMQ or opens a Redis connection.
    jobs = REDIS_URL
      ? await (await import("./jobs/redis/backend.ts")).createRedisBackend({ config: { ...config, REDIS_URL }, log, metering, parser, instanceId: instance.id })
      : createLocalBackend(parser);
  } catch (e) {
    await parser.shutdown(0).catch(() => {});
    instance.stop();
    throw e;
  }
  // The jobs list and completion callbacks follow the backend's jobs (issue 27).
  const jobIndex = startJobIndex({ db, log, config, jobs });
  let draining = false;
  const app = createApp({
    config,
    db,
    log,
    adminTokenHash: admin.hash,
    metering,
    parser,
    jobs,
    readiness: [{ name: "engine_pool", check: async () => parser.ready() }],
    draining: () => draining,
  });
  try {
    app.listen({
      port: config.PORT,
      hostname: config.HOST,
      // Elysia turns SO_REUSEPORT on by default: a second server on the same port would then
      // share it silently (issue 15 item 12). Off, the second start fails with EADDRINUSE.
      reusePort: false,
      // Closes silent connections; uploads, sync parses and streams lift it while they run (http/idle-timer.ts).
      idleTimeout: config.HTTP_IDLE_TIMEOUT_S,
    });
  } catch (e) {
    await jobs.shutdown(0).catch(() => {});
    await jobIndex.stop();
    instance.stop();
    if ((e as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new AddressInUseError(`Port ${config.PORT} on ${config.HOST} is already in use (another server?); stop it or set PORT`);
    }
    throw e;
  }
  const port = app.server?.port ?? config.PORT;
  const host = config.HOST === "0.0.0.0" ? "127.0.0.1" : config.HOST;
  log.info("listening", { port, database: db.kind });
  log.info(
    billing.enabled
      ? "billing on (Paystack): live keys need an active subscription"
      : "billing off: no payment provider configured (PAYSTACK_SECRET_KEY unset), live keys are not gated",
    { billing_enabled: billing.enabled, billing_provider: billing.provider },
  );
  let stopping: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    config,
    db,
    log,
    instanceId: instance.id,
    stop() {
      stopping ??= (async () => {
        // Still listening: /readyz says draining (load balancers stop sending), new parses get 503,
        // and jobs that finish during the grace can be polled and fetched.
        draining = true;
        const graceMs = config.SHUTDOWN_GRACE_S * 1000;
        const started = Date.now();
        // Jobs of this process still to end: their owners poll for them and fetch the result later.
        const pollers = parser.store.unfinished().length > 0;
        // Jobs first (a cluster worker stops taking them), then the parse service itself.
        await jobs.shutdown(graceMs);
        // Callback retries still waiting are dropped (docs/batch.md); attempts on the wire finish.
        await jobIndex.stop();
        // Outcomes the database missed get one more chance (bounded by what is left of the grace, at least 2 s).
        await metering.flush?.(Math.max(2000, graceMs - (Date.now() - started)));
        // A job that ended during the drain was counted: its poller gets the rest of the grace to
        // fetch it (a poller asks every second or so; the last job's end is no time to close).
        if (pollers) await new Promise((r) => setTimeout(r, Math.max(0, started + graceMs - Date.now())));
        instance.stop();
        await app.stop(true);
        if (ownsDb) await db.close();
      })();
      return stopping;
    },
  };
}
