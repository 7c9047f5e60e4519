/**
 * `npm test`: first the pre-flight (test/preflight.ts: installs Chromium, qpdf and poppler with apt
 * when root, starts PostgreSQL and Redis when installed but down, or stops at once with the command
 * to run), then the whole suite on the embedded PGlite, then every database-touching suite again on
 * the real PostgreSQL server (TEST_POSTGRES_URL, default the local server), in a throwaway database
 * dropped afterwards. Ends with "N passed, N failed" over both passes.
 * `--preflight-only` runs the pre-flight alone.
 */
import { existsSync } from "node:fs";
import postgres from "postgres";
import { POSTGRES_URL, PreflightError, preflight } from "./preflight.ts";

const adminUrl = POSTGRES_URL;
// Suites that touch the database run twice; engine-only suites once. test/reliability and
// test/cluster (several server processes on one Redis) make their own scratch PostgreSQL
// database whatever the pass, so they run once, in the first pass.
const DB_SUITES = ["test/http", "test/db", "test/billing", "test/jobs", "test/hostile", "test/web", "test/cli"];
const preflightOnly = process.argv.includes("--preflight-only");
const extraArgs = process.argv.slice(2).filter((a) => a !== "--preflight-only");

interface PassResult { label: string; passed: number; failed: number; code: number; failures: string[] }

async function runBunTest(label: string, args: string[], env: Record<string, string>): Promise<PassResult> {
  console.log(`\n=== ${label}: bun test ${args.join(" ")}`);
  // bunfig.toml's [test] timeout is not applied by bun 1.4, so the per-test limit is passed here.
  const proc = Bun.spawn([process.execPath, "test", "--timeout", "60000", ...args], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  const pump = async (stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      const s = decoder.decode(r.value, { stream: true });
      text += s;
      out.write(s);
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  const passed = Number(/^\s*(\d+) pass\s*$/m.exec(text)?.[1] ?? 0);
  const failed = Number(/^\s*(\d+) fail\s*$/m.exec(text)?.[1] ?? 0);
  // CI keeps only the tail of the log, so the failing tests are repeated at the very end, each
  // with the error bun printed just before its "(fail)" line.
  const failures = failureReports(text);
  // A crashed run that printed no counts still fails the whole command.
  return { label, passed, failed: failed || (code !== 0 ? 1 : 0), code, failures };
}

/** Each "(fail)" line with the lines bun printed since the test before it (its error and stack), at most 25. */
function failureReports(text: string): string[] {
  const lines = text.split("\n");
  // Bun names each failure twice (as it fails, and in its summary); the first has the error.
  const reports = new Map<string, string>();
  lines.forEach((line, i) => {
    if (!line.startsWith("(fail) ") || reports.has(line)) return;
    let from = i;
    while (from > 0 && i - from < 25 && !/^\((pass|fail|skip|todo)\) /.test(lines[from - 1]!)) from--;
    const error = lines.slice(from, i).filter((l) => l.trim() !== "").map((l) => `      ${l}`);
    reports.set(line, [line, ...error].join("\n"));
  });
  return [...reports.values()];
}

console.log("=== pre-flight: tools and services the tests need");
try {
  await preflight((line) => console.log(`preflight: ${line}`));
} catch (e) {
  if (!(e instanceof PreflightError)) throw e;
  console.error(`\npreflight failed: ${e.message}`);
  console.log("\n0 passed, 1 failed");
  process.exit(1);
}
if (preflightOnly) process.exit(0);

const results: PassResult[] = [];
results.push(await runBunTest("PGlite", extraArgs, {}));

const existing = DB_SUITES.filter((d) => existsSync(d));
if (process.env.TEST_SKIP_POSTGRES === "1") {
  console.log("\n=== PostgreSQL pass not run (TEST_SKIP_POSTGRES=1)");
} else if (existing.length > 0 && extraArgs.length === 0) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  const dbName = `statement_test_${Date.now()}_${process.pid}`;
  try {
    await admin.unsafe(`create database ${dbName}`);
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    results.push(await runBunTest("PostgreSQL", existing, { TEST_DATABASE_URL: url.toString() }));
  } catch (e) {
    console.error(`PostgreSQL pass could not run: ${(e as Error).message}`);
    results.push({ label: "PostgreSQL", passed: 0, failed: 1, code: 1, failures: [] });
  } finally {
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
  }
}

for (const r of results) {
  if (r.failed === 0) continue;
  console.log(`\n${r.label} pass failures (exit code ${r.code}):`);
  for (const f of r.failures) console.log(`  ${f}`);
  if (r.failures.length === 0) console.log("  (no test named: the run crashed or printed no counts)");
}

const passed = results.reduce((a, r) => a + r.passed, 0);
const failed = results.reduce((a, r) => a + r.failed, 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || results.some((r) => r.code !== 0) ? 1 : 0);
