import { Piscina } from "piscina";

const WORKER = new URL("../../workers/xlsx.worker.ts", import.meta.url).href;
/** A thread that wrote nothing for this long exits; the next workbook starts one again, ms. */
const IDLE_MS = 30_000;

let pool: Piscina<{ json: string }, Uint8Array> | undefined;

/**
 * The workbook of a ParseResponse (its JSON, as the job backend keeps it), written on one thread of
 * its own (workers/xlsx.worker.ts), started on first use and gone when idle. One thread: workbooks
 * queue behind each other rather than take CPU from the parse workers.
 */
export async function xlsxOffThread(json: string): Promise<Uint8Array<ArrayBuffer>> {
  pool ??= new Piscina({ filename: WORKER, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS, atomics: "disabled" });
  const bytes = await pool.run({ json });
  return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}
