#!/usr/bin/env bun
/**
 * Command line entry (`statement-parser` in package.json "bin"): `parse` runs the engine locally,
 * `upload` sends a batch to a server. Exit codes: 0 success, 1 a file failed, 2 usage error.
 */
import { EXIT_OK, EXIT_PARSE_FAILED, EXIT_USAGE, UsageError } from "./args.ts";
import { HELP } from "./help.ts";
import type { Io } from "./io.ts";

export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "parse":
        // Loaded on demand: the engine (pdf.js, exceljs) is only needed by `parse`.
        return await (await import("./parse-command.ts")).parseCommand(rest, io);
      case "upload":
        return await (await import("./upload-command.ts")).uploadCommand(rest, io);
      case "banks":
        return await (await import("./banks-command.ts")).banksCommand(rest, io);
      case "version":
      case "--version":
      case "-v": {
        const { ENGINE_VERSION, FORMAT_VERSION, SERVICE_VERSION } = await import("../version.ts");
        io.stdout.write(`statement-parser ${SERVICE_VERSION} (engine ${ENGINE_VERSION}, format ${FORMAT_VERSION})\n`);
        return EXIT_OK;
      }
      case "help":
      case "--help":
      case "-h":
        io.stdout.write(`${HELP}\n`);
        return EXIT_OK;
      default:
        throw new UsageError(command ? `unknown command ${JSON.stringify(command)}` : "a command is needed");
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`statement-parser: ${e.message}\nRun "statement-parser --help" for usage.\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`statement-parser: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT_PARSE_FAILED;
  }
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
  process.exitCode = code;
}
