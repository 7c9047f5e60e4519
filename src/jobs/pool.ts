import { MessageChannel, type MessagePort } from "node:worker_threads";
import { Piscina } from "piscina";
import { AppError } from "../errors.ts";
import { type ParseWorkerData, type PortMessage, type PortReply, RECYCLE_EXIT_CODE, type TaskOutputs, type WorkerAnswer, type WorkerTask } from "./tasks.ts";
import type { PdfExtractorName } from "../engine/pdf/extractor-name.ts";

/** A task as the caller writes it: the pool creates and transfers the progress port itself. */
export type TaskInput = WorkerTask extends infer T ? (T extends { port: MessagePort } ? Omit<T, "port"> : T) : never;

export interface RunOptions {
  /** Aborting terminates the worker running the task (Piscina replaces it) and rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Progress messages, delivered in order, all of them before the returned promise settles.
   * `reply` answers the task over its port (see PortReply).
   */
  onMessage?: (m: Exclude<PortMessage, { type: "end" }>, reply: (r: PortReply) => void) => void;
}

export interface WorkerPool {
  run<T extends TaskInput>(task: T, options?: RunOptions): Promise<TaskOutputs[T["op"]]>;
  readonly threads: number;
  /** Tasks waiting in Piscina's queue for a free thread. */
  readonly queued: number;
  /** True once a worker has loaded the engine, until destroy(). */
  ready(): boolean;
  /** Loads the engine in the workers (every thread answers one ping). */
  warm(): Promise<void>;
  destroy(): Promise<void>;
}

export interface PoolOptions {
  threads: number;
  /** Recycle a worker whose heap exceeds this many MiB after a task (0 or unset: never). */
  maxHeapMb?: number;
  /** PDF text extractor of the workers (PDF_EXTRACTOR; unset: the engine's default). */
  extractor?: PdfExtractorName;
  /** Each worker warms its engine before answering its first ping (WORKER_WARMUP; unset: no warm-up). */
  warmup?: boolean;
  /** A worker failed outside any task (e.g. could not load); Piscina replaces it. */
  onError?: (e: unknown) => void;
  /** Worker module; tests pass a different one to crash a worker on purpose. */
  filename?: string;
}

const DEFAULT_WORKER = new URL("../../workers/parse.worker.ts", import.meta.url).href;

export const workerCrashed = (internal?: unknown) =>
  new AppError("worker_crashed", 500, "The parse worker stopped unexpectedly; please retry", { internal });

const PORT_OPS = new Set<WorkerTask["op"]>(["parse", "pages"]);

/** The one Piscina pool of the service: fixed size, threads started up front. */
/** How often one task may land on a retiring worker before it counts as a crash. */
const RECYCLE_RETRIES = 3;
const RECYCLED = new RegExp(`exited with code: ${RECYCLE_EXIT_CODE}$`);

export function createWorkerPool({ threads, filename = DEFAULT_WORKER, maxHeapMb = 0, extractor, warmup = false, onError = () => {} }: PoolOptions): WorkerPool {
  const workerData: ParseWorkerData = { maxHeapBytes: maxHeapMb * 1024 * 1024, ...(extractor ? { extractor } : {}), warmup };
  // Atomics off: with them Piscina parks an idle thread in Atomics.wait, so nothing a worker
  // schedules after answering (its heap check, src/workers/parse.worker.ts) runs until the next
  // task arrives, and then runs in front of it. Tasks here are long enough that message passing
  // costs nothing measurable.
  const piscina = new Piscina<WorkerTask, WorkerAnswer>({ filename, minThreads: threads, maxThreads: threads, workerData, atomics: "disabled" });
  // Without a listener, a worker error outside a task would be an unhandled 'error' event.
  piscina.on("error", onError);
  let warmed = false;
  let destroyed = false;

  async function run<T extends TaskInput>(task: T, options: RunOptions = {}): Promise<TaskOutputs[T["op"]]> {
    if (destroyed) throw new AppError("service_unavailable", 503, "The service is shutting down", { retryAfter: 5 });
    for (let attempt = 1; ; attempt++) {
      try {
        return await runOnce(task, options);
      } catch (e) {
        // The task reached a worker that was retiring (heap limit) and never started: run it again.
        const recycled = e instanceof AppError && e.errorClass === "worker_crashed" && e.internal instanceof Error && RECYCLED.test(e.internal.message);
        if (!recycled || attempt >= RECYCLE_RETRIES) throw e;
      }
    }
  }

  async function runOnce<T extends TaskInput>(task: T, { signal, onMessage }: RunOptions): Promise<TaskOutputs[T["op"]]> {
    let answer: WorkerAnswer;
    if (!PORT_OPS.has(task.op)) {
      answer = await settle(piscina.run(task as WorkerTask, { signal }), signal);
    } else {
      const { port1, port2 } = new MessageChannel();
      let ended!: () => void;
      const end = new Promise<void>((resolve) => (ended = resolve));
      const reply = (r: PortReply) => port1.postMessage(r);
      port1.on("message", (m: PortMessage) => (m.type === "end" ? ended() : onMessage?.(m, reply)));
      try {
        answer = await settle(piscina.run({ ...task, port: port2 } as WorkerTask, { signal, transferList: [port2] }), signal);
        // The answer can overtake the port's last messages; `end` is posted after all of them.
        await end;
      } finally {
        port1.close();
      }
    }
    if (!answer.ok) throw AppError.fromJSON(answer.error);
    return answer.value as TaskOutputs[T["op"]];
  }

  return {
    run,
    get threads() {
      return threads;
    },
    get queued() {
      return piscina.queueSize;
    },
    ready: () => warmed && !destroyed,
    async warm() {
      await Promise.all(Array.from({ length: threads }, () => run({ op: "ping" })));
      warmed = true;
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await piscina.destroy();
    },
  };
}

/** A rejection from Piscina is either our abort or a worker that died (exit, uncaught error). */
async function settle(p: Promise<WorkerAnswer>, signal: AbortSignal | undefined): Promise<WorkerAnswer> {
  try {
    return await p;
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw workerCrashed(e);
  }
}
