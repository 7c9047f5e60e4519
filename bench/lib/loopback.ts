/**
 * What the loopback benches share (bench/client-read.ts, bench/insights.ts): the large bench
 * statement made once and cached under bench/out, a real server started on 127.0.0.1 with its own
 * throwaway data directory and a test key, and curl's own timing of one GET.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { statementPdf } from "../generate.ts";

const ADMIN = "bench-admin-token-0123456789abcdef";
const OUT = join(import.meta.dir, "..", "out");

export interface BenchServer {
  url: string;
  key: string;
  stop(): Promise<void>;
}

/** The `pages`-page bench statement, made once and reused from bench/out. */
export async function largeStatement(pages: number): Promise<Uint8Array> {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `client-read-${pages}.pdf`);
  if (!existsSync(file)) writeFileSync(file, await statementPdf(pages));
  return new Uint8Array(readFileSync(file));
}

/** A server with 2 workers on the embedded database (no Redis), ready, with a test key of `owner`. */
export async function startBenchServer(owner: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `${owner}-`));
  const port = 40000 + Math.floor(Math.random() * 20000);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", "..", "src", "main.ts")], {
    env: {
      ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_TOKEN: ADMIN, WORKERS: "2", LOG_LEVEL: "error",
      TEST_MONTHLY_CAP: "100000", MAX_PAGES: "10000", PARSE_TIMEOUT_MS: "900000", DATABASE_URL: "", REDIS_URL: "", ...env,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${url}/readyz`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline || proc.exitCode !== null) {
      proc.kill("SIGKILL");
      const why = await fetch(`${url}/readyz`).then((r) => r.text(), (e: unknown) => String(e));
      throw new Error(`server did not become ready: ${why}`);
    }
    await Bun.sleep(200);
  }
  const res = await fetch(`${url}/v1/keys/test`, { method: "POST", headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" }, body: JSON.stringify({ owner }) });
  if (!res.ok) throw new Error(`could not issue a key: ${res.status} ${await res.text()}`);
  const { key } = (await res.json()) as { key: string };
  return {
    url,
    key,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** curl's own total time and byte count for one GET (its process start is not counted; -N: no buffering, for streams). */
export function curlGet(url: string, headers: string[] = []): { ms: number; bytes: number } {
  const r = spawnSync("curl", ["-sS", "-N", "-o", "/dev/null", "-w", "%{time_total} %{size_download}", ...headers.flatMap((h) => ["-H", h]), url], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`curl failed: ${r.stderr}`);
  const [seconds, bytes] = r.stdout.trim().split(" ").map(Number);
  return { ms: (seconds ?? 0) * 1000, bytes: bytes ?? 0 };
}
