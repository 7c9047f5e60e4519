import { afterAll, describe, expect, test } from "bun:test";
import { type FSWatcher, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { postParse, testKey } from "../hostile/client.ts";
import { sample } from "../hostile/generate.ts";

/**
 * The upload never touches disk: while the server parses (JSON, CSV), redacts and runs jobs, no
 * file appears in the working directory, DATA_DIR, the temp directory or /tmp, and the process
 * holds no regular file open outside node_modules and the database directory.
 */
const originalCwd = process.cwd();
const originalTmp = process.env.TMPDIR;
// A fresh, empty working and temp directory, so anything that appears there is this process's doing.
const sandbox = mkdtempSync(join(tmpdir(), "no-disk-"));
const work = join(sandbox, "cwd");
const temp = join(sandbox, "tmp");
const dataDir = join(sandbox, "data");
for (const d of [work, temp, dataDir]) Bun.spawnSync(["mkdir", "-p", d]);
process.env.TMPDIR = temp;
process.chdir(work);
afterAll(() => {
  process.chdir(originalCwd);
  if (originalTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmp;
  rmSync(sandbox, { recursive: true, force: true });
});

const server = await startTestServer({ DATA_DIR: dataDir, TEST_MONTHLY_CAP: "100000" });
const key = await testKey(server);

const created: string[] = [];
function watchDir(dir: string): FSWatcher {
  return watch(dir, { recursive: true }, (event, name) => {
    if (name) created.push(`${event} ${join(dir, String(name))}`);
  });
}

/**
 * Bytes this process (all its threads) caused to be written to storage, from /proc/<pid>/io. /tmp
 * is shared with other programs on the machine (a browser, other test runs), so new names there
 * cannot be told apart by watching; a file this process writes anywhere, even one deleted at once,
 * shows up here instead.
 */
function writeBytes(): number {
  const io = require("node:fs").readFileSync(`/proc/${process.pid}/io`, "utf8") as string;
  return Number(/^write_bytes:\s*(\d+)/m.exec(io)?.[1] ?? Number.NaN);
}

/** Regular files the process holds open, other than node_modules, the database directory and system files. */
function openFiles(): string[] {
  const out: string[] = [];
  for (const fd of readdirSync(`/proc/${process.pid}/fd`)) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${process.pid}/fd/${fd}`);
    } catch {
      continue; // closed between listing and reading
    }
    if (!target.startsWith("/") || target.startsWith("/dev/") || target.startsWith("/proc/") || target.startsWith("/sys/")) continue;
    // Module code: node_modules and Bun's own module cache (its "node_modules" when installing globally).
    if (target.includes("/node_modules/") || target.includes("/.bun/install/cache/") || target.startsWith(resolve(dataDir))) continue;
    try {
      if (!statSync(target).isFile()) continue;
    } catch {
      // A deleted file still open shows as "path (deleted)": exactly what must not exist.
    }
    out.push(target);
  }
  return out;
}

async function job(bytes: Uint8Array, name: string, query: string): Promise<{ state: string; result: Response }> {
  const form = new FormData();
  form.append("pdf", new File([new Uint8Array(bytes)], name));
  if (query.includes("redact")) form.append("redact", "true");
  const created = await server.fetch(`/v1/parse/jobs${query.includes("csv") ? "?format=csv" : ""}`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
  expect(created.status).toBe(202);
  const { poll_url } = (await created.json()) as { job_id: string; poll_url: string };
  const deadline = Date.now() + 30_000;
  let state = "queued";
  while (Date.now() < deadline) {
    const snap = (await (await server.fetch(poll_url, { headers: { authorization: `Bearer ${key}` } })).json()) as { state: string };
    state = snap.state;
    if (state === "done" || state === "failed") break;
    await Bun.sleep(50);
  }
  return { state, result: await server.fetch(`${poll_url}/result`, { headers: { authorization: `Bearer ${key}` } }) };
}

/** Every kind of request the check covers: sync JSON, CSV and redaction, and jobs of each kind. */
async function workload(): Promise<void> {
  const answers = await Promise.all([
    postParse(server, key, sample("zenith.pdf"), "a.pdf"),
    postParse(server, key, sample("opay.xlsx"), "b.xlsx", "?format=csv"),
    postParse(server, key, sample("opay.pdf"), "c.pdf"),
  ]);
  for (const a of answers) expect(a.status, a.body.slice(0, 200)).toBe(200);
  expect(answers[1]!.body.split("\n").length).toBeGreaterThan(5);

  const redact = new FormData();
  redact.append("pdf", new File([new Uint8Array(sample("firstbank.pdf"))], "r.pdf"));
  redact.append("redact", "true");
  const redacted = await server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: redact });
  expect(redacted.status).toBe(200);
  expect(new TextDecoder().decode((await redacted.arrayBuffer()).slice(0, 5))).toBe("%PDF-");

  for (const [file, query] of [["palmpay.pdf", ""], ["zenith.pdf", "csv"], ["firstbank.pdf", "redact"]] as const) {
    const j = await job(sample(file), file, query);
    expect(j.state, `${file} ${query}`).toBe("done");
    expect(j.result.status, `${file} ${query}`).toBe(200);
    expect((await j.result.arrayBuffer()).byteLength).toBeGreaterThan(100);
  }
}

// Warm-up: the first use of each code path loads modules, and Bun writes its transpiler cache for
// a large module it has not seen in this version (other engineers' edits make new versions). Run
// the whole workload once, unwatched, so only the request handling itself is measured.
await workload();

describe("no upload touches disk", () => {
  test("parse (JSON, CSV, redacted), jobs and their results create and open no files", async () => {
    const watchers = [watchDir(work), watchDir(temp), watchDir(dataDir)];
    const writtenBefore = writeBytes();
    const seenOpen = new Set<string>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const f of openFiles()) seenOpen.add(f);
        await Bun.sleep(5);
      }
    })();
    try {
      await workload();
      await Bun.sleep(200); // let late watch events arrive
    } finally {
      sampling = false;
      await sampler;
      for (const w of watchers) w.close();
    }
    expect(created).toEqual([]);
    expect(writeBytes() - writtenBefore).toBe(0);
    expect([...seenOpen]).toEqual([]);
    expect(readdirSync(work)).toEqual([]);
    expect(readdirSync(temp)).toEqual([]);
  }, 60_000);
});

describe("no server code writes files", () => {
  // The command-line client (src/cli, src/client) saves results where its user asks; nothing the
  // server runs may call a file-writing API at all.
  const WRITES = /\b(writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|mkdtemp|mkdtempSync|Bun\.write)\b|["'`]\/tmp\b/;
  test("src (except the CLI client) and workers/ never call a file-writing API", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!["src/cli", "src/client"].includes(path)) walk(path);
        } else if (/\.ts$/.test(entry.name)) {
          const text = require("node:fs").readFileSync(join(originalCwd, path), "utf8") as string;
          text.split("\n").forEach((line, i) => {
            if (WRITES.test(line)) offenders.push(`${path}:${i + 1}: ${line.trim()}`);
          });
        }
      }
    };
    const here = process.cwd();
    process.chdir(originalCwd);
    try {
      walk("src");
      walk("workers");
    } finally {
      process.chdir(here);
    }
    expect(offenders).toEqual([]);
  });
});
