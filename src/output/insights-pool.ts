import { Piscina } from "piscina";
import { responseJson } from "../engine/response-json.ts";
import { withUtf8 } from "../jobs/result-text.ts";
import type { InsightsAnswer, InsightsFormat, InsightsTask } from "./insights.ts";
import { warmupStatement } from "./insights-warmup.ts";

const WORKER = new URL("../../workers/insights.worker.ts", import.meta.url).href;
/** A thread that made nothing for this long exits (unless the server keeps it warm); the next request starts one again, ms. */
const IDLE_MS = 30_000;

let pool: Piscina<InsightsTask, InsightsAnswer> | undefined;

const start = (keepWarm: boolean) =>
  (pool ??= new Piscina({ filename: WORKER, minThreads: keepWarm ? 1 : 0, maxThreads: 1, idleTimeout: keepWarm ? Number.POSITIVE_INFINITY : IDLE_MS, atomics: "disabled" }));

/** The insights of a kept parse as the HTTP layer keeps them: the JSON as bytes (text read from them when asked), the CSV, or the workbook. */
export type InsightsMade = (({ kind: "json" } | { kind: "csv"; csv: string }) & { json: string; utf8: Uint8Array }) | { kind: "xlsx"; bytes: Uint8Array<ArrayBuffer> };

/**
 * The insights of a kept parse in a format (src/output/insights.ts), made on one thread of its own
 * (workers/insights.worker.ts), as the workbook writer's (src/output/xlsx-pool.ts): requests queue
 * behind each other rather than take CPU from the parse workers. Started on first use and gone
 * when idle, unless the server started it warm (prewarmInsights). The JSON comes back as the UTF-8
 * bytes the thread wrote and moved here (no copy): this thread neither joins the 59 MB of the bench
 * statement's answer nor encodes it (docs/insights.md, Speed), and decodes it only if it is read as
 * text. A kept parse held as bytes (src/jobs/result-text.ts) goes to the thread as they are.
 */
export async function insightsOffThread(json: string | Uint8Array, format: InsightsFormat): Promise<InsightsMade> {
  const out = await start(false).run({ json, format });
  if (out.kind === "xlsx") return out;
  return out.kind === "csv" ? withUtf8({ kind: "csv" as const, csv: out.csv }, out.utf8) : withUtf8({ kind: "json" as const }, out.utf8);
}

/**
 * Starts the insights thread and runs a made-up statement through it (src/output/insights-warmup.ts)
 * so the first real request finds the thread up and the rules compiled: starting the thread took
 * ~380 ms and the first analysis of a large statement ran 2-3 times slower than the next ones
 * (docs/insights.md, Speed). The thread is kept for the server's life. Called by src/main.ts with
 * the server's address: the warm-up waits until /readyz answers 200 (the engine's threads loaded),
 * so it never takes CPU from the start. Resolves when warm or given up (never rejects).
 */
export async function prewarmInsights(serverUrl?: string, rounds = 3): Promise<void> {
  try {
    if (serverUrl !== undefined) {
      const deadline = Date.now() + 120_000;
      while (!(await fetch(`${serverUrl}/readyz`).then((r) => r.ok, () => false))) {
        if (Date.now() > deadline) return;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const p = start(true);
    const json = responseJson(warmupStatement());
    for (let i = 0; i < rounds; i++) await p.run({ json, format: i === rounds - 1 ? "csv" : "json" });
  } catch {
    // A warm-up that fails leaves the thread to start on first use, as before.
  }
}

/** Ends the insights thread (server shutdown, tests); the next request starts one again. */
export async function closeInsightsPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.destroy();
}
