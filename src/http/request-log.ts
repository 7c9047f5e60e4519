import { Elysia } from "elysia";
import { jobTag, type Logger } from "../log.ts";

/**
 * One structured log line per finished request: method, path (no query string: it may carry
 * user input), status, duration and the request id that is also sent as X-Request-Id. Headers and
 * bodies are never logged: they carry API keys, the admin token and the statements themselves.
 * A job's id is its stream's only credential: job paths are logged with `:job` in its place and
 * the job's tag (jobTag) in `job_tag`.
 */

const JOB_PATH = /^(\/v1\/parse\/jobs\/)([^/]+)/;

/** The path as logged, and the tag of the job it names, if any. */
export function loggedPath(pathname: string): { path: string; job_tag?: string } {
  const m = JOB_PATH.exec(pathname);
  if (!m) return { path: pathname };
  // The segment as sent (job ids are plain base62, so it is the id itself); never decoded, which could throw.
  return { path: `${m[1]}:job${pathname.slice(m[0].length)}`, job_tag: jobTag(m[2]!) };
}
export const requestLog = ({ log }: { log: Logger }) => {
  const started = new WeakMap<Request, number>();
  return new Elysia({ name: "request-log" })
    .onRequest(({ request }) => {
      started.set(request, performance.now());
    })
    .onAfterResponse({ as: "global" }, (ctx) => {
      const { request, set, responseValue } = ctx;
      const begin = started.get(request);
      const headers = set.headers as Record<string, string | undefined>;
      const requestId = (ctx as { requestId?: string }).requestId ?? headers["x-request-id"];
      log.info("request", {
        request_id: requestId,
        method: request.method,
        ...loggedPath(new URL(request.url).pathname),
        status: statusOf(responseValue, set.status),
        duration_ms: begin === undefined ? undefined : Math.round((performance.now() - begin) * 10) / 10,
      });
    });
};

function statusOf(response: unknown, status: unknown): number {
  if (response instanceof Response) return response.status;
  if (typeof status === "number") return status;
  return 200;
}
