/**
 * The command line as a person at a terminal meets it: --version, `banks`, the summary table on a
 * terminal, messages in the CLI's own words, an upload batch that stops at a refused key, and
 * overall progress counted in pages.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { MultiProgress } from "../../src/cli/progress.ts";
import { parseStatement } from "../../src/engine/index.ts";
import { listBanks } from "../../src/engine/index.ts";
import { startTestServer } from "../helpers/server.ts";
import { ROOT, runCli, SAMPLES, tempDir } from "./support.ts";

/** Captures what a command writes; `tty` makes stdout look like a terminal. */
function capture(tty: boolean) {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    io: { stdout: { isTTY: tty, write: (s: string) => (out.stdout += s) }, stderr: { isTTY: false, write: (s: string) => (out.stderr += s) } },
  };
}

describe("version and banks", () => {
  test("--version prints the package, engine and format versions", async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    const r = await runCli(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^statement-parser ${pkg.version.replace(/\./g, "\\.")} \\(engine \\d+\\.\\d+\\.\\d+, format \\d+\\.\\d+\\)\\n$`));
  });

  test("banks lists every id the engine knows, one a line", async () => {
    const r = await runCli(["banks"]);
    expect(r.code).toBe(0);
    const ids = r.stdout.trim().split("\n").map((l) => l.split(/\s+/)[0]);
    expect(ids).toEqual(listBanks().map((b) => b.id));
  });
});

describe("parse on a terminal", () => {
  test("prints a summary table (bank, period, rows, totals, reconciled, notes) instead of the JSON", async () => {
    const file = join(SAMPLES, "palmpay.pdf");
    const expected = await parseStatement(new Uint8Array(readFileSync(file)));
    const { io, out } = capture(true);
    expect(await main(["parse", file, "--quiet"], io)).toBe(0);
    expect(out.stdout).not.toContain('"transactions"');
    expect(out.stdout).toContain(`bank        ${expected.metadata.bank}`);
    expect(out.stdout).toContain(`rows        ${expected.transactions.length}`);
    expect(out.stdout).toContain(`reconciled  ${expected.row_wise_reconcilable ? "yes" : "NO"}`);
    expect(out.stdout).toContain(`period      ${expected.metadata.statement_period_start.slice(0, 10)} to ${expected.metadata.statement_period_end.slice(0, 10)}`);
    expect(expected.checks.notes.length).toBeGreaterThan(0);
    for (const note of expected.checks.notes) expect(out.stdout).toContain(`note: ${note}`);
  });

  test("--format json on a terminal prints the data itself; a pipe always gets the data", async () => {
    const file = join(SAMPLES, "firstbank.pdf");
    const tty = capture(true);
    expect(await main(["parse", file, "--format", "json", "--quiet"], tty.io)).toBe(0);
    const pipe = capture(false);
    expect(await main(["parse", file, "--quiet"], pipe.io)).toBe(0);
    expect(JSON.parse(tty.out.stdout)).toEqual(JSON.parse(pipe.out.stdout));
  });

  test("an unknown --bank is a usage error that names the banks command", async () => {
    const r = await runCli(["parse", join(SAMPLES, "firstbank.pdf"), "--bank", "no-such-bank"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"statement-parser banks" lists them');
  });

  test("an encrypted PDF without a password is told to use --password, not a form field", async () => {
    const r = await runCli(["parse", join(SAMPLES, "encrypted.pdf"), "--quiet"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("encrypted_source: it is password-protected: give the password with --password");
    expect(r.stderr).not.toContain("form field");
    const wrong = await runCli(["parse", join(SAMPLES, "encrypted.pdf"), "--quiet", "--password", "not-it"]);
    expect(wrong.stderr).toContain("the --password given does not open it");
  });
});

describe("upload", () => {
  test("stops at the first refused key: one request, the other files reported as not sent", async () => {
    const server = await startTestServer();
    let jobPosts = 0;
    // A loopback pass-through that counts what the CLI really sends.
    const proxy = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (req) => {
        const url = new URL(req.url);
        if (req.method === "POST" && url.pathname === "/v1/parse/jobs") jobPosts++;
        return fetch(server.url + url.pathname + url.search, { method: req.method, headers: req.headers, body: req.body, duplex: "half" } as RequestInit);
      },
    });
    try {
      const dir = tempDir("cli-refused");
      for (const name of ["a", "b", "c", "d"]) writeFileSync(join(dir, `${name}.pdf`), readFileSync(join(SAMPLES, "firstbank.pdf")));
      const r = await runCli(["upload", dir, "--url", `http://127.0.0.1:${proxy.port}`, "--key", "stp_test_not_a_real_key_000000000000", "--concurrency", "1", "--quiet"]);
      expect(r.code).toBe(1);
      expect(jobPosts).toBe(1);
      expect(r.stdout).toContain("parsed: 0 of 4");
      expect(r.stdout.match(/not sent: the key was refused/g)?.length).toBe(3);
      expect(r.stdout).toContain("auth_error");
    } finally {
      proxy.stop(true);
    }
  });

  test("overall progress counts pages across files, not files", () => {
    const { io, out } = capture(true);
    const p = new MultiProgress(io.stdout, 3, false);
    p.update("a.pdf", { stage: "extract", current: 10, total: 40 });
    p.update("b.pdf", { stage: "extract", current: 5, total: 10 });
    expect(p.overall()).toBe("overall [#######-----------------]  30% pages 15/50 · files 0/3");
    p.finish("b.pdf", "ok b.pdf");
    expect(p.overall()).toBe("overall [##########--------------]  40% pages 20/50 · files 1/3");
    p.close();
    // The terminal block drawn after the finish carries the page count, not a file count.
    expect(out.stdout).toContain("ok b.pdf\n");
    expect(out.stdout).toContain("overall [##########--------------]  40% pages 20/50 · files 1/3\n");
  });
});
