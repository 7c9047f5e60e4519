/** The `parse` command: the engine in the CLI's own process, no server and no database. */
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CSV_HEADER } from "../../src/engine/csv.ts";
import { parseStatement, toCsv } from "../../src/engine/index.ts";
import type { ParseResponse } from "../../src/engine/types.ts";
import { ROOT, runCli, SAMPLES, tempDir } from "./support.ts";

const GTBANK = join(ROOT, "fixtures/gtbank/statement.pdf");
const GTBANK_XLSX = join(ROOT, "fixtures/gtbank-xlsx/statement.xlsx");
const expected = (dir: string) => JSON.parse(readFileSync(join(ROOT, "fixtures", dir, "expected.json"), "utf8")) as ParseResponse;

describe("usage errors exit 2", () => {
  const cases: [string, string[], RegExp][] = [
    ["no command", [], /a command is needed/],
    ["unknown command", ["frobnicate"], /unknown command/],
    ["no files", ["parse"], /at least one FILE/],
    ["bad format", ["parse", "--format", "xml", GTBANK], /--format must be one of json, csv/],
    ["unknown flag", ["parse", "--colour", GTBANK], /colour/],
    ["missing file", ["parse", "/nonexistent/statement.pdf"], /no such file or directory/],
    ["redact with format", ["parse", "--redact", "--format", "csv", GTBANK], /cannot be combined/],
    ["redact without --out", ["parse", "--redact", GTBANK], /--redact writes documents: give --out DIR/],
  ];
  for (const [name, args, message] of cases) {
    test(name, async () => {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    });
  }

  test("--help exits 0 and documents the exit codes", async () => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("parse FILE...");
    expect(r.stdout).toContain("upload DIR|FILE...");
    expect(r.stdout).toMatch(/Exit codes: 0 .*1 .*2 usage error/);
  });
});

describe("parse", () => {
  test("one file goes to stdout as the engine's JSON, exit 0", async () => {
    const r = await runCli(["parse", GTBANK]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as ParseResponse;
    const want = expected("gtbank");
    expect(out.transactions).toHaveLength(want.transactions.length);
    expect(out.row_wise_reconcilable).toBe(want.row_wise_reconcilable);
    expect(out).toEqual(await parseStatement(new Uint8Array(readFileSync(GTBANK))));
  });

  test("- reads the statement from standard input", async () => {
    const proc = Bun.spawn([process.execPath, join(ROOT, "src/cli/main.ts"), "parse", "--format", "csv", "-"], {
      cwd: ROOT,
      stdin: Bun.file(GTBANK),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(out).toBe(toCsv(await parseStatement(new Uint8Array(readFileSync(GTBANK)))));
    expect((await runCli(["parse", "-", GTBANK])).code).toBe(2);
  });

  test("--format csv --out writes one CSV per input, equal to the engine's toCsv", async () => {
    const out = tempDir("cli-csv");
    const r = await runCli(["parse", "--format", "csv", "--out", out, GTBANK_XLSX, join(SAMPLES, "firstbank.pdf")]);
    expect(r.code).toBe(0);
    for (const [input, name] of [[GTBANK_XLSX, "statement.csv"], [join(SAMPLES, "firstbank.pdf"), "firstbank.csv"]] as const) {
      const written = readFileSync(join(out, name), "utf8");
      expect(written.split(/\r?\n/)[0]).toBe("bank,account,date,time,narration,debit,credit,balance,derived_balance,reference,currency");
      expect(written).toBe(toCsv(await parseStatement(new Uint8Array(readFileSync(input)))));
    }
    expect(r.stderr).toContain("firstbank.pdf:");
  });

  test("a file that fails gives exit 1 with its error class; the others are still written", async () => {
    const out = tempDir("cli-fail");
    const r = await runCli(["parse", "--out", out, join(SAMPLES, "encrypted.pdf"), join(SAMPLES, "firstbank.pdf")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/encrypted\.pdf: encrypted_source: /);
    const written = JSON.parse(readFileSync(join(out, "firstbank.json"), "utf8")) as ParseResponse;
    expect(written.transactions.length).toBeGreaterThan(0);
    expect(existsSync(join(out, "encrypted.json"))).toBe(false);
  });

  test("--progress draws the bar on stderr up to 100%", async () => {
    const r = await runCli(["parse", "--progress", join(SAMPLES, "opay.pdf")]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/opay\.pdf \[#+\] 100% /);
    expect(JSON.parse(r.stdout)).toHaveProperty("transactions");
  });

  test("--redact writes the redacted document next to the output name", async () => {
    const out = tempDir("cli-redact");
    const r = await runCli(["parse", "--redact", "--out", out, join(SAMPLES, "firstbank.pdf")]);
    expect(r.code).toBe(0);
    const pdf = readFileSync(join(out, "firstbank.redacted.pdf"));
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(r.stderr).toMatch(/\d+ redactions/);
  });

  test("several files go to stdout as JSON Lines; nothing is written beside the inputs; stderr ends N parsed, M failed", async () => {
    const dir = tempDir("cli-batch");
    for (const name of ["firstbank.pdf", "zenith.pdf"]) copyFileSync(join(SAMPLES, name), join(dir, name));
    const r = await runCli(["parse", dir]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((l) => JSON.parse(l) as ParseResponse);
    expect(first).toEqual(await parseStatement(new Uint8Array(readFileSync(join(dir, "firstbank.pdf")))));
    expect(second).toEqual(await parseStatement(new Uint8Array(readFileSync(join(dir, "zenith.pdf")))));
    expect(readdirSync(dir).sort()).toEqual(["firstbank.pdf", "zenith.pdf"]);
    expect(r.stderr.trimEnd().split("\n").at(-1)).toBe("2 parsed, 0 failed");
  });

  test("--format csv of two banks' statements is one CSV with one header, the rows of both stacked", async () => {
    const files = [join(SAMPLES, "firstbank.pdf"), GTBANK_XLSX];
    const r = await runCli(["parse", "--format", "csv", ...files]);
    expect(r.code).toBe(0);
    const csvs = await Promise.all(files.map(async (f) => toCsv(await parseStatement(new Uint8Array(readFileSync(f))))));
    const rows = (csv: string) => csv.trimEnd().split("\r\n").slice(1);
    const lines = r.stdout.trimEnd().split("\r\n");
    expect(lines[0]).toBe(CSV_HEADER.join(","));
    expect(lines.filter((l) => l === CSV_HEADER.join(","))).toHaveLength(1);
    expect(lines.slice(1)).toEqual([...rows(csvs[0] ?? ""), ...rows(csvs[1] ?? "")]);
    // Two banks in one file, told apart by the bank column.
    expect(new Set(lines.slice(1).map((l) => l.split(",")[0])).size).toBe(2);
    expect(r.stderr.trimEnd().split("\n").at(-1)).toBe("2 parsed, 0 failed");
  });

  test("a failed file is counted in the last line", async () => {
    const r = await runCli(["parse", join(SAMPLES, "encrypted.pdf"), join(SAMPLES, "firstbank.pdf")]);
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr.trimEnd().split("\n").at(-1)).toBe("1 parsed, 1 failed");
  });
});
