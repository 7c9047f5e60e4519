import type { Config } from "../config.ts";
import type { Db } from "../db/index.ts";
import type { Logger } from "../log.ts";
import type { Metering } from "../metering/types.ts";

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
}
