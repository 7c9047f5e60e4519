/** The `upload` command against a real server on loopback: jobs, SSE progress, results, summary. */
import { describe, expect, test } from "bun:test";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "../../src/index.ts";
import { startTestServer } from "../helpers/server.ts";
import { issueTestKey, runCli, SAMPLES, tempDir } from "./support.ts";

const server = await startTestServer({ TEST_MONTHLY_CAP: "1000" });
const key = await issueTestKey(server);
const client = createClient({ baseUrl: server.url, apiKey: key });

const inputs = tempDir("upload-in");
// opay.pdf and opay.xlsx share a stem: their results keep the extension to stay apart.
for (const name of ["firstbank.pdf", "zenith.pdf", "opay.xlsx", "opay.pdf"]) copyFileSync(join(SAMPLES, name), join(inputs, name));

describe("upload", () => {
  test("a directory as JSON jobs: results equal POST /v1/parse, progress and summary shown, exit 0", async () => {
    const out = tempDir("upload-json");
    const r = await runCli(["upload", inputs, "--url", server.url, "--key", key, "--concurrency", "2", "--out", out, "--progress"]);
    expect(r.stderr).not.toContain(key);
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["firstbank.json", "opay.pdf.json", "opay.xlsx.json", "zenith.json"]);
    for (const [name, result] of [["firstbank.pdf", "firstbank.json"], ["zenith.pdf", "zenith.json"], ["opay.xlsx", "opay.xlsx.json"], ["opay.pdf", "opay.pdf.json"]]) {
      const written = JSON.parse(readFileSync(join(out, result as string), "utf8"));
      expect(written).toEqual(await client.parse(new Uint8Array(readFileSync(join(inputs, name as string)))));
    }
    expect(r.stdout).toContain("parsed: 4 of 4");
    expect(r.stdout).toContain("failed: 0");
    expect(r.stdout).toMatch(/reconciled: \d+, not reconciled: \d+/);
    expect(r.stdout).toMatch(/pages: [1-9]\d* in \d+\.\d\d s \(\d+\.\d\d pages\/s\)/);
    // per-file progress lines from the SSE streams, and one finished line per file
    expect(r.stderr).toMatch(/zenith\.pdf \[[#-]+\] +\d+% /);
    expect(r.stderr).toMatch(/\[4\/4\] ok /);
  });

  test("--format csv writes the server's CSV next to each input when there is no --out", async () => {
    const dir = tempDir("upload-csv");
    copyFileSync(join(SAMPLES, "firstbank.pdf"), join(dir, "firstbank.pdf"));
    const r = await runCli(["upload", join(dir, "firstbank.pdf"), "--url", server.url, "--key", key, "--format", "csv"]);
    expect(r.code).toBe(0);
    const csv = readFileSync(join(dir, "firstbank.csv"), "utf8");
    expect(csv).toBe(await client.parse(new Uint8Array(readFileSync(join(dir, "firstbank.pdf"))), { format: "csv" }));
  });

  test("a failing file gives exit 1 and its reason in the summary; the others are saved", async () => {
    const out = tempDir("upload-fail");
    const r = await runCli(["upload", join(SAMPLES, "encrypted.pdf"), join(inputs, "firstbank.pdf"), "--url", server.url, "--key", key, "--out", out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("parsed: 1 of 2");
    expect(r.stdout).toMatch(/failed: 1\n {2}.*encrypted\.pdf: encrypted_source: /);
    expect(readdirSync(out)).toEqual(["firstbank.json"]);
  });

  test("a wrong key fails every file with auth_error, and the key is not printed", async () => {
    const bad = "sp_test_not_a_real_key_000000000000";
    const r = await runCli(["upload", join(inputs, "firstbank.pdf"), "--url", server.url, "--key", bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/firstbank\.pdf: auth_error: /);
    expect(`${r.stdout}${r.stderr}`).not.toContain(bad);
  });

  test("usage errors exit 2", async () => {
    expect((await runCli(["upload", inputs, "--key", key])).code).toBe(2);
    expect((await runCli(["upload", inputs, "--url", server.url])).code).toBe(2);
    expect((await runCli(["upload", inputs, "--url", server.url, "--key", key, "--concurrency", "0"])).code).toBe(2);
    const empty = tempDir("upload-empty");
    const r = await runCli(["upload", empty, "--url", server.url, "--key", key]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no statement files");
  });
});

describe("upload against a full queue", async () => {
  // One worker and no waiting room: every job beyond the running one gets 503 queue_full.
  const busy = await startTestServer({ TEST_MONTHLY_CAP: "1000", WORKERS: "1", MAX_QUEUED_JOBS: "0" });
  const busyKey = await issueTestKey(busy);

  test("503 answers are retried after Retry-After and every file still completes", async () => {
    const out = tempDir("upload-busy");
    const r = await runCli(["upload", inputs, "--url", busy.url, "--key", busyKey, "--concurrency", "3", "--out", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("parsed: 4 of 4");
    expect(r.stderr).toMatch(/503 queue_full on \/v1\/parse\/jobs: retry 1 in \d+\.\d s/);
    expect(readdirSync(out).sort()).toEqual(["firstbank.json", "opay.pdf.json", "opay.xlsx.json", "zenith.json"]);
  });
});

describe("upload past the free cap", async () => {
  // A test key with no free parses left gets the canned sample instead of a parse.
  const capped = await startTestServer({ TEST_MONTHLY_CAP: "0" });
  const cappedKey = await issueTestKey(capped);

  test("the sample is reported as a failure and not written as if it were the statement", async () => {
    const out = tempDir("upload-sample");
    const r = await runCli(["upload", join(inputs, "firstbank.pdf"), "--url", capped.url, "--key", cappedKey, "--out", out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("parsed: 0 of 1");
    expect(r.stdout).toMatch(/firstbank\.pdf: sample_returned: /);
    expect(readdirSync(out)).toEqual([]);
  });
});
