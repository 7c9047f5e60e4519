import { afterAll } from "bun:test";
import { type Config, loadConfig } from "../../src/config.ts";
import { createLogger, type Logger } from "../../src/log.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { sharedDb } from "./db.ts";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

export interface TestServer extends RunningServer {
  /** fetch against the server, path relative to its base URL. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  admin(path: string, init?: RequestInit): Promise<Response>;
}

export interface TestServerOptions {
  /** Logger the server writes to (tests that read the logs pass one over createLogger's `write`). */
  log?: Logger;
}

/**
 * Starts a real server on a free loopback port over the shared test database, and stops it after
 * the file's tests. Pass config overrides as environment-style strings (e.g. { MAX_PAGES: "5" }).
 */
export async function startTestServer(overrides: Partial<Record<keyof Config, string>> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const config = loadConfig({}, { PORT: "0", HOST: "127.0.0.1", ADMIN_TOKEN, WORKERS: "2", LOG_LEVEL: "silent", ...overrides });
  const server = await startServer({ config, db: await sharedDb(), log: options.log ?? createLogger(config.LOG_LEVEL) });
  afterAll(() => server.stop());
  const f = (path: string, init?: RequestInit) => fetch(server.url + path, init);
  return {
    ...server,
    fetch: f,
    admin: (path, init = {}) =>
      f(path, { ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.headers as Record<string, string> | undefined) } }),
  };
}
