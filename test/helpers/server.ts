import { afterAll } from "bun:test";
import { type Config, loadConfig } from "../../src/config.ts";
import { createLogger, type Logger } from "../../src/log.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { Contract } from "./contract.ts";
import { sharedDb } from "./db.ts";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

export interface TestServer extends RunningServer {
  /** fetch against the server, path relative to its base URL; the answer is checked against /openapi.json. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  admin(path: string, init?: RequestInit): Promise<Response>;
}

export interface TestServerOptions {
  /** Logger the server writes to (tests that read the logs pass one over createLogger's `write`). */
  log?: Logger;
}

/** A response that breaks the published contract (see test/helpers/contract.ts). */
export class ContractViolation extends Error {
  override name = "ContractViolation";
}

// The document is the same for every test server of the run: loaded once, from the first one.
let contract: Promise<Contract> | undefined;
const violations: string[] = [];

/**
 * Fetches `url` and checks the answer against the published contract: a violation fails the
 * request (and so the test) with what is wrong, and is reported again when the file ends, in
 * case a test swallowed the error.
 */
async function checked(url: string, init?: RequestInit): Promise<Response> {
  const res = await fetch(url, init);
  contract ??= Contract.load(new URL(url).origin);
  const problem = await (await contract).problems(init?.method ?? "GET", url, res);
  if (problem) {
    violations.push(problem);
    throw new ContractViolation(problem);
  }
  return res;
}

/** A fetch for absolute URLs of a test server (e.g. the typed client's `fetch` option, a webhook delivery), checked the same way. */
export const contractFetch = (input: string, init?: RequestInit): Promise<Response> => checked(input, init);

/** Registered per test file (with its server): a violation a test swallowed still fails the file. */
function reportSwallowedViolations(): void {
  const missed = violations.splice(0);
  if (missed.length > 0) throw new ContractViolation(`responses broke /openapi.json:\n${missed.join("\n")}`);
}

/**
 * Starts a real server on a free loopback port over the shared test database, and stops it after
 * the file's tests. Pass config overrides as environment-style strings (e.g. { MAX_PAGES: "5" }).
 */
export async function startTestServer(overrides: Partial<Record<keyof Config, string>> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  // No worker warm-up (it adds seconds of CPU to every start, and a parse sent at once would queue
  // behind it); test/jobs/warmup.test.ts tests it. An override turns it back on.
  const config = loadConfig({}, { PORT: "0", HOST: "127.0.0.1", ADMIN_TOKEN, WORKERS: "2", LOG_LEVEL: "silent", WORKER_WARMUP: "false", ...overrides });
  const server = await startServer({ config, db: await sharedDb(), log: options.log ?? createLogger(config.LOG_LEVEL) });
  afterAll(() => server.stop());
  afterAll(reportSwallowedViolations);
  const f = (path: string, init?: RequestInit) => checked(server.url + path, init);
  return {
    ...server,
    fetch: f,
    admin: (path, init = {}) =>
      f(path, { ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.headers as Record<string, string> | undefined) } }),
  };
}
