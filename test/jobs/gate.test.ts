import { describe, expect, test } from "bun:test";
import type { AppError } from "../../src/errors.ts";
import { DocumentGate } from "../../src/jobs/gate.ts";
import { errorClassOf } from "../helpers/errors.ts";


describe("DocumentGate", () => {
  test("runs up to concurrency, queues FIFO up to maxQueued, refuses beyond, per key first", async () => {
    const gate = new DocumentGate({ concurrency: 1, maxQueued: 2, maxPerKey: 2 });
    const order: string[] = [];
    const a1 = gate.enter("a");
    const b1 = gate.enter("b");
    const c1 = gate.enter("c");
    for (const [name, t] of [["a1", a1], ["b1", b1], ["c1", c1]] as const) void t.started.then(() => order.push(name));
    expect(errorClassOf(() => gate.enter("d"))).toBe("queue_full");
    expect(errorClassOf(() => gate.enter("a"))).toBe("queue_full");
    await Bun.sleep(0);
    expect(order).toEqual(["a1"]);
    b1.release(); // leaves the queue before starting
    a1.release();
    await Bun.sleep(0);
    expect(order).toEqual(["a1", "c1"]);
    expect(gate.runningCount).toBe(1);
    expect(gate.queuedCount).toBe(0);
    c1.release();
    c1.release(); // idempotent
    expect(gate.runningCount).toBe(0);
  });

  test("per-key limit gives rate_limited with Retry-After; close() refuses everything", () => {
    const gate = new DocumentGate({ concurrency: 4, maxQueued: 4, maxPerKey: 1 });
    const t = gate.enter("k");
    let err: AppError | undefined;
    try {
      gate.enter("k");
    } catch (e) {
      err = e as AppError;
    }
    expect(err?.errorClass).toBe("rate_limited");
    expect(err?.status).toBe(429);
    expect(err?.retryAfter).toBeGreaterThan(0);
    t.release();
    expect(errorClassOf(() => gate.enter("k").release())).toBe("admitted");
    gate.close();
    expect(errorClassOf(() => gate.enter("other"))).toBe("service_unavailable");
  });
});
