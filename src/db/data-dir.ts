import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError } from "../config.ts";

/**
 * The embedded database's directory holds every owner's e-mail and the API key hashes, so it is
 * private to the service's user (issue 15 items 5 and 12):
 * - created 0700, its files 0600: PGlite writes its files 0666 whatever the umask, so modes are
 *   narrowed at start (files of older versions), after PGlite opened and migrated, and at close.
 *   Files it creates in between sit inside the 0700 directory, which other users cannot enter;
 * - a directory that other users can write (or that belongs to someone else) is refused, because
 *   they could rewrite `api_keys` under us;
 * - one server at a time: a lock file (`server.lock`, our pid) is created exclusively; a lock
 *   whose pid no longer runs is stale and taken over. A lock file, not an OS lock: Bun has no
 *   flock(), and a pid file also tells the operator which process holds the directory.
 */
export const LOCK_FILE = "server.lock";

export interface DataDirLock {
  /** Narrows the modes of whatever PGlite wrote since (it creates its files 0666 whatever the umask). */
  narrow(): void;
  release(): void;
}

export function prepareDataDir(dir: string): DataDirLock {
  const path = resolve(dir);
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const st = statSync(path);
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) {
    throw new ConfigError(`DATA_DIR ${path} belongs to another user (uid ${st.uid}); refusing to keep the database there`);
  }
  if ((st.mode & 0o022) !== 0) {
    throw new ConfigError(
      `DATA_DIR ${path} can be written by other users (mode ${(st.mode & 0o777).toString(8)}); they could rewrite the keys table. Run: chmod 700 ${path}`,
    );
  }
  const lock = takeLock(path);
  narrowModes(path);
  return { narrow: () => narrowModes(path), release: () => lock.release() };
}

function takeLock(dir: string): Pick<DataDirLock, "release"> {
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, `${process.pid} ${startTime(process.pid) ?? ""}\n`);
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          // Only our own lock is removed (a stale-lock takeover may have replaced it).
          if (readLock(file)?.pid === process.pid) unlinkSync(file);
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const holder = readLock(file);
      if (holder !== undefined && holder.pid !== process.pid && isRunning(holder)) {
        throw new ConfigError(`DATA_DIR ${dir} is in use by another server (pid ${holder.pid}, ${file}); stop it first or use another DATA_DIR`);
      }
      // Stale: its process is gone (or the file is unreadable). Take it over.
      unlinkSync(file);
    }
  }
  throw new ConfigError(`DATA_DIR ${dir}: could not take ${file}`);
}

interface LockHolder {
  pid: number;
  /** The holder's start time (Linux /proc), so a recycled pid (a restarted container) is not taken for it. */
  start?: string;
}

function readLock(file: string): LockHolder | undefined {
  try {
    const [pid, start] = readFileSync(file, "utf8").trim().split(/\s+/);
    const n = Number(pid);
    return Number.isInteger(n) && n > 0 ? { pid: n, ...(start ? { start } : {}) } : undefined;
  } catch {
    return undefined;
  }
}

function startTime(pid: number): string | undefined {
  try {
    // Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces, so count from its ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function isRunning({ pid, start }: LockHolder): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    // EPERM: it runs, as another user.
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const now = startTime(pid);
  return start === undefined || now === undefined || now === start;
}

/** Directories 0700, files 0600, throughout (symlinks are left alone). */
function narrowModes(dir: string): void {
  chmodSync(dir, 0o700);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) narrowModes(p);
    else if ((st.mode & 0o077) !== 0) chmodSync(p, 0o600);
  }
}
