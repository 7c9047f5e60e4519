/**
 * What `npm test` needs on the machine before any test runs, made ready or refused at once:
 * Chromium, qpdf and poppler (pdftotext, pdftoppm) are installed with apt when we are root on a
 * Debian-like system; PostgreSQL and Redis are started when installed but down. Anything it cannot
 * provide fails the run with the exact command to run, so no test is skipped silently.
 * Run alone: `bun test/preflight.ts` (or `bun test/run.ts --preflight-only`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { connect } from "node:net";
import postgres from "postgres";

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** The tests' browser is Debian's Chromium at this path (test/helpers/browser.ts), never a downloaded one. */
const CHROMIUM = "/usr/bin/chromium";

interface Tool { name: string; present: () => boolean; aptPackage: string; why: string }

const onPath = (bin: string) => () => Bun.which(bin) !== null;

const TOOLS: Tool[] = [
  { name: CHROMIUM, present: () => existsSync(CHROMIUM), aptPackage: "chromium", why: "the web page tests (test/web)" },
  { name: "qpdf", present: onPath("qpdf"), aptPackage: "qpdf", why: "encrypting the redaction tests' fixtures" },
  { name: "pdftotext", present: onPath("pdftotext"), aptPackage: "poppler-utils", why: "reading redacted PDFs independently" },
  { name: "pdftoppm", present: onPath("pdftoppm"), aptPackage: "poppler-utils", why: "rendering redacted PDFs independently" },
];

export class PreflightError extends Error {}

const isLocal = (url: string) => ["127.0.0.1", "localhost", "[::1]", "::1"].includes(new URL(url).hostname);
const canApt = () => Bun.which("apt-get") !== null && process.getuid?.() === 0;

function run(cmd: string, args: string[], env: Record<string, string> = {}): boolean {
  return spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...env } }).status === 0;
}

async function until(check: () => Promise<boolean>, seconds: number): Promise<boolean> {
  for (let i = 0; i < seconds; i++) {
    if (await check()) return true;
    await Bun.sleep(1000);
  }
  return check();
}

/** Installs the missing apt packages (one `apt-get update`, one install), or refuses with the command. */
function installPackages(packages: string[], missing: string[], say: (line: string) => void): void {
  if (packages.length === 0) return;
  const install = `apt-get update && apt-get install -y ${packages.join(" ")}`;
  if (!canApt()) {
    const how = Bun.which("apt-get")
      ? `run as root: sudo sh -c '${install}'`
      : `install them with your system's package manager (on Debian/Ubuntu: ${install}); Chromium must be at ${CHROMIUM}`;
    throw new PreflightError(`missing: ${missing.join(", ")}. To run the tests, ${how}`);
  }
  say(`installing with apt: ${packages.join(" ")} (for ${missing.join(", ")})`);
  const apt = { DEBIAN_FRONTEND: "noninteractive" };
  if (!run("apt-get", ["update", "-qq"], apt) || !run("apt-get", ["install", "-y", "-qq", ...packages], apt)) {
    throw new PreflightError(`apt could not install ${packages.join(" ")}. Run: ${install}`);
  }
}

function redisPing(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ""), port: Number(port || 6379) });
    let reply = "";
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(2000, () => finish(false));
    socket.on("error", () => finish(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      reply += chunk.toString("latin1");
      if (reply.includes("\r\n")) finish(reply.startsWith("+PONG"));
    });
  });
}

async function ensureRedis(say: (line: string) => void): Promise<void> {
  if (await redisPing(REDIS_URL)) return say(`Redis: answering at ${REDIS_URL}`);
  const start = "redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no";
  if (!isLocal(REDIS_URL)) throw new PreflightError(`Redis is not answering at ${REDIS_URL} (TEST_REDIS_URL). Start it, or unset TEST_REDIS_URL to use a local one.`);
  if (!Bun.which("redis-server")) throw new PreflightError(`Redis is not installed. Run: apt-get install -y redis-server && ${start}`);
  const port = new URL(REDIS_URL).port || "6379";
  say(`Redis: not answering at ${REDIS_URL}; starting redis-server on port ${port} (no persistence, as the service requires)`);
  run("redis-server", ["--daemonize", "yes", "--bind", "127.0.0.1", "--port", port, "--save", "", "--appendonly", "no"]);
  if (!(await until(() => redisPing(REDIS_URL), 30))) throw new PreflightError(`Redis did not start at ${REDIS_URL}. Run: ${start}`);
  say(`Redis: started at ${REDIS_URL}`);
}

async function ensurePostgres(say: (line: string) => void): Promise<void> {
  const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {}, connect_timeout: 3 });
  const reachable = () => admin`select 1`.then(() => true, () => false);
  try {
    if (await reachable()) return say(`PostgreSQL: answering at ${POSTGRES_URL}`);
    const clusters = existsSync("/etc/postgresql") ? readdirSync("/etc/postgresql") : [];
    const fix = "apt-get install -y postgresql, allow trust auth for 127.0.0.1 in pg_hba.conf, then pg_ctlcluster <version> main start (or set TEST_POSTGRES_URL)";
    if (!isLocal(POSTGRES_URL)) throw new PreflightError(`PostgreSQL is not answering at ${POSTGRES_URL} (TEST_POSTGRES_URL). Start it, or unset TEST_POSTGRES_URL to use the local server.`);
    if (clusters.length === 0 || !Bun.which("pg_ctlcluster")) throw new PreflightError(`PostgreSQL is not answering at ${POSTGRES_URL} and no local cluster is installed. Run: ${fix}`);
    for (const version of clusters) {
      say(`PostgreSQL: not answering at ${POSTGRES_URL}; starting cluster ${version}/main`);
      run("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"]);
    }
    if (!(await until(reachable, 30))) throw new PreflightError(`PostgreSQL did not start at ${POSTGRES_URL}. Run: pg_ctlcluster --skip-systemctl-redirect ${clusters[0]} main start, and check its log in /var/log/postgresql`);
    say(`PostgreSQL: started at ${POSTGRES_URL}`);
  } finally {
    await admin.end({ timeout: 1 });
  }
}

/** Makes the machine ready for the suite, reporting each step through `say`; throws PreflightError with the fix otherwise. */
export async function preflight(say: (line: string) => void = console.log): Promise<void> {
  const missing = TOOLS.filter((t) => !t.present());
  const packages = new Set(missing.map((t) => t.aptPackage));
  // The cluster tests run several servers on one local Redis; install it with the tools when we can.
  const needRedisServer = isLocal(REDIS_URL) && !Bun.which("redis-server") && !(await redisPing(REDIS_URL));
  if (needRedisServer && canApt()) packages.add("redis-server");
  installPackages([...packages], [...missing.map((t) => `${t.name} (${t.why})`), ...(needRedisServer && canApt() ? ["redis-server"] : [])], say);
  const still = TOOLS.filter((t) => !t.present());
  if (still.length > 0) throw new PreflightError(`still missing after apt: ${still.map((t) => t.name).join(", ")}`);
  say(missing.length === 0 ? `tools: ${TOOLS.map((t) => t.name).join(", ")} present` : `tools: installed ${missing.map((t) => t.name).join(", ")}`);
  await ensurePostgres(say);
  await ensureRedis(say);
}

if (import.meta.main) {
  try {
    await preflight((line) => console.log(`preflight: ${line}`));
  } catch (e) {
    if (!(e instanceof PreflightError)) throw e;
    console.error(`preflight failed: ${e.message}`);
    process.exit(1);
  }
}
