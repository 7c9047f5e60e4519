import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, relative } from "node:path";
import { UsageError } from "./args.ts";

/** Extensions picked up when a directory is given; single files are taken whatever their name. */
const STATEMENT_EXTENSIONS = new Set([".pdf", ".xlsx", ".xls"]);

/** The file argument that means "read the statement from standard input" (`parse` only). */
export const STDIN = "-";

/** All of standard input, as bytes. */
export async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

export interface Input {
  path: string;
  /** Path below the directory argument it was found in (just the name for a file argument). */
  rel: string;
}

/** Expands directories (recursively, sorted) into statement files; a missing path is a usage error. */
export async function collectInputs(paths: string[]): Promise<Input[]> {
  const out = new Map<string, Input>();
  for (const p of paths) {
    if (p === STDIN) {
      out.set(p, { path: p, rel: "stdin" });
      continue;
    }
    const s = await stat(p).catch(() => undefined);
    if (!s) throw new UsageError(`no such file or directory: ${p}`);
    if (s.isDirectory()) {
      const found = (await readdir(p, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile() && STATEMENT_EXTENSIONS.has(extname(e.name).toLowerCase()))
        .map((e) => join(e.parentPath, e.name))
        .sort();
      for (const f of found) if (!out.has(f)) out.set(f, { path: f, rel: relative(p, f) });
    } else if (!out.has(p)) {
      out.set(p, { path: p, rel: basename(p) });
    }
  }
  return [...out.values()];
}

export type OutputKind = "json" | "csv" | "redact";

/** Extension of the redacted copy, from its content type (the engine keeps PDF as PDF, XLSX as XLSX). */
function redactedExtension(contentType: string | undefined, input: string): string {
  if (contentType?.includes("pdf")) return ".pdf";
  if (contentType?.includes("spreadsheet")) return ".xlsx";
  return extname(input) || ".bin";
}

/**
 * Where each input's result goes: `statement.pdf` → `statement.json`, `statement.csv` or
 * `statement.redacted.pdf`, next to the input, or under `outDir` keeping the folders found below a
 * directory argument (`banks/gtbank/statement.pdf` → `OUT/gtbank/statement.json`). Inputs that
 * would still land on one name keep their extension (`opay.pdf.json`, `opay.xlsx.json`), and any
 * remaining clash gets a counter (`statement-2.json`), so no result overwrites another.
 */
export class OutputPlan {
  readonly #stems = new Map<string, string>();

  constructor(inputs: Input[], private readonly outDir?: string) {
    const target = (i: Input, stem: string) => join(this.#dirOf(i), stem);
    const plain = (i: Input) => basename(i.rel, extname(i.rel));
    const counts = new Map<string, number>();
    for (const i of inputs) counts.set(target(i, plain(i)), (counts.get(target(i, plain(i))) ?? 0) + 1);
    const taken = new Set<string>();
    for (const i of inputs) {
      let stem = (counts.get(target(i, plain(i))) ?? 0) > 1 ? basename(i.rel) : plain(i);
      for (let n = 2; taken.has(target(i, stem)); n++) stem = `${basename(i.rel)}-${n}`;
      taken.add(target(i, stem));
      this.#stems.set(i.path, stem);
    }
  }

  #dirOf(i: Input): string {
    return this.outDir === undefined ? dirname(i.path) : join(this.outDir, dirname(i.rel));
  }

  path(input: Input, kind: OutputKind, contentType?: string): string {
    const stem = this.#stems.get(input.path) ?? basename(input.rel, extname(input.rel));
    const name = kind === "redact" ? `${stem}.redacted${redactedExtension(contentType, input.path)}` : `${stem}.${kind}`;
    return join(this.#dirOf(input), name);
  }
}

/** Writes a result, creating its folder under --out when needed. */
export async function writeOutput(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, data);
}
