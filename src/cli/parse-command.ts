/**
 * `parse FILE...`: runs the engine in this process (no server, no database). Results go to stdout
 * (one file: its JSON or CSV; several: JSON Lines, or one CSV with a single header, since the
 * columns are the same for every statement) unless `--out DIR` asks for one file per input there.
 * Nothing is written beside the inputs unasked. stderr ends with an "N parsed, M failed" line.
 */
import { mkdir, readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { ParseResponse, Progress } from "../engine/types.ts";
import { AppError } from "../errors.ts";
import { DOCUMENT_FLAGS, EXIT_OK, EXIT_PARSE_FAILED, oneOf, parseFlags, UsageError } from "./args.ts";
import { collectInputs, OutputPlan, readStdin, STDIN, writeOutput } from "./files.ts";
import { PARSE_HELP } from "./help.ts";
import { summaryTable } from "./summary.ts";
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
  if (values.redact && values.out === undefined) throw new UsageError("--redact writes documents: give --out DIR for them");
  // On a terminal, a person reads a summary; --format asks for the data itself.
  const summarise = Boolean(io.stdout.isTTY) && values.format === undefined && !values.redact;
  const toStdout = values.out === undefined && !values.redact && !summarise;
  if (values.bank !== undefined) await checkBank(values.bank);
  if (values.out !== undefined) await mkdir(values.out, { recursive: true });
  // The engine (pdf.js, exceljs, pdf-lib) loads only once the command line is known to be good.
  const [{ parseStatement, toCsv }, { redactDocument }] = await Promise.all([import("../engine/index.ts"), import("../engine/redact/index.ts")]);
  const plan = new OutputPlan(files, values.out);
  const barMode = values.quiet ? "off" : values.progress ? "on" : io.stderr.isTTY ? "delayed" : "off";
  const stdout = new StdoutResults(io, format, files.length > 1);

  let failed = 0;
  for (const input of files) {
    const file = input.path;
    const bar = new LineProgress(io.stderr, basename(file));
    const startedAt = Date.now();
    const onProgress = (p: Progress) => {
      if (barMode === "on" || (barMode === "delayed" && Date.now() - startedAt > SHOW_BAR_AFTER_MS)) bar.update(p);
    };
    try {
      const bytes = file === STDIN ? await readStdin() : new Uint8Array(await readFile(file));
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
      const saved = values.out === undefined ? undefined : plan.path(input, format);
      if (saved) await writeOutput(saved, format === "csv" ? toCsv(response) : `${JSON.stringify(response, null, 2)}\n`);
      if (summarise) {
        io.stdout.write(summaryTable({ file, response }) + (saved ? `  saved     ${saved}\n` : "  (--format json prints the data itself; --out DIR saves it)\n"));
      } else if (toStdout) {
        stdout.write(response, toCsv);
      } else {
        const reconciled = response.row_wise_reconcilable ? "reconciled" : "NOT reconciled";
        io.stderr.write(`${file}: ${response.transactions.length} transactions, ${reconciled} -> ${saved}\n`);
      }
    } catch (e) {
      bar.done();
      failed++;
      io.stderr.write(`${file}: ${describe(e, values.password !== undefined)}\n`);
    }
  }
  io.stderr.write(`${files.length - failed} parsed, ${failed} failed\n`);
  return failed > 0 ? EXIT_PARSE_FAILED : EXIT_OK;
}

/**
 * Results written to stdout: one JSON document (pretty) for one file, JSON Lines for several; CSV
 * with its header once, the later statements' rows stacked under it (CSV_HEADER is fixed).
 */
class StdoutResults {
  #csvHeaderWritten = false;

  constructor(private readonly io: Io, private readonly format: "json" | "csv", private readonly several: boolean) {}

  write(response: ParseResponse, toCsv: (r: ParseResponse) => string): void {
    if (this.format === "json") {
      this.io.stdout.write(this.several ? `${JSON.stringify(response)}\n` : `${JSON.stringify(response, null, 2)}\n`);
      return;
    }
    const csv = toCsv(response);
    this.io.stdout.write(this.#csvHeaderWritten ? csv.slice(csv.indexOf("\n") + 1) : csv);
    this.#csvHeaderWritten = true;
  }
}

/** The bank ids come from the engine's own list; the message names the command that prints it. */
async function checkBank(bank: string): Promise<void> {
  const { listBanks } = await import("../engine/index.ts");
  if (bank !== "unknown" && !listBanks().some((b) => b.id === bank)) {
    throw new UsageError(`--bank ${JSON.stringify(bank)} is not a bank id; "statement-parser banks" lists them`);
  }
}

/** Engine messages speak of form fields; on the command line the remedy is a flag. */
const CLI_REMEDY: Record<string, (hadPassword: boolean) => string> = {
  encrypted_source: (had) => (had ? "the --password given does not open it" : "it is password-protected: give the password with --password"),
};

function describe(e: unknown, hadPassword = false): string {
  if (e instanceof AppError) {
    const remedy = CLI_REMEDY[e.errorClass]?.(hadPassword);
    if (remedy) return `${e.errorClass}: ${remedy}`;
    return `${e.errorClass}: ${e.message}${e.markerCoverage ? ` (marker coverage ${e.markerCoverage}%)` : ""}`;
  }
  return `internal_error: ${e instanceof Error ? e.message : String(e)}`;
}
