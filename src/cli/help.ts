/** Help texts, kept apart so `--help` and usage errors load neither the engine nor the client. */
export const PARSE_HELP = `usage: statement-parser parse FILE... [--format json|csv] [--redact] [--password P] [--bank ID] [--out DIR] [--progress|--quiet]

Parses bank statements (PDF or XLSX) on this machine; nothing is sent anywhere. FILE may be a
directory (searched for .pdf, .xlsx, .xls) or - for standard input. Results go to stdout: one
file as its JSON or CSV, several as JSON Lines (one statement a line) or as one CSV with a single
header (the columns are the same for every statement). Files are written only into --out DIR.
On a terminal, without --format, a short summary (bank, period, rows, totals, reconciled, notes)
is printed instead of the data. stderr ends with an "N parsed, M failed" line.
  --format json|csv   output format (default json)
  --redact            write the redacted document instead (needs --out; PDF stays PDF, XLSX stays XLSX)
  --password P        user password of encrypted PDFs
  --bank ID           bank id that overrides detection ("statement-parser banks" lists them)
  --out DIR           write FILE.json / FILE.csv / FILE.redacted.pdf into DIR, one per input
  --progress          always draw the progress bar on stderr (default: only on a terminal)
  --quiet             never draw it
Exit codes: 0 every file parsed, 1 at least one file failed, 2 usage error.`;

export const UPLOAD_HELP = `usage: statement-parser upload DIR|FILE... --url URL --key KEY [--concurrency N] [--format json|csv] [--redact] [--password P] [--bank ID] [--out DIR] [--progress|--quiet]

Sends statements to a statement-parser server as jobs and saves the results.
  --url URL           the server, e.g. http://127.0.0.1:3000
  --key KEY           API key (or the STATEMENT_API_KEY environment variable)
  --concurrency N     jobs in flight at once (default 2)
  --format json|csv   result format (default json)
  --redact            save the redacted documents instead
  --password P        user password for encrypted PDFs
  --bank ID           bank id that overrides detection
  --out DIR           write results into DIR (default: next to each input)
  --progress          per-file progress lines even when stderr is not a terminal
  --quiet             no progress at all
Directories are searched recursively for .pdf, .xlsx and .xls files. A 503 (queue full) or 429 is
retried after its Retry-After. A key that is refused (401/403) stops the batch: no further file is
sent. Exit codes: 0 every file parsed, 1 at least one failed, 2 usage error.`;

export const BANKS_HELP = `usage: statement-parser banks [--json]

Lists the bank ids that --bank takes, with each bank's name and the formats read.`;

export const HELP = `usage: statement-parser <command> [options]

commands:
  parse FILE...            parse statements locally (no server, no database)
  upload DIR|FILE...       send statements to a server as jobs
  banks                    list the bank ids --bank takes
  --version                print the version of the tool, its engine and output format

${PARSE_HELP}

${UPLOAD_HELP}`;

