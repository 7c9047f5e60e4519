/**
 * Package entry: the typed client of the statement parsing service. The server itself starts from
 * src/main.ts; the command line is src/cli/main.ts.
 */
export { createClient } from "./client/index.ts";
export type { CallOptions, Client, ClientOptions, FetchLike, JobOptions, RetryInfo, StatementInput, UploadOptions } from "./client/index.ts";
export * from "./client/errors.ts";
export type * from "./client/types.ts";
export { readSse, SseParser, type SseMessage } from "./client/sse.ts";
