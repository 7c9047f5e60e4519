import { Elysia } from "elysia";
import type { AppDeps } from "./deps.ts";
import { errorHandler } from "./errors.ts";
import { banksRoutes, healthRoutes } from "./health.ts";
import { jobRoutes } from "./jobs.ts";
import { keysRoutes } from "./keys.ts";
import { parseRoutes } from "./parse.ts";
import { billingAdminRoutes, paystackWebhookRoutes } from "./billing.ts";
import { callbackSecretRoutes } from "./callback-secret.ts";
import { adminUsageRoutes, usageRoutes } from "./usage.ts";
import { openapiRoutes } from "./openapi.ts";
import { requestId } from "./request-id.ts";
import { requestLog } from "./request-log.ts";
import { webRoutes } from "./web.ts";

/** Composes the service from one plugin per concern. */
export function createApp(deps: AppDeps) {
  return new Elysia()
    .use(
      errorHandler({
        onInternal: (e, req) => deps.log.error("unhandled error", { path: new URL(req.url).pathname, error: String(e instanceof Error ? (e.stack ?? e.message) : e) }),
        onClientFault: (e, req) => deps.log.warn("upload cut", { path: new URL(req.url).pathname, error_class: e.errorClass }),
      }),
    )
    .use(requestId())
    .use(requestLog(deps))
    .use(openapiRoutes(deps))
    .use(healthRoutes(deps))
    .use(banksRoutes(deps))
    .use(keysRoutes(deps))
    .use(parseRoutes(deps))
    .use(jobRoutes(deps))
    .use(usageRoutes(deps))
    .use(adminUsageRoutes(deps))
    .use(billingAdminRoutes(deps))
    .use(callbackSecretRoutes(deps))
    .use(paystackWebhookRoutes(deps))
    .use(webRoutes());
}

export type App = ReturnType<typeof createApp>;
