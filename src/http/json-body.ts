import { payloadTooLarge } from "../errors.ts";
import { RequestValidationError } from "./errors.ts";

/** Small JSON bodies (keys, billing): anything larger is not a mistake worth parsing. */
export const DEFAULT_JSON_BODY_LIMIT = 16 * 1024;

/**
 * `parse` and `transform` hooks for JSON endpoints, to spread into a route's options:
 * `{ ...jsonBody(), body: Schema }`. Body problems answer like schema problems, with the 422
 * validation body (loc ["body"]), as FastAPI-style clients expect: a wrong or missing Content-Type
 * (type `content_type`), an empty body (`missing`) and malformed JSON (`json_invalid`). A body over
 * the limit is 413 payload_too_large, refused from Content-Length before reading, or while reading
 * when the length is not declared.
 */
export const jsonBody = (maxBytes = DEFAULT_JSON_BODY_LIMIT) => ({
  parse: [
    async ({ request }: { request: Request }): Promise<unknown> => {
      try {
        return await readJson(request, maxBytes);
      } catch (e) {
        // Parsing runs before authentication in Elysia's lifecycle; hold the refusal until the
        // transform stage so an unauthenticated caller gets 401, not a remark about its body.
        return new BodyRejection(e);
      }
    },
    // Never reached (the function above always answers); names the media type for /openapi.json.
    "application/json" as const,
  ],
  transform: ({ body }: { body: unknown }) => {
    if (body instanceof BodyRejection) throw body.error;
  },
});

/** A body refused while parsing, carried to the transform stage (see jsonBody). */
class BodyRejection {
  constructor(readonly error: unknown) {}
}

async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get("content-type");
  const mediaType = type?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json" && !mediaType?.endsWith("+json")) {
    throw bodyError("Content-Type must be application/json", "content_type", type, { expected: "application/json" });
  }
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readLimited(request, maxBytes);
  if (text.trim() === "") throw bodyError("Field required", "missing", null);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw bodyError("JSON decode error", "json_invalid", null, { error: (e as Error).message });
  }
}

const tooLarge = (maxBytes: number) => payloadTooLarge(`The request body is larger than ${maxBytes} bytes`);

function bodyError(msg: string, type: string, input: unknown, ctx: Record<string, unknown> = {}) {
  return new RequestValidationError([{ loc: ["body"], msg, type, input: input ?? null, ctx }]);
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    size += r.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(r.value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
