/**
 * `parse FILE...`: runs the engine in this process (no server, no database) and writes JSON, CSV
 * or the redacted document. One file with no --out and no --redact goes to stdout; otherwise each
 * result is written next to its input or into --out.
 */
import { mkdir, readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { Progress } from "../engine/types.ts";
import { AppError } from "../errors.ts";
import { DOCUMENT_FLAGS, EXIT_OK, EXIT_PARSE_FAILED, oneOf, parseFlags, UsageError } from "./args.ts";
import { collectInputs, OutputPlan, readStdin, STDIN, writeOutput } from "./files.ts";
import { PARSE_HELP } from "./help.ts";
import type { Io } from "./io.ts";
import { LineProgress } from "./progress.ts";

/** A parse that takes longer than this shows the bar even when it was not forced, ms. */
const SHOW_BAR_AFTER_MS = 400;

export async function parseCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(args, DOCUMENT_FLAGS);
  if (values.help) {
    io.stdout.write(`${PARSE_HELP}\n`);
    return EXIT_OK;
  }
  const format = oneOf("format", values.format, ["json", "csv"] as const, "json");
  if (positionals.length === 0) throw new UsageError("parse needs at least one FILE");
  if (values.redact && values.format !== undefined) throw new UsageError("--redact writes the document itself; it cannot be combined with --format");
  const files = await collectInputs(positionals);
  if (files.length === 0) throw new UsageError("no statement files (.pdf, .xlsx, .xls) found");
  if (files.some((f) => f.path === STDIN) && files.length > 1) throw new UsageError("- (standard input) must be the only FILE");
  if (files[0]?.path === STDIN && values.redact && values.out === undefined) throw new UsageError("--redact of standard input needs --out DIR");
  const toStdout = files.length === 1 && values.out === undefined && !values.redact;
  if (values.out !== undefined) await mkdir(values.out, { recursive: true });
  // The engine (pdf.js, exceljs, pdf-lib) loads only once the command line is known to be good.
  const [{ parseStatement, toCsv }, { redactDocument }] = await Promise.all([import("../engine/index.ts"), import("../engine/redact/index.ts")]);
  const plan = new OutputPlan(files, values.out);
  const barMode = values.quiet ? "off" : values.progress ? "on" : io.stderr.isTTY ? "delayed" : "off";

  let failed = 0;
  for (const input of files) {
    const file = input.path;
    const bytes = file === STDIN ? await readStdin() : new Uint8Array(await readFile(file));
    const bar = new LineProgress(io.stderr, basename(file));
    const startedAt = Date.now();
    const onProgress = (p: Progress) => {
      if (barMode === "on" || (barMode === "delayed" && Date.now() - startedAt > SHOW_BAR_AFTER_MS)) bar.update(p);
    };
    try {
      if (values.redact) {
        const r = await redactDocument(bytes, { password: values.password, bank: values.bank });
        const path = plan.path(input, "redact", r.contentType);
        await writeOutput(path, r.bytes);
        bar.done();
        io.stderr.write(`${file}: ${r.redactions} redactions -> ${path}\n`);
        continue;
      }
      const response = await parseStatement(bytes, { password: values.password, bank: values.bank, onProgress });
      bar.done();
      const text = format === "csv" ? toCsv(response) : `${JSON.stringify(response, null, 2)}\n`;
      if (toStdout) {
        io.stdout.write(text);
      } else {
        const path = plan.path(input, format);
        await writeOutput(path, text);
        const reconciled = response.row_wise_reconcilable ? "reconciled" : "NOT reconciled";
        io.stderr.write(`${file}: ${response.transactions.length} transactions, ${reconciled} -> ${path}\n`);
      }
    } catch (e) {
      bar.done();
      failed++;
      io.stderr.write(`${file}: ${describe(e)}\n`);
    }
  }
  return failed > 0 ? EXIT_PARSE_FAILED : EXIT_OK;
}

function describe(e: unknown): string {
  if (e instanceof AppError) return `${e.errorClass}: ${e.message}${e.markerCoverage ? ` (marker coverage ${e.markerCoverage}%)` : ""}`;
  return `internal_error: ${e instanceof Error ? e.message : String(e)}`;
}
