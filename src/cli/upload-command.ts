/**
 * `upload DIR|FILE... --url URL --key KEY`: sends statements to a server as jobs through the typed
 * client, N at a time, follows each job's SSE stream for progress, writes each result next to its
 * input or into --out, and ends with a summary on stdout whose last line is "N parsed, M failed".
 * Ctrl-C (SIGINT) cancels the server jobs in flight (DELETE, so their workers stop and nothing is
 * counted), sends no further file, and exits 130 once every cancel has been answered; a second
 * Ctrl-C exits at once.
 */
import { mkdir, readFile } from "node:fs/promises";
import { basename } from "node:path";
import { ApiError, createClient, type Client } from "../client/index.ts";
import { DOCUMENT_FLAGS, EXIT_OK, EXIT_PARSE_FAILED, oneOf, parseFlags, positiveInt, UsageError } from "./args.ts";
import { collectInputs, type Input, type OutputKind, OutputPlan, STDIN, writeOutput } from "./files.ts";
import { UPLOAD_HELP } from "./help.ts";
import type { Io } from "./io.ts";
import { MultiProgress } from "./progress.ts";

/** Exit status after Ctrl-C: 128 + SIGINT, as shells report it. */
export const EXIT_INTERRUPTED = 130;

/** Retries of a 503/429 per request in a batch: a full queue is expected while a batch runs. */
const BATCH_MAX_RETRIES = 10;
const BATCH_MAX_RETRY_DELAY_MS = 120_000;

const SAMPLE_REASON =
  "sample_returned: the key is past its free monthly cap, so the service returned its canned sample instead of parsing (nothing written)";

export interface Outcome {
  file: string;
  ok: boolean;
  reason?: string;
  reconciled?: boolean;
  rows?: number;
  /** Redact jobs: how many items were removed. */
  redactions?: number;
  pages: number;
  out?: string;
  /** The server refused the key (401/403): the batch stops. */
  refused?: boolean;
  /** Stopped by Ctrl-C (its job cancelled on the server): neither parsed nor failed. */
  cancelled?: boolean;
}

export async function uploadCommand(args: string[], io: Io, env: Record<string, string | undefined> = process.env): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    ...DOCUMENT_FLAGS,
    url: { type: "string" },
    key: { type: "string" },
    concurrency: { type: "string" },
  } as const);
  if (values.help) {
    io.stdout.write(`${UPLOAD_HELP}\n`);
    return EXIT_OK;
  }
  const format = oneOf("format", values.format, ["json", "csv"] as const, "json");
  const concurrency = positiveInt("concurrency", values.concurrency, 2);
  const key = values.key ?? env.STATEMENT_API_KEY;
  if (!values.url || !/^https?:\/\//.test(values.url)) throw new UsageError("--url must be given as an http(s) URL");
  if (!key) throw new UsageError("--key (or STATEMENT_API_KEY) must be given");
  if (values.redact && values.format !== undefined) throw new UsageError("--redact saves the document itself; it cannot be combined with --format");
  if (positionals.length === 0) throw new UsageError("upload needs at least one DIR or FILE");
  if (positionals.includes(STDIN)) throw new UsageError("upload takes files and directories, not - (standard input)");
  const files = await collectInputs(positionals);
  if (files.length === 0) throw new UsageError("no statement files (.pdf, .xlsx, .xls) found");
  if (values.out !== undefined) await mkdir(values.out, { recursive: true });

  const progress = new MultiProgress(io.stderr, files.length, values.quiet ? false : Boolean(values.progress));
  const client = createClient({
    baseUrl: values.url,
    apiKey: key,
    maxRetries: BATCH_MAX_RETRIES,
    maxRetryDelayMs: BATCH_MAX_RETRY_DELAY_MS,
    onRetry: (r) => {
      if (!values.quiet) progress.note(`${r.status} ${r.errorClass} on ${r.path}: retry ${r.attempt} in ${(r.delayMs / 1000).toFixed(1)} s`);
    },
  });
  const kind: OutputKind = values.redact ? "redact" : format;
  const startedAt = performance.now();
  const outcomes: Outcome[] = [];

  const plan = new OutputPlan(files, values.out);
  const interrupt = onInterrupt(io);
  let next = 0;
  // A refused key fails every file the same way: stop sending at the first 401/403.
  let refused: string | undefined;
  const worker = async () => {
    while (next < files.length && !refused && !interrupt.signal.aborted) {
      const input = files[next++] as Input;
      const file = input.path;
      const outcome = await uploadOne(client, input, kind, plan, { password: values.password, bank: values.bank, signal: interrupt.signal }, (p) => {
        if (!values.quiet) progress.update(basename(file), p);
      }, (jobId) => {
        if (!values.quiet) progress.note(`${basename(file)}: job ${jobId}`);
      });
      outcomes.push(outcome);
      if (outcome.refused) refused ??= outcome.reason;
      if (!values.quiet) progress.finish(basename(file), describe(outcome));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  } finally {
    progress.close();
    interrupt.dispose();
  }
  const unsent = files.slice(next);
  if (interrupt.signal.aborted) for (const input of unsent) outcomes.push({ file: input.path, ok: false, cancelled: true, reason: "not sent: interrupted", pages: 0 });
  else for (const input of unsent) outcomes.push({ file: input.path, ok: false, reason: `not sent: the key was refused (${refused})`, pages: 0 });
  const seconds = (performance.now() - startedAt) / 1000;
  io.stdout.write(summary(outcomes, seconds));
  if (interrupt.signal.aborted) return EXIT_INTERRUPTED;
  return outcomes.some((o) => !o.ok) ? EXIT_PARSE_FAILED : EXIT_OK;
}

/**
 * Ctrl-C as an abort signal for the batch. The first SIGINT aborts (the client then cancels each
 * job it created); a second one, for a user who will not wait for the cancels, exits at once.
 */
function onInterrupt(io: Io): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    io.stderr.write("interrupted: cancelling the jobs in flight (Ctrl-C again to quit at once)\n");
    controller.abort(new Error("interrupted"));
  };
  process.on("SIGINT", handler);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", handler) };
}

async function uploadOne(
  client: Client,
  input: Input,
  kind: OutputKind,
  plan: OutputPlan,
  o: { password?: string; bank?: string; signal: AbortSignal },
  onProgress: (p: { stage: string; current: number; total: number }) => void,
  onCreated: (jobId: string) => void,
): Promise<Outcome> {
  const file = input.path;
  let pages = 0;
  try {
    const bytes = new Uint8Array(await readFile(file));
    const events = client.parseJob(bytes, {
      filename: basename(file),
      format: kind === "csv" ? "csv" : "json",
      redact: kind === "redact",
      password: o.password,
      bank: o.bank,
      signal: o.signal,
      clientReference: referenceOf(input),
    });
    for await (const ev of events) {
      if (ev.type === "created") onCreated(ev.jobId);
      else if (ev.type === "progress") {
        // The page count is the largest total a page-wise stage reported.
        if (/page|extract/i.test(ev.stage)) pages = Math.max(pages, ev.total);
        onProgress(ev);
      } else if (ev.type === "result") {
        if (ev.kind !== "redact" && ev.sample) {
          // Nothing of this document was read: writing the canned statement next to it would mislead.
          return { file, ok: false, reason: SAMPLE_REASON, pages };
        }
        if (ev.kind === "json") {
          const out = plan.path(input, "json");
          await writeOutput(out, `${JSON.stringify(ev.result, null, 2)}\n`);
          return { file, ok: true, reconciled: ev.result.row_wise_reconcilable, rows: ev.result.transactions.length, pages, out };
        }
        const got = await client.result(ev.jobId, { signal: o.signal });
        const out = plan.path(input, kind, got.contentType);
        await writeOutput(out, got.kind === "csv" ? got.text : got.kind === "redact" ? got.bytes : JSON.stringify(got.data));
        if (ev.kind === "redact") return { file, ok: true, redactions: ev.redacted.redactions, pages, out };
        return { file, ok: true, reconciled: ev.result.row_wise_reconcilable, rows: ev.result.transactions.length, pages, out };
      }
    }
    return { file, ok: false, reason: "the job ended without a result", pages };
  } catch (e) {
    // parseJob has sent the DELETE for its job before rethrowing the abort.
    if (o.signal.aborted) return { file, ok: false, cancelled: true, reason: "cancelled: interrupted", pages };
    const reason = e instanceof ApiError ? `${e.errorClass}: ${e.message}` : `${(e as Error).message ?? String(e)}`;
    const refused = e instanceof ApiError && (e.status === 401 || e.status === 403);
    return { file, ok: false, reason, pages, refused };
  }
}

/** The file's path below its argument, as the job's client_reference (so the jobs list names the file): at most 200 characters, no control characters. */
const referenceOf = (input: Input): string => input.rel.replace(/[\u0000-\u001f\u007f]/g, "?").slice(-200);

function describe(o: Outcome): string {
  const name = basename(o.file);
  if (o.cancelled) return `CANCELLED ${name}: its job was cancelled on the server`;
  if (!o.ok) return `FAILED ${name}: ${o.reason}`;
  if (o.redactions !== undefined) return `ok ${name}: ${o.redactions} redactions -> ${o.out}`;
  return `ok ${name}: ${o.rows} rows, ${o.reconciled ? "reconciled" : "NOT reconciled"} -> ${o.out}`;
}

export function summary(unsorted: Outcome[], seconds: number): string {
  const outcomes = [...unsorted].sort((a, b) => a.file.localeCompare(b.file));
  const parsed = outcomes.filter((o) => o.ok);
  const cancelled = outcomes.filter((o) => o.cancelled);
  const failed = outcomes.filter((o) => !o.ok && !o.cancelled);
  const checked = parsed.filter((o) => o.redactions === undefined);
  const reconciled = checked.filter((o) => o.reconciled).length;
  const pages = parsed.reduce((a, o) => a + o.pages, 0);
  const lines = [
    `parsed: ${parsed.length} of ${outcomes.length}`,
    `reconciled: ${reconciled}, not reconciled: ${checked.length - reconciled}`,
    ...checked.filter((o) => !o.reconciled).map((o) => `  not reconciled: ${o.file}`),
    `failed: ${failed.length}`,
    ...failed.map((o) => `  ${o.file}: ${o.reason}`),
    ...(cancelled.length > 0 ? [`cancelled: ${cancelled.length}`, ...cancelled.map((o) => `  ${o.file}: ${o.reason}`)] : []),
    `pages: ${pages} in ${seconds.toFixed(2)} s (${seconds > 0 ? (pages / seconds).toFixed(2) : "0.00"} pages/s)`,
    `${parsed.length} parsed, ${failed.length} failed${cancelled.length > 0 ? `, ${cancelled.length} cancelled` : ""}`,
  ];
  return `${lines.join("\n")}\n`;
}
