import { Elysia } from "elysia";
import type { AppDeps } from "./deps.ts";
import { errorHandler } from "./errors.ts";
import { requestId } from "./request-id.ts";

/** Composes the service from one plugin per concern. */
export function createApp(deps: AppDeps) {
  return new Elysia()
    .use(errorHandler({ onInternal: (e, req) => deps.log.error("unhandled error", { path: new URL(req.url).pathname, error: String(e instanceof Error ? (e.stack ?? e.message) : e) }) }))
    .use(requestId())
    .get("/healthz", () => ({ status: "ok" }));
}

export type App = ReturnType<typeof createApp>;
