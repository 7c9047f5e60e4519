import type { Config } from "../config.ts";
import type { Caller } from "../db/keys.ts";
import { AppError, payloadTooLarge, uploadAborted, uploadPastDeadline, uploadTimeout } from "../errors.ts";
import type { Hold } from "../jobs/gate.ts";
import type { Metering } from "../metering/types.ts";
import type { Upload } from "../jobs/service.ts";
import type { ResultKind } from "../jobs/tasks.ts";
import { checkBankField } from "./bank-field.ts";
import { RequestValidationError, type ValidationDetail } from "./errors.ts";

/** Room for the multipart boundaries and the small fields around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const BANK_MAX = 64;
const PASSWORD_MAX = 1024;
/** Issue 27: the caller's label of a job, and where its completion callback goes. */
const CLIENT_REFERENCE_MAX = 200;
const CALLBACK_URL_MAX = 2048;

const tooLarge = (maxBytes: number) => payloadTooLarge(`The uploaded file is larger than ${maxBytes} bytes`);

const problem = (loc: string[], msg: string, type: string, input: unknown = null, ctx: Record<string, unknown> = {}): ValidationDetail => ({
  loc,
  msg,
  type,
  input: input ?? null,
  ctx,
});

export interface ReadOptions {
  /** Cut the upload with 408 upload_timeout when no byte arrives for this long, ms. */
  idleTimeoutMs?: number;
  /** Cut the upload with 408 upload_timeout when it has not ended this long after it began, ms. */
  deadlineMs?: number;
  /** Told when an upload is aborted or cut (the warn log line). */
  onCut?: (e: AppError) => void;
}

export interface ReceiveOptions extends Omit<ReadOptions, "idleTimeoutMs" | "deadlineMs"> {
  /** Admission's own refusals (402, 422 first-party IP), checked before anything is held. */
  metering?: Pick<Metering, "precheck">;
}

/**
 * Admission before the upload is read (issues 15 and 29): what admission would refuse anyway (no
 * subscription, no first-party IP header) is refused first, holding nothing; then the key's
 * in-flight place and the upload's declared bytes (within the server's budget and the owner's
 * share of it) are taken from the gate, so a caller past its limit, or a server already holding
 * MAX_INFLIGHT_UPLOAD_BYTES, is refused before a byte of the body is buffered. The hold travels
 * with the upload and is given back when its parse ends, or here when reading fails. However
 * steadily it sends, the upload must end within UPLOAD_DEADLINE_S.
 */
export async function receiveUpload(
  holder: { hold(caller: Caller, bytes: number): Hold | Promise<Hold> },
  caller: Caller,
  request: Request,
  config: Pick<Config, "MAX_UPLOAD_BYTES" | "UPLOAD_IDLE_TIMEOUT_S" | "UPLOAD_DEADLINE_S">,
  { metering, ...options }: ReceiveOptions = {},
): Promise<Upload> {
  const limit = config.MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES;
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limit) throw tooLarge(config.MAX_UPLOAD_BYTES);
  await metering?.precheck?.(caller, request);
  // Without a declared length the upload may be as large as the limit, so that much is held.
  // Sync parses hold in this process's gate; jobs in the job backend's (cluster-wide with Redis).
  const hold: Hold = await holder.hold(caller, declared ?? limit);
  try {
    const upload = await readUpload(request, config.MAX_UPLOAD_BYTES, {
      ...options,
      idleTimeoutMs: config.UPLOAD_IDLE_TIMEOUT_S * 1000,
      deadlineMs: config.UPLOAD_DEADLINE_S * 1000,
    });
    // Inside the try: a refused field must give the hold back like any other refusal.
    checkBankField(upload);
    return { ...upload, hold };
  } catch (e) {
    hold.release();
    throw e;
  }
}

function declaredLength(request: Request): number | undefined {
  const raw = request.headers.get("content-length");
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw);
}

/**
 * Reads and validates a parse upload (SPEC 4.1): multipart `pdf` file (required), `bank`,
 * `password`, `redact` ("true"/"false"), `ocr` ("on"/"off") and query `format` (json | csv | xlsx). Every problem is listed in
 * one 422 validation body. Size is refused from Content-Length before anything is read, and again
 * while reading when the length is not declared. The bytes stay in memory.
 */
export async function readUpload(request: Request, maxBytes: number, options: ReadOptions = {}): Promise<Upload> {
  const detail: ValidationDetail[] = [];
  const format = new URL(request.url).searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "csv" && format !== "xlsx") {
    detail.push(problem(["query", "format"], "Input should be 'json', 'csv' or 'xlsx'", "enum", format, { expected: "'json', 'csv' or 'xlsx'" }));
  }

  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new RequestValidationError([
      ...detail,
      problem(["body"], "Content-Type must be multipart/form-data with a `pdf` file field", "content_type", type || null, { expected: "multipart/form-data" }),
    ]);
  }
  const declared = declaredLength(request);
  if (declared !== undefined && declared > maxBytes + FORM_OVERHEAD_BYTES) throw tooLarge(maxBytes);

  let form: FormData;
  let body: Uint8Array<ArrayBuffer> | undefined = await readLimited(request, Math.min(declared ?? Number.POSITIVE_INFINITY, maxBytes + FORM_OVERHEAD_BYTES), options);
  try {
    form = await new Response(body, { headers: { "content-type": type } }).formData();
    // The form holds its own copy of the file; the raw body can go now.
    body = undefined;
  } catch (e) {
    if (!(e instanceof TypeError) && !(e instanceof SyntaxError)) throw e;
    throw new RequestValidationError([...detail, problem(["body"], "The multipart body could not be parsed", "multipart_invalid")]);
  }

  const file = form.get("pdf");
  if (file === null) detail.push(problem(["body", "pdf"], "Field required", "missing"));
  else if (typeof file === "string") detail.push(problem(["body", "pdf"], "Expected a file upload", "file_type", file.slice(0, 100)));
  else if (file.size === 0) detail.push(problem(["body", "pdf"], "The uploaded file is empty", "file_empty"));
  else if (file.size > maxBytes) throw tooLarge(maxBytes);

  const bank = textField(form, "bank", BANK_MAX, detail);
  const password = textField(form, "password", PASSWORD_MAX, detail, false);
  const clientReference = textField(form, "client_reference", CLIENT_REFERENCE_MAX, detail);
  const callbackUrl = textField(form, "callback_url", CALLBACK_URL_MAX, detail);
  const redactRaw = textField(form, "redact", 5, detail);
  if (redactRaw !== undefined && redactRaw !== "true" && redactRaw !== "false") {
    detail.push(problem(["body", "redact"], "Input should be 'true' or 'false'", "enum", redactRaw, { expected: "'true' or 'false'" }));
  }
  const redact = redactRaw === "true";
  // `ocr=off`: a scanned PDF is refused (scanned_document) rather than read by OCR.
  const ocrRaw = textField(form, "ocr", 3, detail);
  if (ocrRaw !== undefined && ocrRaw !== "on" && ocrRaw !== "off") {
    detail.push(problem(["body", "ocr"], "Input should be 'on' or 'off'", "enum", ocrRaw, { expected: "'on' or 'off'" }));
  }
  if (redact && format !== "json") {
    detail.push(problem(["query", "format"], `redact=true returns the redacted document; it cannot be combined with format=${format}`, "conflict", format));
  }
  if (detail.length > 0 || !(file instanceof Blob)) throw new RequestValidationError(detail);

  const kind: ResultKind = redact ? "redact" : (format as "json" | "csv" | "xlsx");
  return {
    bytes: new Uint8Array(await file.arrayBuffer()),
    kind,
    ...(bank ? { bank } : {}),
    ...(password ? { password } : {}),
    ...(clientReference ? { clientReference } : {}),
    ...(callbackUrl ? { callbackUrl } : {}),
    ...(ocrRaw === "off" ? { ocr: false } : {}),
  };
}

/** An optional text field: absent or empty means unset; a file, control characters or too long is a problem. */
function textField(form: FormData, name: string, max: number, detail: ValidationDetail[], trim = true): string | undefined {
  const v = form.get(name);
  if (v === null) return undefined;
  if (typeof v !== "string") {
    detail.push(problem(["body", name], "Expected a text field, not a file", "string_type"));
    return undefined;
  }
  if (v.length > max) {
    detail.push(problem(["body", name], `String should have at most ${max} characters`, "string_too_long", v.slice(0, 100), { max_length: max }));
    return undefined;
  }
  if (/[\u0000-\u001f\u007f]/.test(v)) {
    detail.push(problem(["body", name], "Must not contain control characters", "string_pattern_mismatch", null));
    return undefined;
  }
  // Passwords keep their spaces; labels do not.
  if (v.trim() === "") return undefined;
  return trim ? v.trim() : v;
}

/**
 * The body, counted while it arrives: more than `limit` bytes (the declared length, or the size
 * limit) stops reading at once. A connection closed mid-body is 400 upload_aborted; no byte for
 * `idleTimeoutMs`, or no end `deadlineMs` after the first read, is 408 upload_timeout. Either way
 * the reader is cancelled, so nothing more is read.
 */
async function readLimited(request: Request, limit: number, { idleTimeoutMs, deadlineMs, onCut }: ReadOptions): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  // With a declared length the body goes straight into one buffer of that size (no chunk list
  // concatenated at the end, which held the upload twice); without one it grows by doubling.
  let buf = new Uint8Array(Number.isFinite(limit) && declaredLength(request) !== undefined ? limit : Math.min(limit, 1024 * 1024));
  let size = 0;
  const cut = (e: AppError): AppError => {
    reader.cancel().catch(() => {});
    onCut?.(e);
    return e;
  };
  const endBy = deadlineMs === undefined ? undefined : performance.now() + deadlineMs;
  for (;;) {
    let r: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>;
    try {
      r = await readWithin(reader, idleTimeoutMs, endBy === undefined ? undefined : { at: endBy, seconds: deadlineMs! / 1000 });
    } catch (e) {
      if (e instanceof AppError) throw cut(e);
      throw cut(uploadAborted(e));
    }
    if (r.done) break;
    if (size + r.value.byteLength > limit) {
      reader.cancel().catch(() => {});
      throw payloadTooLarge(`The request body is larger than ${limit} bytes (its declared length or the upload limit)`);
    }
    if (size + r.value.byteLength > buf.byteLength) {
      const grown = new Uint8Array(Math.min(limit, Math.max(buf.byteLength * 2, size + r.value.byteLength)));
      grown.set(buf.subarray(0, size));
      buf = grown;
    }
    buf.set(r.value, size);
    size += r.value.byteLength;
  }
  return size === buf.byteLength ? buf : buf.subarray(0, size);
}

/** One read, or 408 upload_timeout after `idleMs` without a byte or once the deadline is reached. */
async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  idleMs: number | undefined,
  deadline?: { at: number; seconds: number },
): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>> {
  if (idleMs === undefined && deadline === undefined) return reader.read();
  const left = deadline === undefined ? Number.POSITIVE_INFINITY : Math.max(0, deadline.at - performance.now());
  const pastDeadline = left < (idleMs ?? Number.POSITIVE_INFINITY);
  const cut = pastDeadline ? () => uploadPastDeadline(deadline!.seconds) : () => uploadTimeout(idleMs! / 1000);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(cut()), pastDeadline ? left : idleMs);
  });
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}
