import type { Config } from "../config.ts";
import type { Db } from "../db/index.ts";
import type { Logger } from "../log.ts";
import type { JobBackend } from "../jobs/backend.ts";
import type { ParseService } from "../jobs/service.ts";
import type { Metering } from "../metering/types.ts";
import type { ReadinessCheck } from "../readiness.ts";

export type { ReadinessCheck };

/**
 * Everything the HTTP plugins need, built once in src/server.ts and handed to each plugin.
 * Plugins take only the parts they use (Pick<AppDeps, ...>), which keeps them testable.
 */
export interface AppDeps {
  config: Config;
  db: Db;
  log: Logger;
  /** SHA-256 hex of the admin token (from ADMIN_TOKEN or generated at first start). */
  adminTokenHash: string;
  metering: Metering;
  /** The worker pool, admission limits and job store behind every parse (src/jobs). */
  parser: ParseService;
  /** Where parse jobs live: this process, or Redis shared by several instances (src/jobs/backend.ts). */
  jobs: JobBackend;
  /** Extra named checks GET /readyz runs besides the database (e.g. the engine pool is loaded). */
  readiness?: ReadinessCheck[];
  /** True once SIGTERM arrived: /readyz answers 503 `draining` while running jobs finish (issue 15). */
  draining?: () => boolean;
}
