/**
 * The real parse worker, except that a planning task, once it has posted its split plan, waits
 * (blocking its thread, as a slow start would) until the main thread posts `{ type: "go" }` on its
 * port. Tests release it once a helper has started reading, so the helper is certain to claim
 * pages however loaded the machine is; without the hold, a planning task that ran ahead could
 * claim every page before the helper's thread was scheduled.
 */
import { type MessagePort, receiveMessageOnPort } from "node:worker_threads";
import handle from "../../../workers/parse.worker.ts";
import type { PortMessage, WorkerTask } from "../../../src/jobs/tasks.ts";

/** Bounded: a test that never releases fails on its own assertions instead of hanging the thread. */
const HOLD_LIMIT_MS = 30_000;
const nap = new Int32Array(new SharedArrayBuffer(4));

function holdUntilGo(port: MessagePort): void {
  const until = Date.now() + HOLD_LIMIT_MS;
  for (;;) {
    const m = receiveMessageOnPort(port);
    if (m && (m.message as { type?: string }).type === "go") return;
    if (Date.now() > until) throw new Error("held-split worker: no go within the limit");
    Atomics.wait(nap, 0, 0, 2);
  }
}

/** The task's port, with its `split` message followed by the hold. */
function holdingPort(port: MessagePort): MessagePort {
  return new Proxy(port, {
    get(target, key) {
      if (key === "postMessage")
        return (m: PortMessage) => {
          target.postMessage(m);
          if (m.type === "split") holdUntilGo(target);
        };
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

export default function held(task: WorkerTask): ReturnType<typeof handle> {
  return handle(task.op === "parse" ? { ...task, port: holdingPort(task.port) } : task);
}
