import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll } from "bun:test";
import { unique } from "../helpers/db.ts";
import type { TestServer } from "../helpers/server.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const SAMPLES = join(ROOT, "fixtures/real");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real bin (src/cli/main.ts) in a child process, as a user would. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/cli/main.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** A temporary directory removed after the file's tests. */
export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A fresh owner's test-tier key (no subscription needed). */
export async function issueTestKey(server: TestServer): Promise<string> {
  const res = await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: unique("front") }) });
  if (res.status !== 200 && res.status !== 201) throw new Error(`issuing a test key gave ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}
