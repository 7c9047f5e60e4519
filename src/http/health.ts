import { Elysia } from "elysia";
import { z } from "zod";
import type { AppDeps, ReadinessCheck } from "./deps.ts";
import { ENGINE_VERSION, FORMAT_VERSION, SERVICE_VERSION } from "../version.ts";
import { listBanks } from "../engine/index.ts";
import { createLogger, type Logger } from "../log.ts";
import { apiKeyAuth } from "./auth.ts";
import { billingMode } from "../billing/mode.ts";
import { ErrorEnvelope, keyAuthErrors } from "./schemas.ts";

/** A check that has not answered in this long counts as failed, so /readyz itself stays fast. */
const CHECK_TIMEOUT_MS = 2000;

const Liveness = z.object({ status: z.literal("ok") });
const Readiness = z.object({
  status: z.enum(["ready", "not_ready", "draining"]),
  checks: z.record(z.string(), z.object({ ok: z.boolean(), error: z.string().optional() })).describe("One entry per check"),
});
const Status = z.object({
  status: z.literal("ok"),
  service_version: z.string(),
  engine_version: z.string(),
  format_version: z.string(),
  worker_threads: z.number().int(),
  billing: z
    .object({
      enabled: z.boolean().describe("Live keys need an active subscription (402 subscription_inactive otherwise)"),
      provider: z.string().nullable().describe("The payment provider configured (`paystack`); null when none is (self-hosted: live keys are not gated)"),
    })
    .describe("Whether this server bills"),
  instance_id: z.string().optional().describe("With REDIS_URL (several instances): this instance's id"),
  cluster: z
    .object({
      queue_depth: z.number().int().describe("Jobs waiting for a worker, all instances"),
      running: z.number().int().describe("Jobs being parsed, all instances"),
      instances_online: z.number().int(),
      workers_online: z.number().int().describe("Parse worker threads of the instances online"),
    })
    .optional()
    .describe("With REDIS_URL: the jobs' cluster as Redis sees it"),
});

const TIMED_OUT = Symbol("timed out");

/**
 * Runs one check. The answer names what failed in our words only: a driver's error can carry a
 * host, a user name or a path, so it goes to the log, never to an unauthenticated caller.
 */
async function runCheck(c: ReadinessCheck, log: Logger): Promise<{ ok: boolean; error?: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), CHECK_TIMEOUT_MS);
  });
  try {
    const ok = await Promise.race([c.check(), timeout]);
    if (ok === TIMED_OUT) {
      log.warn("readiness check timed out", { check: c.name, timeout_ms: CHECK_TIMEOUT_MS });
      return { ok: false, error: `no answer within ${CHECK_TIMEOUT_MS} ms` };
    }
    return ok === false ? { ok: false, error: "not ready" } : { ok: true };
  } catch (e) {
    log.warn("readiness check failed", { check: c.name, error: e instanceof Error ? e.message : String(e) });
    return { ok: false, error: "check failed (the server log has the cause)" };
  } finally {
    clearTimeout(timer);
  }
}

/** SPEC 4.5 and 4.2: liveness, readiness and the unauthenticated service status. */
export const healthRoutes = (deps: Pick<AppDeps, "db" | "config" | "readiness" | "draining"> & Partial<Pick<AppDeps, "jobs">> & { log?: Logger }) => {
  const log = deps.log ?? createLogger("silent");
  const checks: ReadinessCheck[] = [
    {
      name: "database",
      check: async () => {
        await deps.db.query(`select 1`);
      },
    },
    ...(deps.readiness ?? []),
    ...(deps.jobs?.readiness() ?? []),
  ];
  return new Elysia({ name: "health", detail: { tags: ["Health"] } })
    .get("/healthz", () => ({ status: "ok" as const }), {
      response: { 200: Liveness },
      detail: { summary: "Liveness", description: "200 whenever the process serves HTTP." },
    })
    .get(
      "/readyz",
      async ({ set }) => {
        // Draining (issue 15): shutting down, still serving polls and results; take no new work here.
        if (deps.draining?.()) {
          set.status = 503;
          return { status: "draining" as const, checks: {} };
        }
        const results = await Promise.all(checks.map(async (c) => [c.name, await runCheck(c, log)] as const));
        const ready = results.every(([, r]) => r.ok);
        if (!ready) set.status = 503;
        return { status: ready ? ("ready" as const) : ("not_ready" as const), checks: Object.fromEntries(results) };
      },
      {
        response: { 200: Readiness, 503: Readiness },
        detail: { summary: "Readiness", description: "200 when the database answers and the engine pool is loaded (with REDIS_URL also Redis and this instance's job worker); 503 naming the failed checks; 503 `draining` once shutdown began (running jobs finishing)." },
      },
    )
    .get(
      "/v1/status",
      async () => ({
        status: "ok" as const,
        service_version: SERVICE_VERSION,
        engine_version: ENGINE_VERSION,
        format_version: FORMAT_VERSION,
        worker_threads: deps.config.WORKERS,
        billing: billingMode(deps.config),
        ...(await deps.jobs?.status()),
      }),
      {
        response: { 200: Status, 500: ErrorEnvelope },
        detail: { summary: "Service status", description: "No credentials: service and engine versions, parse worker threads, whether billing is on; with REDIS_URL also this instance's id and the cluster's queue depth, running jobs and workers online." },
      },
    );
};

const BankList = z.object({
  engine_version: z.string(),
  format_version: z.string(),
  banks: z.array(z.object({ id: z.string(), name: z.string(), formats: z.array(z.string()).describe("pdf, xlsx") })),
});

/** SPEC 4.2 GET /v1/banks: the supported banks and the formats each takes (API key). */
export const banksRoutes = (deps: Pick<AppDeps, "db">) => {
  const body = {
    engine_version: ENGINE_VERSION,
    format_version: FORMAT_VERSION,
    banks: listBanks(),
  };
  return new Elysia({ name: "banks", detail: { tags: ["Account"], security: [{ apiKey: [] }] } })
    .use(apiKeyAuth(deps))
    .get("/v1/banks", () => body, {
      response: { 200: BankList, ...keyAuthErrors },
      detail: { summary: "Supported banks", description: "The engine version and every bank profile with the file formats it parses." },
    });
};
