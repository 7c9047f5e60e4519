import { AppError } from "../errors.ts";
import type { Job, JobEvent } from "../jobs/job.ts";
import { type SseMessage, sseResponse } from "./sse.ts";

export const streamInUse = () => new AppError("stream_in_use", 409, "Another client is already reading this job's stream");

const toSse = (e: JobEvent): SseMessage => ({ id: e.id, data: e.utf8 ?? e.data, ...(e.event ? { event: e.event } : {}) });

/**
 * SSE for one job: the latest progress (or the final event) at once, then live events until the
 * `result` event (the ParseResponse, or the envelope of a failed or cancelled job), then the
 * stream ends. The consumer slot is given back however the stream ends.
 */
export function jobStream(job: Job, heartbeatMs: number, lastEventId: number): Response {
  job.streaming = true;
  return sseResponse(
    {
      async run(send, signal) {
        for (const e of job.replay(lastEventId)) send(toSse(e));
        if (job.finished) return;
        await new Promise<void>((resolve) => {
          const unsubscribe = job.subscribe((e) => {
            send(toSse(e));
            if (e.event === "result") done();
          });
          const done = () => {
            unsubscribe();
            signal.removeEventListener("abort", done);
            resolve();
          };
          signal.addEventListener("abort", done, { once: true });
        });
      },
      onClose: () => {
        job.streaming = false;
      },
    },
    { heartbeatMs },
  );
}
