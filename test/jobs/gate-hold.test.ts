import { describe, expect, test } from "bun:test";
import type { AppError } from "../../src/errors.ts";
import { DocumentGate } from "../../src/jobs/gate.ts";
import { errorClassOf } from "../helpers/errors.ts";


/** Issue 15 item 8: the key's place and the upload's bytes are taken together, before reading. */
describe("DocumentGate holds", () => {
  test("a hold takes the key's place at once: concurrent uploads past the limit are refused before any is read", () => {
    const gate = new DocumentGate({ concurrency: 1, maxQueued: 100, maxPerKey: 8, maxInflightBytes: 10_000 });
    const holds = Array.from({ length: 8 }, () => gate.hold("k", 100));
    expect(errorClassOf(() => gate.hold("k", 100))).toBe("rate_limited");
    expect(gate.heldBytes).toBe(800);
    // Entering with a hold does not count the key twice.
    const tickets = holds.map((h) => gate.enter(h));
    expect(errorClassOf(() => gate.hold("k", 100))).toBe("rate_limited");
    for (const t of tickets) t.release();
    expect(gate.heldBytes).toBe(0);
    expect(errorClassOf(() => gate.hold("k", 100).release())).toBe("admitted");
  });

  test("the byte budget is server-wide: past it another key gets 503 queue_full with Retry-After; release gives the bytes back", () => {
    const gate = new DocumentGate({ concurrency: 4, maxQueued: 4, maxPerKey: 8, maxInflightBytes: 1000 });
    const a = gate.hold("a", 700);
    let err: AppError | undefined;
    try {
      gate.hold("b", 400);
    } catch (e) {
      err = e as AppError;
    }
    expect(err?.errorClass).toBe("queue_full");
    expect(err?.status).toBe(503);
    expect(err?.retryAfter).toBeGreaterThan(0);
    a.release();
    a.release(); // idempotent
    expect(gate.heldBytes).toBe(0);
    // One upload larger than the whole budget still gets in alone.
    const big = gate.hold("b", 5000);
    expect(errorClassOf(() => gate.hold("c", 1))).toBe("queue_full");
    big.release();
  });

  test("a hold refused at enter (closed gate) is released", () => {
    const gate = new DocumentGate({ concurrency: 1, maxQueued: 0, maxPerKey: 2, maxInflightBytes: 1000 });
    const h = gate.hold("k", 500);
    gate.close();
    expect(errorClassOf(() => gate.enter(h))).toBe("service_unavailable");
    expect(gate.heldBytes).toBe(0);
  });
});
