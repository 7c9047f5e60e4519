import { warmupStatementPdf } from "../engine/warmup/statement-pdf.ts";

/**
 * Warming a parse worker before it answers its readiness ping. Each worker thread compiles its own
 * copy of the engine: a 300-page statement cost 1.49 s of CPU as a fresh worker's first document
 * and 0.72 s once warm (docs/benchmarks.md, "Worker warm-up"). Parsing a small made-up statement
 * a few times first runs the same code a real parse runs (PDFium, lines, layout, rows, sections,
 * chain, metadata, integrity, JSON, CSV), so the optimising compiler has seen it before the first
 * upload. The document lives in memory only.
 */

/** How much warm-up a worker does: `rounds` parses of a `pages`-page statement of `rowsPerPage` rows. */
export interface WarmupPlan {
  rounds: number;
  pages: number;
  rowsPerPage: number;
}

/**
 * Measured on a fresh 2-worker server (docs/benchmarks.md, "Worker warm-up"): 4 rounds of 10 pages
 * brought the first 300-page job's CPU as far down as 6 rounds of 12 pages or 2 of 20, for less
 * start-up time; 3 rounds of 8 pages left more of the first job cold.
 */
export const WARMUP_PLAN: WarmupPlan = { rounds: 4, pages: 10, rowsPerPage: 40 };

/** What a worker's warm-up did; reported in its ping answer. */
export interface WarmupReport {
  ok: boolean;
  /** Rounds that completed. */
  rounds: number;
  /** Wall and CPU time of the whole warm-up on this thread. */
  ms: number;
  cpuMs: number;
  /** The worker's heap once the warm-up's garbage is collected, as its heap check (WORKER_MAX_HEAP_MB) measures it; set by the worker. */
  heapBytes?: number;
  /** Why it stopped early (the worker serves anyway, only colder). */
  error?: string;
}

/**
 * Runs `round` on the warm-up document `plan.rounds` times. Never throws: a failure is logged and
 * reported, and the worker goes on to serve, only without the head start.
 */
export async function warmUp(round: (bytes: Uint8Array, pages: number) => Promise<void>, plan: WarmupPlan = WARMUP_PLAN): Promise<WarmupReport> {
  const t0 = performance.now();
  const cpu0 = threadCpuMs();
  let rounds = 0;
  const report = (error?: string): WarmupReport => ({
    ok: error === undefined,
    rounds,
    ms: Math.round(performance.now() - t0),
    cpuMs: Math.round(threadCpuMs() - cpu0),
    ...(error === undefined ? {} : { error }),
  });
  try {
    const bytes = await warmupStatementPdf(plan);
    // Each round gets its own copy: the engine may detach or keep the bytes it is given.
    for (; rounds < plan.rounds; rounds++) await round(bytes.slice(), plan.pages);
    return report();
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    console.error("parse worker: warm-up failed, serving without it:", e instanceof Error ? (e.stack ?? e.message) : e);
    return report(error);
  }
}

/** CPU time of this thread, ms (the process's where a runtime has no per-thread figure). */
const threadCpuMs = (): number => {
  const u = typeof process.threadCpuUsage === "function" ? process.threadCpuUsage() : process.cpuUsage();
  return (u.user + u.system) / 1000;
};
