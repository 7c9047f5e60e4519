import { Elysia } from "elysia";
import { z } from "zod";
import { AppError, notFound } from "../errors.ts";
import { idPattern } from "../ids.ts";
import { type Job, type JobEvent, jobPaths } from "../jobs/job.ts";
import type { ParseService } from "../jobs/service.ts";
import { apiKeyAuth } from "./auth.ts";
import type { AppDeps } from "./deps.ts";
import { formatQueryParameter, parseErrors, resultResponse, uploadRequestBody } from "./parse.ts";
import { ErrorEnvelope, JobCreated, JobSnapshot, keyAuthErrors, ParseResponse, ValidationBody } from "./schemas.ts";
import { type SseMessage, sseResponse } from "./sse.ts";
import { receiveUpload } from "./upload.ts";

type JobsDeps = Pick<AppDeps, "db" | "config"> & { parser: ParseService };

const JobParams = z.strictObject({ id: z.string().regex(idPattern("job"), "must be a job id (job_ followed by 22 letters or digits)") });

const jobNotFound = () => notFound("No such job");
export const streamInUse = () => new AppError("stream_in_use", 409, "Another client is already reading this job's stream");

const toSse = (e: JobEvent): SseMessage => ({ id: e.id, data: e.data, ...(e.event ? { event: e.event } : {}) });

/**
 * SSE for one job: the latest progress (or the final event) at once, then live events until the
 * `result` event, then the stream ends. The slot is given back however the stream ends.
 */
function jobStream(job: Job, heartbeatMs: number, lastEventId: number): Response {
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

/** SPEC 4.1 jobs: submit, poll, fetch the result, and the credential-free SSE stream (SPEC 6). */
export const jobRoutes = (deps: JobsDeps) => {
  const { parser, config } = deps;
  const stream = new Elysia({ name: "job-stream", detail: { tags: ["Parse"] } }).get(
    "/v1/parse/jobs/:id/stream",
    ({ params, request, server }) => {
      const job = parser.store.get(params.id);
      if (!job) throw jobNotFound();
      if (job.streaming) throw streamInUse();
      const lastEventId = Number(request.headers.get("last-event-id") ?? 0) || 0;
      // An EventSource reconnects by itself after the stream ends; one that already has the result
      // gets 204, which tells it to stop (WHATWG HTML, server-sent events).
      if (job.finished && job.replay(lastEventId).length === 0) return new Response(null, { status: 204 });
      // The heartbeat keeps the stream alive; Bun's own idle timer must not end it between beats.
      server?.timeout(request, 0);
      return jobStream(job, config.SSE_HEARTBEAT_S * 1000, lastEventId);
    },
    {
      params: JobParams,
      response: { 200: z.string().describe("text/event-stream (see the description)"), 204: z.null().describe("Reconnect after the result was delivered: stop"), 404: ErrorEnvelope, 409: ErrorEnvelope, 422: ValidationBody },
      detail: {
        summary: "Job progress stream (SSE)",
        description:
          "No credentials: the job id is the capability. text/event-stream: progress as default `data:` lines `{stage, current, total}` with `id:` sequence numbers, a `: heartbeat` comment every SSE_HEARTBEAT_S seconds, then one `event: result` (the ParseResponse, or the error envelope on failure; for redact jobs `{result_url, redactions, content_type}`) and the stream ends. One consumer at a time (409 stream_in_use); a consumer arriving after the end gets the `result` event while the job is held. A reconnecting client sending Last-Event-ID gets only newer events, and 204 (stop reconnecting) once it has the result.",
      },
    },
  );

  const authed = new Elysia({ name: "jobs", detail: { tags: ["Parse"], security: [{ apiKey: [] }] } })
    .use(apiKeyAuth(deps))
    .post(
      "/v1/parse/jobs",
      async ({ request, caller, set }) => {
        // The key's place and the upload's bytes are taken before the body is read, not after (issue 15).
        const upload = await receiveUpload(parser, caller, request, config);
        const job = await parser.submit(caller, upload, request);
        set.status = 202;
        const { poll_url, stream_url } = jobPaths(job.id);
        return { job_id: job.id, stream_url, poll_url };
      },
      {
        parse: "none",
        response: { 202: JobCreated, ...parseErrors },
        detail: {
          summary: "Start a parse job",
          description:
            "Same inputs as POST /v1/parse. 202 with the job id and where to stream or poll it (paths relative to the service's base URL). With format=csv or redact=true the bytes are fetched from the result endpoint.",
          parameters: [formatQueryParameter],
          requestBody: uploadRequestBody,
        } as Record<string, unknown>,
      },
    )
    .get(
      "/v1/parse/jobs/:id",
      ({ params, caller, set }) => {
        const job = parser.store.getOwned(params.id, caller.owner);
        if (!job) throw jobNotFound();
        // Serialised here, like the sync endpoint's body, so the snapshot's `result` is byte-for-byte
        // the ParseResponse (additive engine fields included) and a large result is not re-validated per poll.
        return new Response(job.snapshotJson(), { headers: { ...(set.headers as Record<string, string>), "content-type": "application/json" } });
      },
      {
        params: JobParams,
        response: { 200: JobSnapshot, 404: ErrorEnvelope, ...keyAuthErrors },
        detail: {
          summary: "Poll a parse job",
          description: "The job snapshot. Only the owner of the key that created the job sees it; anyone else gets 404, as for an unknown or swept job.",
        },
      },
    )
    .get(
      "/v1/parse/jobs/:id/result",
      ({ params, caller, set }) => {
        const job = parser.store.getOwned(params.id, caller.owner);
        if (!job) throw jobNotFound();
        if (job.state !== "done" || !job.outcome) throw notFound(job.state === "failed" ? "The job failed; its snapshot has the error" : "The job has not finished yet");
        const headers: Record<string, string> = { ...(set.headers as Record<string, string>) };
        if (job.sample) headers["x-sample"] = "true";
        return resultResponse(job.outcome, headers);
      },
      {
        params: JobParams,
        response: {
          200: z.union([ParseResponse, z.string()]).describe("By result_kind: the ParseResponse (application/json), the CSV (text/csv) or the redacted document bytes"),
          404: ErrorEnvelope,
          ...keyAuthErrors,
        },
        detail: {
          summary: "Download a job's result",
          description:
            "The ParseResponse (application/json), the CSV (text/csv) or the redacted document (its own content type, X-Redactions header). 404 until the job is done and after its result is swept (JOB_RESULT_TTL_S).",
        },
      },
    );

  return new Elysia({ name: "parse-jobs" }).use(stream).use(authed);
};
