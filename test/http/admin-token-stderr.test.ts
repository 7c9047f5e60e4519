import { expect, test } from "bun:test";
import { join } from "node:path";

/**
 * Issue 15 item 4: a generated admin token is printed once for the operator, on stderr; stdout is
 * the JSON log stream (shipped to log stores), and must hold only JSON lines, none with the token.
 * A real server process on a fresh in-memory database, so the token is generated.
 */
test("the generated admin token goes to stderr, never to the JSON log on stdout", async () => {
  const root = join(import.meta.dir, "../..");
  const script = `
    import { loadConfig } from "${root}/src/config.ts";
    import { openPglite } from "${root}/src/db/client.ts";
    import { migrate } from "${root}/src/db/migrate.ts";
    import { startServer } from "${root}/src/server.ts";
    const db = await openPglite();
    await migrate(db);
    const config = loadConfig({}, { PORT: "0", HOST: "127.0.0.1", WORKERS: "1", LOG_LEVEL: "info" });
    const server = await startServer({ config, db });
    await server.stop();
    process.exit(0);
  `;
  const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(code).toBe(0);
  const token = /Admin token \(shown once, keep it safe\): (adm_[A-Za-z0-9_-]+)/.exec(stderr)?.[1];
  expect(token).toBeDefined();
  expect(stdout).not.toContain(token!);
  const lines = stdout.split("\n").filter((l) => l.trim() !== "");
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
}, 120_000);
