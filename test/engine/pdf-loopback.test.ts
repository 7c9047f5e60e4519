import { describe, expect, test } from "bun:test";
import { statementPdf } from "../../bench/generate.ts";
import { openPdf, readPage } from "../../src/engine/pdf/extract.ts";
import { CopyingLoopbackPort, copyMessage } from "../../src/engine/pdf/loopback.ts";

describe("copyMessage gives what structuredClone would", () => {
  test("plain objects and arrays are copied deeply; null-prototype objects become plain ones", () => {
    const styles = Object.assign(Object.create(null) as Record<string, unknown>, { f1: { ascent: 0.9 } });
    const message = { chunk: { items: [{ str: "a", transform: [1, 0, 0, 1, 5, 6], hasEOL: false, x: undefined }], styles }, n: 3, s: null };
    const copied = copyMessage(message) as typeof message;
    expect(copied).toEqual(structuredClone(message));
    expect(copied.chunk.items).not.toBe(message.chunk.items);
    expect(copied.chunk.items[0]!.transform).not.toBe(message.chunk.items[0]!.transform);
    expect(Object.getPrototypeOf(copied.chunk.styles)).toBe(Object.prototype);
    expect("x" in copied.chunk.items[0]!).toBe(true);
    // The sender reusing its objects after posting (pdf.js does) cannot reach the copy.
    message.chunk.items = [];
    expect(copied.chunk.items.length).toBe(1);
  });

  test("buffers: copied unless transferred, then handed over", () => {
    const kept = new Uint8Array([1, 2, 3]);
    const moved = new Uint8Array([4, 5]);
    const copied = copyMessage({ kept, moved }, [moved.buffer]) as { kept: Uint8Array; moved: Uint8Array };
    expect(copied.kept).toEqual(kept);
    expect(copied.kept.buffer).not.toBe(kept.buffer);
    expect(copied.moved).toBe(moved);
  });

  test("other objects go through structuredClone; functions throw as they would", () => {
    const map = new Map([["k", { v: 1 }]]);
    const copied = copyMessage({ map, when: new Date(0), err: new TypeError("bad") }) as { map: Map<string, { v: number }>; when: Date; err: Error };
    expect(copied.map).toBeInstanceOf(Map);
    expect(copied.map).not.toBe(map);
    expect(copied.map.get("k")).toEqual({ v: 1 });
    expect(copied.when.getTime()).toBe(0);
    expect(copied.err.message).toBe("bad");
    expect(() => copyMessage({ f: () => 1 })).toThrow();
  });

  test("cycles and very deep nesting fall back to structuredClone of the whole message", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const copied = copyMessage(cyclic) as Record<string, unknown>;
    expect(copied.self).toBe(copied);
    let deep: unknown = "leaf";
    for (let k = 0; k < 500; k++) deep = { k, next: deep };
    expect(copyMessage(deep)).toEqual(deep);
  });
});

describe("CopyingLoopbackPort", () => {
  test("delivers each message to every listener, in order, after the posting code has run", async () => {
    const port = new CopyingLoopbackPort();
    const seen: string[] = [];
    const a = (e: { data: unknown }) => seen.push(`a:${(e.data as { n: number }).n}`);
    const abort = new AbortController();
    port.addEventListener("message", a);
    port.addEventListener("message", (e) => seen.push(`b:${(e.data as { n: number }).n}`), { signal: abort.signal });
    port.postMessage({ n: 1 });
    port.postMessage({ n: 2 });
    expect(seen).toEqual([]);
    await Bun.sleep(0);
    expect(seen).toEqual(["a:1", "b:1", "a:2", "b:2"]);
    port.removeEventListener("message", a);
    abort.abort();
    port.postMessage({ n: 3 });
    await Bun.sleep(0);
    expect(seen.length).toBe(4);
  });

  test("documents opened at once on the shared worker read independently, and one closing leaves the other", async () => {
    const [a, b] = await Promise.all([statementPdf(12), statementPdf(3)]);
    const [docA, docB] = await Promise.all([openPdf(a), openPdf(b)]);
    expect([docA.numPages, docB.numPages]).toEqual([12, 3]);
    const [pageA, pageB] = await Promise.all([readPage(docA, 12), readPage(docB, 3)]);
    expect(pageA.items.map((i) => i.str)).toContain("Page 12 of 12");
    expect(pageB.items.map((i) => i.str)).toContain("Page 3 of 3");
    await docB.destroy();
    expect((await readPage(docA, 1)).items.map((i) => i.str)).toContain("BENCH BANK PLC - STATEMENT OF ACCOUNT");
    await docA.destroy();
  });
});
