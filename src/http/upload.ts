import { payloadTooLarge } from "../errors.ts";
import type { Upload } from "../jobs/service.ts";
import type { ResultKind } from "../jobs/tasks.ts";
import { RequestValidationError, type ValidationDetail } from "./errors.ts";

/** Room for the multipart boundaries and the small fields around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const BANK_MAX = 64;
const PASSWORD_MAX = 1024;

const tooLarge = (maxBytes: number) => payloadTooLarge(`The uploaded file is larger than ${maxBytes} bytes`);

const problem = (loc: string[], msg: string, type: string, input: unknown = null, ctx: Record<string, unknown> = {}): ValidationDetail => ({
  loc,
  msg,
  type,
  input: input ?? null,
  ctx,
});

/**
 * Reads and validates a parse upload (SPEC 4.1): multipart `pdf` file (required), `bank`,
 * `password`, `redact` ("true"/"false") and query `format` (json | csv). Every problem is listed in
 * one 422 validation body. Size is refused from Content-Length before anything is read, and again
 * while reading when the length is not declared. The bytes stay in memory.
 */
export async function readUpload(request: Request, maxBytes: number): Promise<Upload> {
  const detail: ValidationDetail[] = [];
  const format = new URL(request.url).searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "csv") {
    detail.push(problem(["query", "format"], "Input should be 'json' or 'csv'", "enum", format, { expected: "'json' or 'csv'" }));
  }

  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new RequestValidationError([
      ...detail,
      problem(["body"], "Content-Type must be multipart/form-data with a `pdf` file field", "content_type", type || null, { expected: "multipart/form-data" }),
    ]);
  }
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes + FORM_OVERHEAD_BYTES) throw tooLarge(maxBytes);

  let form: FormData;
  try {
    const body = await readLimited(request, maxBytes + FORM_OVERHEAD_BYTES);
    form = await new Response(body, { headers: { "content-type": type } }).formData();
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
  const redactRaw = textField(form, "redact", 5, detail);
  if (redactRaw !== undefined && redactRaw !== "true" && redactRaw !== "false") {
    detail.push(problem(["body", "redact"], "Input should be 'true' or 'false'", "enum", redactRaw, { expected: "'true' or 'false'" }));
  }
  const redact = redactRaw === "true";
  if (redact && format === "csv") {
    detail.push(problem(["query", "format"], "redact=true returns the redacted document; it cannot be combined with format=csv", "conflict", format));
  }
  if (detail.length > 0 || !(file instanceof Blob)) throw new RequestValidationError(detail);

  const kind: ResultKind = redact ? "redact" : (format as "json" | "csv");
  return {
    bytes: new Uint8Array(await file.arrayBuffer()),
    kind,
    ...(bank ? { bank } : {}),
    ...(password ? { password } : {}),
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

async function readLimited(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    size += r.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge(`The request body is larger than ${limit} bytes`);
    }
    chunks.push(r.value);
  }
  return Buffer.concat(chunks);
}
