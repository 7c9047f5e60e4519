import { createHash } from "node:crypto";
import { claimIdempotency, type IdempotentEndpoint, releaseIdempotency, settleIdempotency } from "../db/idempotency.ts";
import type { Queryable } from "../db/client.ts";
import { idempotencyInProgress, idempotencyKeyReused } from "../errors.ts";
import type { Upload } from "../jobs/service.ts";
import { RequestValidationError } from "./errors.ts";

export const IDEMPOTENCY_HEADER = "idempotency-key";
/** Set on an answer replayed from an earlier request with the same Idempotency-Key. */
export const REPLAYED_HEADER = "idempotent-replayed";

/** Printable ASCII, 1-255 characters (a UUID is the usual choice). */
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** The request's Idempotency-Key, if any; 422 for one of the wrong shape. */
export function idempotencyKeyOf(headers: Headers): string | undefined {
  const key = headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return undefined;
  if (!KEY_SHAPE.test(key)) {
    throw new RequestValidationError([
      { loc: ["header", "Idempotency-Key"], msg: "Must be 1-255 printable ASCII characters without spaces (a UUID, say)", type: "string_pattern_mismatch", input: key.slice(0, 100), ctx: {} },
    ]);
  }
  return key;
}

/**
 * What "the same request" means: the file's bytes and every option that changes the answer (format,
 * bank, password, redact, ocr, client_reference, callback_url: every field of the upload but its
 * bytes and admission hold, so an option added later counts too). The multipart boundary and field
 * order are not part of it, so a client retrying with a fresh boundary still matches.
 */
export function fingerprintOf(upload: Upload): string {
  const { bytes, hold: _hold, ...options } = upload;
  const fileHash = createHash("sha256").update(bytes).digest("hex");
  const fields = Object.entries(options)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256").update(JSON.stringify([fileHash, fields])).digest("hex");
}

export type Idempotent = { replayOf: string } | { claimed: { settle(): Promise<void>; release(): Promise<void> } };

/**
 * Claims `key` for this request under the job id `jobId`: a replay names the earlier job; the same
 * key with another request is 409 idempotency_key_reused; one still being admitted 409
 * idempotency_in_progress. A fresh claim is settled once the request is admitted, or released when
 * it is refused (so a retry runs).
 */
export async function claim(db: Queryable, owner: string, endpoint: IdempotentEndpoint, key: string, upload: Upload, jobId: string): Promise<Idempotent> {
  const c = await claimIdempotency(db, { owner, endpoint, key, fingerprint: fingerprintOf(upload), jobId });
  if (c.kind === "replay") return { replayOf: c.jobId };
  if (c.kind === "mismatch") throw idempotencyKeyReused();
  if (c.kind === "in_progress") throw idempotencyInProgress();
  return {
    claimed: {
      settle: () => settleIdempotency(db, owner, endpoint, key),
      release: () => releaseIdempotency(db, owner, endpoint, key),
    },
  };
}
