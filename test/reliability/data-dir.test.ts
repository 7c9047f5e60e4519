import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ChildServer, spawnServer, startChildServer } from "../helpers/child-server.ts";

/**
 * Issue 15 items 5 and 12, on real server processes over the embedded database: the data
 * directory is private (0700, files 0600) and refused when others can write it; a second server
 * on the same data directory or the same port is refused with a message and exit code 2; the
 * lock of a server killed with -9 is stale and taken over.
 */
const root = mkdtempSync(join(tmpdir(), "stp-datadir-"));
const running: ChildServer[] = [];
afterAll(async () => {
  for (const s of running) await s.stop().catch(() => {});
  rmSync(root, { recursive: true, force: true });
});

function modes(dir: string, out: Array<{ path: string; mode: number; dir: boolean }> = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) continue;
    out.push({ path: p, mode: st.mode & 0o777, dir: st.isDirectory() });
    if (st.isDirectory()) modes(p, out);
  }
  return out;
}

describe("PGlite data directory", () => {
  test("is created 0700 with every file 0600 (nothing readable by other users)", async () => {
    const dir = join(root, "fresh");
    const server = await startChildServer({ DATA_DIR: dir });
    running.push(server);
    expect((await server.fetch("/healthz")).status).toBe(200);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const entries = modes(dir);
    expect(entries.length).toBeGreaterThan(10);
    const open = entries.filter((e) => (e.mode & 0o077) !== 0);
    expect(open.map((e) => `${e.path} ${e.mode.toString(8)}`)).toEqual([]);
  }, 60_000);

  test("a second server on the same data directory is refused with a message and exit 2; so is a second one on the same port", async () => {
    const first = running[0]!;
    const sameDir = await spawnServer({ DATA_DIR: join(root, "fresh") }).ready;
    expect("exitCode" in sameDir && sameDir.exitCode).toBe(2);
    expect("exitCode" in sameDir ? sameDir.stderr : "").toContain("in use by another server");

    const samePort = await spawnServer({ DATA_DIR: join(root, "other"), PORT: String(first.port) }).ready;
    expect("exitCode" in samePort && samePort.exitCode).toBe(2);
    expect("exitCode" in samePort ? samePort.stderr : "").toContain("already in use");
    // The first server is untouched.
    expect((await first.fetch("/healthz")).status).toBe(200);
  }, 60_000);

  test("after the holder stops (or is killed) the directory can be used again", async () => {
    const first = running.shift()!;
    expect(await first.stop()).toBe(0);
    expect(existsSync(join(root, "fresh", "server.lock"))).toBe(false);
    const second = await startChildServer({ DATA_DIR: join(root, "fresh") });
    second.proc.kill("SIGKILL");
    await second.proc.exited;
    // The killed server's lock file is still there, naming a process that is gone.
    expect(existsSync(join(root, "fresh", "server.lock"))).toBe(true);
    const third = await startChildServer({ DATA_DIR: join(root, "fresh") });
    running.push(third);
    expect((await third.fetch("/healthz")).status).toBe(200);
  }, 60_000);

  test("a data directory other users can write is refused at start with a message and exit 2", async () => {
    const dir = join(root, "shared");
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const started = await spawnServer({ DATA_DIR: dir }).ready;
    expect("exitCode" in started && started.exitCode).toBe(2);
    expect("exitCode" in started ? started.stderr : "").toContain("can be written by other users");
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);
});
