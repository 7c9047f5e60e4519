/**
 * The typed client as a Node user gets it: the package's exports resolve to the built JS and its
 * .d.ts (made by `npm run build`, which `npm install` runs as `prepare`), and plain Node — no Bun —
 * imports it by the package name and parses a real statement over real HTTP.
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const ROOT = resolve(import.meta.dir, "../..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, { types: string; default: string }>; scripts: Record<string, string> };

const server = await startTestServer({ TEST_MONTHLY_CAP: "100" });
const issued = await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: unique("node-client") }) });
const key = ((await issued.json()) as { key: string }).key;

/**
 * Runs an ES module under the machine's Node (not Bun) from the package root, so self-reference by
 * name works. Asynchronous: the server under test runs in this process and must keep answering.
 */
async function node(source: string, env: Record<string, string> = {}) {
  const proc = Bun.spawn(["node", "--input-type=module", "-e", source], { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe("the client on plain Node", () => {
  test("exports point at built JS and one .d.ts, which exist", () => {
    for (const entry of [".", "./client"]) {
      const e = pkg.exports[entry];
      expect(e?.default).toBe("./dist/index.js");
      expect(e?.types).toBe("./dist/index.d.ts");
    }
    expect(pkg.scripts.prepare).toBe("npm run build");
    expect(existsSync(join(ROOT, "dist/index.js"))).toBe(true);
    const dts = readFileSync(join(ROOT, "dist/index.d.ts"), "utf8");
    expect(dts).toContain("export declare function createClient");
    // One self-contained declaration file: no import of the server's TypeScript sources.
    expect(dts).not.toMatch(/from\s+["'][^"']*\.ts["']/);
  });

  test("node --version is 18 or newer, and it imports the client by package name", async () => {
    const v = spawnSync("node", ["--version"], { encoding: "utf8" }).stdout.trim();
    expect(Number(/^v(\d+)/.exec(v)?.[1])).toBeGreaterThanOrEqual(18);
    const r = await node(`import { createClient, ApiError } from "statement-parser/client"; console.log(typeof createClient, typeof ApiError, typeof globalThis.Bun);`);
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("function function undefined");
  });

  test("parses a real statement over HTTP from Node and gets typed errors", async () => {
    const sample = resolve(ROOT, "fixtures/real/firstbank.pdf");
    const r = await node(
      `import { readFileSync } from "node:fs";
       import { createClient, AuthError } from "statement-parser";
       const client = createClient({ baseUrl: process.env.BASE, apiKey: process.env.KEY });
       const res = await client.parse(new Uint8Array(readFileSync(process.env.FILE)));
       let denied = "";
       try { await createClient({ baseUrl: process.env.BASE, apiKey: "stp_test_nope" }).banks(); } catch (e) { denied = e instanceof AuthError ? e.errorClass : String(e); }
       console.log(JSON.stringify({ rows: res.transactions.length, bank: res.metadata.bank, closing: res.metadata.closing_balance, denied }));`,
      { BASE: server.url, KEY: key, FILE: sample },
    );
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    const out = JSON.parse(r.stdout) as { rows: number; bank: string; closing: string; denied: string };
    const direct = await (await server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: (() => { const f = new FormData(); f.append("pdf", new Blob([readFileSync(sample)]), "firstbank.pdf"); return f; })() })).json() as { transactions: unknown[]; metadata: { bank: string; closing_balance: string } };
    expect(out).toEqual({ rows: direct.transactions.length, bank: direct.metadata.bank, closing: direct.metadata.closing_balance, denied: "auth_error" });
  });
});
