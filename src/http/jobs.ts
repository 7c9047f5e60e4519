import { Elysia } from "elysia";
import { z } from "zod";
import { allowedHosts, checkCallbackUrl } from "../callbacks/target.ts";
import { signingSecrets } from "../db/callback-secrets.ts";
import type { Queryable } from "../db/client.ts";
import { deleteJobRow, insertJobRow, jobIncludesInsights, listJobRows } from "../db/parse-jobs.ts";
import { notFound } from "../errors.ts";
import { idPattern, newId } from "../ids.ts";
import { keepRowMs } from "../jobs/job-index.ts";
import type { Upload } from "../jobs/service.ts";
import { jobPaths } from "../jobs/job.ts";
import { resultAs } from "../jobs/result-formats.ts";
import type { JobBackend } from "../jobs/backend.ts";
import { apiKeyAuth } from "./auth.ts";
import type { AppDeps } from "./deps.ts";
import { idempotencyParameter, JobList, JobListQuery, jobRequestBody } from "./batch-schemas.ts";
import { RequestValidationError } from "./errors.ts";
import { claim, idempotencyKeyOf, REPLAYED_HEADER } from "./idempotency.ts";
import { formatQueryParameter, NO_STORE, parseErrors, resultResponse } from "./parse.ts";
import { ErrorEnvelope, EventStream, JobCreated, JobSnapshot, keyAuthErrors, NoContent, ParseResult, ValidationBody } from "./schemas.ts";
import { liftIdleTimer, onBodyEnd } from "./idle-timer.ts";
import { includeQueryParameter, insightsAs, redactWithInsights, wantsInsights, withInsightsKept } from "./insights.ts";
import { receiveUpload } from "./upload.ts";

export { streamInUse } from "./job-stream.ts";

type JobsDeps = Pick<AppDeps, "db" | "config" | "metering"> & { jobs: JobBackend };

const JobParams = z.strictObject({ id: z.string().regex(idPattern("job"), "must be a job id (job_ followed by 22 letters or digits)") });
const ResultQuery = z.strictObject({
  format: z
    .enum(["json", "csv", "xlsx"])
    .optional()
    .describe("json, csv or xlsx: the finished parse in that format, whatever the job was submitted with (no second parse). Default: the job's own format"),
  include: z
    .enum(["insights"])
    .optional()
    .describe("insights: the result with enrichment and insights (docs/insights.md), made from the kept parse (no second parse). Default: as the job was created (its own include)"),
});

/** The snapshot as the poll endpoint and DELETE send it (serialised by the job, see Job.snapshotJson). */
const snapshotResponse = (json: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>, status = 200) =>
  new Response(json, { status, headers: { ...headers, ...NO_STORE, "content-type": "application/json" } });

const callbackProblem = (msg: string, type: string, input: string | null) =>
  new RequestValidationError([{ loc: ["body", "callback_url"], msg, type, input, ctx: {} }]);

/**
 * A callback_url the job may have: https to a host that is not a literal private address (unless
 * CALLBACK_ALLOWED_HOSTS lists it), for an owner that holds a signing secret (an unsigned
 * callback could not be told from a forged one). 422 otherwise. Names are resolved at send time.
 */
async function checkCallback(db: Queryable, owner: string, upload: Upload, allowed: ReturnType<typeof allowedHosts>): Promise<void> {
  if (upload.callbackUrl === undefined) return;
  const checked = checkCallbackUrl(upload.callbackUrl, allowed);
  if (!checked.ok) throw callbackProblem(`callback_url ${checked.reason}`, "callback_url_refused", upload.callbackUrl.slice(0, 200));
  if ((await signingSecrets(db, owner)).length === 0) {
    throw callbackProblem("callback_url needs the owner's signing secret: an admin issues it with POST /v1/admin/callback-secret", "callback_secret_missing", null);
  }
}

const created = (id: string) => {
  const { poll_url, stream_url } = jobPaths(id);
  return { job_id: id, stream_url, poll_url };
};

/** SPEC 4.1 jobs: submit, list, poll, cancel, fetch the result, and the credential-free SSE stream (SPEC 6). */
export const jobRoutes = (deps: JobsDeps) => {
  // Where jobs live (this process, or Redis shared by several instances) is the backend's business.
  const { jobs, config, db } = deps;
  const allowed = allowedHosts(config.CALLBACK_ALLOWED_HOSTS);
  const stream = new Elysia({ name: "job-stream", detail: { tags: ["Parse"] } }).get(
    "/v1/parse/jobs/:id/stream",
    async ({ params, request, server }) => {
      const res = await jobs.stream(params.id, request.headers.get("last-event-id"), config.SSE_HEARTBEAT_S * 1000);
      if (res.status !== 200) return res;
      // The heartbeat keeps the stream alive; Bun's own idle timer must not end it between beats,
      // and is put back when the stream ends so the keep-alive connection can be closed when idle.
      return onBodyEnd(res, liftIdleTimer(server, request, config.HTTP_IDLE_TIMEOUT_S));
    },
    {
      params: JobParams,
      response: { 200: EventStream, 204: NoContent, 404: ErrorEnvelope, 409: ErrorEnvelope, 422: ValidationBody },
      detail: {
        summary: "Job progress stream (SSE)",
        description:
          "No credentials: the job id is the capability. text/event-stream: progress as default `data:` lines `{stage, current, total}` (JobProgress) with `id:` sequence numbers (with REDIS_URL, Redis stream ids such as 1732400000000-0, valid on every instance), a `: heartbeat` comment every SSE_HEARTBEAT_S seconds, then one `event: result` (the ParseResponse; the ErrorEnvelope when the job failed or was cancelled, error_class job_cancelled; for redact jobs `{format_version, result_url, redactions, content_type}`) and the stream ends. One consumer at a time (409 stream_in_use); a consumer arriving after the end gets the `result` event while the job is held. A reconnecting client sending Last-Event-ID gets only newer events, and 204 (stop reconnecting) once it has the result. 404 job_expired for a job the server has swept.",
      },
    },
  );

  const authed = new Elysia({ name: "jobs", detail: { tags: ["Parse"], security: [{ apiKey: [] }] } })
    .use(apiKeyAuth(deps))
    .post(
      "/v1/parse/jobs",
      async ({ request, caller, set, server }) => {
        // Body bytes do not reset Bun's idle timer: only UPLOAD_IDLE_TIMEOUT_S (true idleness) cuts an upload.
        const insights = wantsInsights(request);
        const restore = liftIdleTimer(server, request, config.HTTP_IDLE_TIMEOUT_S);
        // The key's place and the upload's bytes are taken before the body is read, not after (issue 15).
        const upload = await receiveUpload(jobs, caller, request, config, { metering: deps.metering }).finally(restore);
        if (insights && upload.kind === "redact") {
          upload.hold?.release();
          throw redactWithInsights();
        }
        // The parse worker makes them with the parse (docs/insights.md; not with REDIS_URL: made on read there).
        if (insights) upload.insights = true;
        const id = newId("job");
        let listed = false;
        let idem: Awaited<ReturnType<typeof claim>> | undefined;
        try {
          await checkCallback(db, caller.owner, upload, allowed);
          const key = idempotencyKeyOf(request.headers);
          idem = key === undefined ? undefined : await claim(db, caller.owner, "jobs", key, upload, id);
          if (idem && "replayOf" in idem) {
            // The same request again: its job answers, nothing new is queued or counted.
            upload.hold?.release();
            set.status = 202;
            set.headers[REPLAYED_HEADER] = "true";
            return created(idem.replayOf);
          }
          // Listed before it can end (a sample ends inside submit): the end always finds its row.
          await insertJobRow(db, { id, owner: caller.owner, keyId: caller.keyId, kind: upload.kind, clientReference: upload.clientReference, callbackUrl: upload.callbackUrl, includeInsights: insights, keepMs: keepRowMs(config) });
          listed = true;
          await jobs.submit(caller, upload, request, insights ? { id, finish: withInsightsKept } : { id });
        } catch (e) {
          if (!listed) upload.hold?.release();
          else await deleteJobRow(db, id).catch(() => {});
          if (idem && "claimed" in idem) await idem.claimed.release().catch(() => {});
          throw e;
        }
        if (idem && "claimed" in idem) await idem.claimed.settle();
        set.status = 202;
        return created(id);
      },
      {
        parse: "none",
        response: { 202: JobCreated, ...parseErrors },
        detail: {
          summary: "Start a parse job",
          description:
            "Same inputs as POST /v1/parse. 202 with the job id and where to stream or poll it (paths relative to the service's base URL). With format=csv or redact=true the bytes are fetched from the result endpoint. With include=insights the job's result is made with enrichment and insights as it ends: the result endpoint, the stream's result event and the snapshot's result carry them (with REDIS_URL the stream and snapshot carry the plain ParseResponse and the result endpoint makes them when read).",
          parameters: [formatQueryParameter, includeQueryParameter, idempotencyParameter],
          requestBody: jobRequestBody,
        } as Record<string, unknown>,
      },
    )
    .get(
      "/v1/parse/jobs",
      async ({ query, caller }) => {
        const page = await listJobRows(db, caller.owner, { limit: query.limit, startingAfter: query.starting_after, state: query.state });
        if (!page) {
          throw new RequestValidationError([
            { loc: ["query", "starting_after"], msg: "Not a job of yours that is still listed", type: "unknown_cursor", input: query.starting_after ?? null, ctx: {} },
          ]);
        }
        return { jobs: page.jobs, has_more: page.hasMore };
      },
      {
        query: JobListQuery,
        response: { 200: JobList, ...keyAuthErrors },
        detail: {
          summary: "List your parse jobs",
          description:
            "The calling key's owner's jobs (all of the owner's keys), newest first. Paged as Stripe's lists: `limit` (1-100, default 10), then `starting_after` = the last job_id of the page to get the next, while `has_more` is true. `state` filters (queued, running, done, failed). A job is listed for 24 h after it was created or ended (longer if JOB_RESULT_TTL_S is longer), whatever became of its result; its result itself is held JOB_RESULT_TTL_S. Sync parses are not listed.",
        },
      },
    )
    .get(
      "/v1/parse/jobs/:id",
      async ({ params, caller, set }) =>
        // Serialised by the job, like the sync endpoint's body, so the snapshot's `result` is byte-for-byte
        // the ParseResponse (additive engine fields included) and a large result is not re-validated per poll.
        snapshotResponse(await (await jobs.find(params.id, caller.owner)).snapshotBody(), set.headers as Record<string, string>),
      {
        params: JobParams,
        response: { 200: JobSnapshot, 404: ErrorEnvelope, ...keyAuthErrors },
        detail: {
          summary: "Poll a parse job",
          description:
            "The job snapshot. Only the owner of the key that created the job sees it; anyone else gets 404 not_found, as for an unknown job. A job the server held and has since swept (JOB_RESULT_TTL_S) gets 404 job_expired.",
        },
      },
    )
    .delete(
      "/v1/parse/jobs/:id",
      async ({ params, caller, set }) => snapshotResponse(await (await jobs.cancel(params.id, caller.owner)).snapshotBody(), set.headers as Record<string, string>),
      {
        params: JobParams,
        response: { 200: JobSnapshot, 404: ErrorEnvelope, 409: ErrorEnvelope, ...keyAuthErrors },
        detail: {
          summary: "Cancel a parse job",
          description:
            "Cancels a queued or running job of the calling key's owner: its worker task is aborted, the job ends failed with error_class job_cancelled (200, the snapshot), its stream ends with that envelope as the `result` event, and the parse is not counted. 409 job_finished when the job has already finished; 404 as for polling.",
        },
      },
    )
    .get(
      "/v1/parse/jobs/:id/result",
      async ({ params, query, caller, set }) => {
        const job = await jobs.find(params.id, caller.owner);
        const kept = await job.outcome();
        if (job.state !== "done" || !kept) throw notFound(job.state === "failed" ? "The job failed; its snapshot has the error" : "The job has not finished yet");
        const format = query.format ?? (job.kind === "xlsx" ? "xlsx" : undefined);
        // Insights are made from the kept parse when it is read (docs/insights.md): never a second parse.
        const insights = query.include === "insights" || (await jobIncludesInsights(db, job.id));
        const outcome = insights ? await insightsAs(kept, format ?? (job.kind === "csv" ? "csv" : "json")) : format ? await resultAs(kept, format) : kept;
        if (!outcome) {
          throw new RequestValidationError([
            insights && query.format === undefined
              ? { loc: ["query", "include"], msg: "A redact job has no parse to explain; fetch it without `include`, or submit a json or csv job", type: "redact_job", input: "insights", ctx: {} }
              : { loc: ["query", "format"], msg: "A redact job has no parse to convert; fetch it without `format`, or submit a json or csv job", type: "redact_job", input: query.format ?? null, ctx: {} },
          ]);
        }
        const headers: Record<string, string> = { ...(set.headers as Record<string, string>) };
        if (job.sample) headers["x-sample"] = "true";
        return resultResponse(outcome, headers);
      },
      {
        params: JobParams,
        query: ResultQuery,
        response: { 200: ParseResult, 404: ErrorEnvelope, ...keyAuthErrors },
        detail: {
          summary: "Download a job's result",
          description:
            "The ParseResponse (application/json), the CSV (text/csv), the Excel workbook (format=xlsx jobs) or the redacted document (its own content type, X-Redactions header). `format=json|csv|xlsx` returns a finished parse in any of the three formats, whatever the job was submitted with, without parsing or counting again (422 for a redact job). 404 until the job is done, and after its result is swept (JOB_RESULT_TTL_S; error_class job_expired while the server remembers the id).",
        },
      },
    );

  return new Elysia({ name: "parse-jobs" }).use(stream).use(authed);
};
