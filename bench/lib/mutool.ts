/**
 * MuPDF's `mutool`, the benches' comparator (never used by the product): found, or installed from
 * Debian's `mupdf-tools` when this runs as root on a machine with apt, or the exact command to run.
 */
import { spawnSync } from "node:child_process";

export const MUTOOL_INSTALL = "apt-get update && apt-get install -y mupdf-tools";

/** True when `mutool` is on the PATH (installing it first when root with apt); otherwise prints how to get it. */
export function ensureMutool(): boolean {
  if (Bun.which("mutool")) return true;
  const root = process.getuid?.() === 0;
  if (root && Bun.which("apt-get")) {
    console.error(`mutool missing: running ${MUTOOL_INSTALL}`);
    spawnSync("sh", ["-c", `${MUTOOL_INSTALL} >/dev/null`], { stdio: ["ignore", "ignore", "inherit"] });
    if (Bun.which("mutool")) return true;
  }
  console.error(`mutool is needed as the comparator; install it with: ${MUTOOL_INSTALL}`);
  return false;
}

/** Pages of a PDF as mutool counts them (undefined when it cannot open the file). */
export function mutoolPages(file: string): number | undefined {
  const r = spawnSync("mutool", ["info", file], { encoding: "utf8" });
  const m = /^Pages:\s*(\d+)/m.exec(r.stdout ?? "");
  return m ? Number(m[1]) : undefined;
}

/**
 * `mutool draw -q -F stext -o /dev/null` over `files`, `parallel` processes at a time (xargs -P,
 * one file per process): wall-clock ms and the CPU time of xargs and every mutool it ran.
 */
export function mutoolBatch(files: readonly string[], parallel: number): { ms: number; cpuMs: number } {
  const start = performance.now();
  const r = Bun.spawnSync(["xargs", "-0", `-P${parallel}`, "-n1", "mutool", "draw", "-q", "-F", "stext", "-o", "/dev/null"], {
    stdin: new TextEncoder().encode(files.join("\0")),
    stdout: "ignore",
    stderr: "pipe",
  });
  const ms = performance.now() - start;
  if (r.exitCode !== 0) throw new Error(`mutool batch failed (${r.exitCode}): ${r.stderr.toString().slice(0, 300)}`);
  return { ms, cpuMs: Number(r.resourceUsage.cpuTime.total) / 1000 };
}
