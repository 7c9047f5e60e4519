import { jobStream, streamInUse } from "../http/job-stream.ts";
import type { JobBackend, JobView } from "./backend.ts";
import type { Job } from "./job.ts";
import type { ParseService } from "./service.ts";

const view = (job: Job): JobView => ({
  id: job.id,
  state: job.state,
  kind: job.kind,
  sample: job.sample,
  snapshotJson: async () => job.snapshotJson(),
  snapshotBody: async () => job.snapshotBody(),
  outcome: async () => (job.state === "done" ? job.outcome : undefined),
});

/**
 * Jobs in this process's memory (no REDIS_URL): the parse service's own job store, gate and
 * shutdown, exactly as before several instances could share jobs.
 */
export function createLocalBackend(parser: ParseService): JobBackend {
  return {
    hold: async (caller, bytes) => parser.hold(caller, bytes),
    holdSync: async (caller, bytes) => parser.hold(caller, bytes),
    submit: async (caller, upload, request, options) => ({ id: (await parser.submit(caller, upload, request, options)).id }),
    keep: async (caller, id, kind, outcome) => parser.keep(caller, id, kind, outcome),
    observe: (observer) => parser.observe(observer),
    find: async (id, owner) => view(parser.find(id, owner)),
    cancel: async (id, owner) => view(parser.cancel(id, owner)),
    async stream(id, lastEventIdHeader, heartbeatMs) {
      const job = parser.find(id);
      if (job.streaming) throw streamInUse();
      const lastEventId = Number(lastEventIdHeader ?? 0) || 0;
      // An EventSource reconnects by itself after the stream ends; one that already has the result
      // gets 204, which tells it to stop (WHATWG HTML, server-sent events).
      if (job.finished && job.replay(lastEventId).length === 0) return new Response(null, { status: 204 });
      return jobStream(job, heartbeatMs, lastEventId);
    },
    readiness: () => [],
    status: async () => undefined,
    shutdown: (graceMs) => parser.shutdown(graceMs),
  };
}
