import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { WorkerMessageHandler } from "pdfjs-dist/legacy/build/pdf.worker.mjs";

/**
 * pdf.js runs its "worker" in this thread (there are no Web Workers here) and talks to it through
 * a loopback port that structuredClone()s every message, as a thread boundary would. On a 2,000-
 * page statement those clones were 12-14% of text extraction: the messages on this path are plain
 * data (text items: objects, arrays, strings, numbers), which a copy in JavaScript duplicates about
 * six times faster than Bun's structuredClone. So this port copies plain objects and arrays itself
 * and hands everything else (typed arrays, Maps, errors, class instances) to structuredClone.
 * Either way the receiver gets its own copy: pdf.js reuses some objects after posting them.
 *
 * It keeps the contract of pdf.js's own LoopbackPort (src/display/api.js): listeners of both
 * sides on one port, each message delivered to all of them on a later microtask, in order.
 */
type Listener = (this: CopyingLoopbackPort, event: { data: unknown }) => void;

/** Nesting deeper than this is not what pdf.js sends: the message goes to structuredClone whole. */
const MAX_COPY_DEPTH = 64;

class TooDeep extends Error {}

export class CopyingLoopbackPort {
  #listeners = new Map<Listener, (() => void) | null>();
  #deferred: Promise<void> = Promise.resolve();

  postMessage(message: unknown, transfer?: Transferable[]): void {
    const event = { data: copyMessage(message, transfer) };
    this.#deferred.then(() => {
      for (const [listener] of this.#listeners) listener.call(this, event);
    });
  }

  addEventListener(_type: "message", listener: Listener, options: { signal?: AbortSignal } | null = null): void {
    let unlink: (() => void) | null = null;
    const signal = options?.signal;
    if (signal) {
      if (signal.aborted) return;
      const onAbort = () => this.removeEventListener("message", listener);
      signal.addEventListener("abort", onAbort);
      unlink = () => signal.removeEventListener("abort", onAbort);
    }
    this.#listeners.set(listener, unlink);
  }

  removeEventListener(_type: "message", listener: Listener): void {
    this.#listeners.get(listener)?.();
    this.#listeners.delete(listener);
  }

  terminate(): void {
    for (const unlink of this.#listeners.values()) unlink?.();
    this.#listeners.clear();
  }
}

/** A deep copy of `message`, as structuredClone(message, { transfer }) would give the receiver. */
export function copyMessage(message: unknown, transfer?: Transferable[]): unknown {
  const moved = new Set<unknown>(transfer ?? []);
  try {
    return copy(message, moved, 0);
  } catch (e) {
    if (!(e instanceof TooDeep)) throw e;
    return structuredClone(message, transfer ? { transfer } : undefined);
  }
}

function copy(value: unknown, moved: Set<unknown>, depth: number): unknown {
  if (value === null || typeof value !== "object") {
    // Functions and symbols cannot cross a port: structuredClone throws the DataCloneError.
    return typeof value === "function" || typeof value === "symbol" ? structuredClone(value) : value;
  }
  if (depth > MAX_COPY_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i], moved, depth + 1);
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], moved, depth + 1);
    return out;
  }
  // A buffer the sender transfers is handed over as it is: the sender gives it up.
  if (moved.has(value) || (ArrayBuffer.isView(value) && moved.has(value.buffer))) return value;
  return structuredClone(value);
}

/** pdfjs verbosity 0 = errors only: no font-substitution warnings on the console. */
export const VERBOSITY_ERRORS_ONLY = 0;

let shared: pdfjs.PDFWorker | undefined;

/**
 * The thread's one pdf.js worker on a CopyingLoopbackPort, for getDocument's `worker` option.
 * Documents opened on it each get their own handler on the worker side, released by destroy().
 */
export function loopbackWorker(): pdfjs.PDFWorker {
  if (!shared) {
    const port = new CopyingLoopbackPort();
    WorkerMessageHandler.initializeFromPort(port);
    // The port stands in for a Worker: pdf.js only calls the methods above on it.
    shared = pdfjs.PDFWorker.create({ port: port as unknown as Worker, verbosity: VERBOSITY_ERRORS_ONLY });
  }
  return shared;
}
