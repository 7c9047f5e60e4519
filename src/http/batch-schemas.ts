import { z } from "zod";
import { idPattern } from "../ids.ts";
import { uploadRequestBody } from "./upload-schema.ts";
import { ErrorClassEnum, IsoDateTime, JobState, ResultKind } from "./schemas.ts";

/** Issue 27: the jobs list, Idempotency-Key and the callback signing secret, as published in /openapi.json. */

export const idempotencyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
  description:
    "Any unique string (a UUID): the same key with the same request (file and every field) within 24 h answers what the first request answered, without parsing or counting again (response header Idempotent-Replayed: true). The same key with a different request: 409 idempotency_key_reused.",
  example: "5f0c2d1e-8b7a-4c3d-9e2f-1a2b3c4d5e6f",
};

/** POST /v1/parse/jobs: the parse upload plus the job's own fields. */
export const jobRequestBody = {
  ...uploadRequestBody,
  content: {
    "multipart/form-data": {
      schema: {
        ...uploadRequestBody.content["multipart/form-data"].schema,
        properties: {
          ...uploadRequestBody.content["multipart/form-data"].schema.properties,
          client_reference: { type: "string", maxLength: 200, description: "Your own label for the job (a loan application id, a file name), shown in its snapshot and in the jobs list" },
          callback_url: {
            type: "string",
            format: "uri",
            maxLength: 2048,
            description:
              "https URL the final snapshot is POSTed to when the job ends, signed in the Stp-Signature header (t=…,v1=HMAC-SHA256). Public addresses only unless CALLBACK_ALLOWED_HOSTS lists the host; the owner needs a signing secret (POST /v1/admin/callback-secret). docs/batch.md",
          },
        },
      },
    },
  },
};

export const JobListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(10).describe("Jobs per page, 1-100"),
  starting_after: z
    .string()
    .regex(idPattern("job"), "must be a job id (job_ followed by 22 letters or digits)")
    .optional()
    .describe("The last job_id of the previous page: this page holds the older jobs after it"),
  state: JobState.optional().describe("Only jobs in this state"),
});

export const CallbackState = z.enum(["pending", "delivered", "failed"]);

export const JobListing = z
  .object({
    job_id: z.string(),
    state: JobState,
    result_kind: ResultKind,
    client_reference: z.string().nullable().describe("The label given at creation, or null"),
    error_class: ErrorClassEnum.nullable().describe("Set once the job failed"),
    sample: z.boolean().describe("The canned sample was returned instead of a parse"),
    callback_state: CallbackState.nullable().describe("Completion callback: pending, delivered or failed; null without callback_url"),
    created_at: IsoDateTime,
    finished_at: IsoDateTime.nullable(),
  })
  .meta({ id: "JobListing" });

export const JobList = z
  .object({
    jobs: z.array(JobListing).describe("Newest first"),
    has_more: z.boolean().describe("More (older) jobs follow: ask again with starting_after = the last job_id here"),
  })
  .meta({ id: "JobList" });

export const CallbackSecretBody = z.strictObject({ owner: z.string().min(1).max(200).describe("The owner whose callbacks the secret signs") });

export const CallbackSecretIssued = z
  .object({
    owner: z.string(),
    secret: z.string().describe("whsec_…: shown this once; verify callbacks' Stp-Signature with it"),
    created_at: IsoDateTime,
    previous_valid_until: IsoDateTime.nullable().describe("After a rotation: the previous secret also signs (a second v1=) until then"),
  })
  .meta({ id: "CallbackSecret" });
