/**
 * Ctrl-C on `upload`: the real bin in a child process against a real server on loopback gets
 * SIGINT while its job is reading pages; the job must end cancelled on the server and not be counted.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { statementPdf } from "../../bench/generate.ts";
import { createClient } from "../../src/index.ts";
import { startTestServer } from "../helpers/server.ts";
import { issueTestKey, ROOT, tempDir } from "./support.ts";

// One worker and a long statement, so the job is still reading pages when the signal arrives.
const server = await startTestServer({ TEST_MONTHLY_CAP: "1000", WORKERS: "1" });
const key = await issueTestKey(server);
const client = createClient({ baseUrl: server.url, apiKey: key });
const dir = tempDir("upload-interrupt");
const file = join(dir, "long.pdf");
writeFileSync(file, await statementPdf(600));

/** Reads a child's stream as text, and resolves `until(re)` once the text so far matches. */
function watch(stream: ReadableStream<Uint8Array>) {
  let text = "";
  const waiters: { re: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  const done = (async () => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      text += decoder.decode(r.value, { stream: true });
      for (const w of waiters.splice(0)) {
        const m = text.match(w.re);
        if (m) w.resolve(m);
        else waiters.push(w);
      }
    }
  })();
  return {
    text: () => text,
    done,
    until: (re: RegExp) =>
      new Promise<RegExpMatchArray>((resolve) => {
        const m = text.match(re);
        if (m) resolve(m);
        else waiters.push({ re, resolve });
      }),
  };
}

describe("upload and Ctrl-C", () => {
  test("SIGINT mid-job cancels the job on the server; it is not counted, and the CLI says so", async () => {
    const proc = Bun.spawn([process.execPath, join(ROOT, "src/cli/main.ts"), "upload", file, "--url", server.url, "--key", key, "--progress", "--out", join(dir, "out")], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    });
    const stderr = watch(proc.stderr);
    const stdout = watch(proc.stdout);
    const jobId = (await stderr.until(/long\.pdf: job (\S+)/))[1] ?? "";
    // Mid-job: pages are being read, and not all of them.
    await stderr.until(/long\.pdf \[[#-]+\] +\d+% (pages|extract) \d+\/600/);
    expect((await client.job(jobId)).state).not.toBe("done");
    proc.kill("SIGINT");
    const code = await proc.exited;
    await Promise.all([stderr.done, stdout.done]);

    expect(code).toBe(130);
    expect(stderr.text()).toContain("interrupted: cancelling the jobs in flight");
    expect(stdout.text()).toContain("cancelled: 1");
    expect(stdout.text().trimEnd().split("\n").at(-1)).toBe("0 parsed, 0 failed, 1 cancelled");
    const snap = await client.job(jobId);
    expect(snap.state).toBe("failed");
    expect(snap.error_class).toBe("job_cancelled");
    // The job is labelled with the file it was made for (the jobs list then names it).
    expect(snap.client_reference).toBe("long.pdf");
    expect((await client.usage()).period_parses).toBe(0);
  }, 120_000);
});
