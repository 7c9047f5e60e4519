import { Elysia } from "elysia";
import { AppError, toAppError } from "../errors.ts";
import { FORMAT_VERSION } from "../version.ts";

/** SPEC 2.3 error envelope. */
export interface ErrorEnvelope {
  error: string;
  error_class: string;
  format_version: string;
  marker_coverage: number;
}

/** SPEC 2.4 validation body. */
export interface ValidationDetail {
  loc: string[];
  msg: string;
  type: string;
  input: unknown;
  ctx: Record<string, unknown>;
}

export function envelope(e: AppError): ErrorEnvelope {
  return { error: e.message, error_class: e.errorClass, format_version: FORMAT_VERSION, marker_coverage: e.markerCoverage };
}

/** Thrown by handlers that validate by hand (form fields, headers) to get the same 422 body. */
export class RequestValidationError extends Error {
  constructor(readonly detail: ValidationDetail[]) {
    super("validation failed");
  }
}

interface ZodLikeIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  [k: string]: unknown;
}

export function issuesToDetail(where: string, issues: readonly ZodLikeIssue[], value: unknown): ValidationDetail[] {
  return issues.map((i) => {
    const { code, path, message, input, ...ctx } = i;
    return {
      loc: [where, ...path.map(String)],
      msg: message,
      type: code,
      input: input ?? pick(value, path) ?? null,
      ctx: ctx as Record<string, unknown>,
    };
  });
}

function pick(value: unknown, path: PropertyKey[]): unknown {
  let v = value;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

interface SafeParser {
  safeParse(v: unknown): { success: boolean; error?: { issues: ZodLikeIssue[] } };
}

/**
 * The single place where every failure becomes a response: AppError → envelope with its status,
 * validation failures → 422 detail body, framework errors (NOT_FOUND, PARSE) → envelope.
 * Internal detail is logged by the caller-supplied hook and never sent.
 */
export const errorHandler = (
  options: {
    onInternal?: (e: unknown, request: Request) => void;
    /** Told of failures the client caused mid-request (an aborted or stalled upload): a warn line, not an error. */
    onClientFault?: (e: AppError, request: Request) => void;
  } = {},
) =>
  new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, set, request }) => {
    // The request's id (src/http/request-id.ts, set before routing) rides in every error body, so a
    // client reporting an error quotes what the server's log line carries.
    const id = (set.headers as Record<string, string | undefined>)["x-request-id"];
    const tagged = <T extends object>(body: T): T & { request_id?: string } => (id ? { ...body, request_id: id } : body);
    if (code === "VALIDATION") {
      set.status = 422;
      const where = error.type === "query" ? "query" : error.type === "params" ? "path" : error.type === "headers" ? "header" : "body";
      // Zod schemas reach Elysia wrapped as Standard Schema validators: the zod object is `.schema`
      // (the wrapper's own safeParse returns Elysia's shape, not zod issues).
      const v = error.validator as unknown as (Partial<SafeParser> & { schema?: Partial<SafeParser> }) | undefined;
      const parser = typeof v?.schema?.safeParse === "function" ? v.schema : typeof v?.safeParse === "function" ? v : undefined;
      const result = parser?.safeParse?.(error.value);
      const detail = result?.error
        ? issuesToDetail(where, result.error.issues, error.value)
        : [{ loc: [where], msg: error.message, type: "invalid", input: error.value ?? null, ctx: {} }];
      return tagged({ detail });
    }
    // A custom `parse` hook's own error reaches us wrapped in Elysia's ParseError.
    const cause = code === "PARSE" && error instanceof Error ? error.cause : undefined;
    const failure = cause instanceof AppError || cause instanceof RequestValidationError ? cause : error;
    if (failure instanceof RequestValidationError) {
      set.status = 422;
      return tagged({ detail: failure.detail });
    }
    if (code === "PARSE" && !(failure instanceof AppError)) {
      // Body problems answer like schema problems (SPEC 2.4), so clients handle one shape.
      set.status = 422;
      const json = request.headers.get("content-type")?.toLowerCase().includes("json") ?? false;
      const type = json ? "json_invalid" : "body_invalid";
      return tagged({ detail: [{ loc: ["body"], msg: "The request body could not be parsed", type, input: null, ctx: {} }] });
    }
    let app: AppError;
    if (failure instanceof AppError) app = failure;
    else if (code === "NOT_FOUND") app = new AppError("not_found", 404, "No such route");
    else if (code === "INVALID_FILE_TYPE") app = new AppError("unsupported_format", 422, "Unsupported file type");
    else {
      app = toAppError(error);
      options.onInternal?.(error, request);
    }
    if (app.errorClass === "upload_aborted" || app.errorClass === "upload_timeout") options.onClientFault?.(app, request);
    set.status = app.status;
    if (app.retryAfter !== undefined) set.headers["retry-after"] = String(app.retryAfter);
    return tagged(envelope(app));
  });
