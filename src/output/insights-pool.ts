import { Piscina } from "piscina";
import type { InsightsFormat, InsightsOutput } from "./insights.ts";

const WORKER = new URL("../../workers/insights.worker.ts", import.meta.url).href;
/** A thread that made nothing for this long exits; the next request starts one again, ms. */
const IDLE_MS = 30_000;

let pool: Piscina<{ json: string; format: InsightsFormat }, InsightsOutput> | undefined;

/**
 * The insights of a kept parse in a format (src/output/insights.ts), made on one thread of its own
 * (workers/insights.worker.ts), started on first use and gone when idle, as the workbook writer's
 * (src/output/xlsx-pool.ts): requests queue behind each other rather than take CPU from the parse workers.
 */
export async function insightsOffThread(json: string, format: InsightsFormat): Promise<InsightsOutput> {
  pool ??= new Piscina({ filename: WORKER, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS, atomics: "disabled" });
  const out = await pool.run({ json, format });
  return out.kind === "xlsx" ? { kind: "xlsx", bytes: new Uint8Array(out.bytes.buffer as ArrayBuffer, out.bytes.byteOffset, out.bytes.byteLength) } : out;
}
