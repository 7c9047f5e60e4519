/**
 * A stand-in worker for the pool's failure paths, which a real statement cannot trigger on
 * demand: `bank: "crash"` exits the thread mid-task, `bank: "hang"` never returns.
 */
import { threadId } from "node:worker_threads";
import type { WorkerAnswer, WorkerTask } from "../../../src/jobs/tasks.ts";

export default async function handle(task: WorkerTask): Promise<WorkerAnswer> {
  if (task.op === "parse") {
    if (task.doc.bank === "crash") process.exit(7);
    if (task.doc.bank === "hang") for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
  return { ok: true, value: { threadId, instance: String(threadId), warmup: null } };
}
