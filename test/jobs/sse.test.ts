import { describe, expect, test } from "bun:test";
import { formatComment, formatEvent, sseResponse } from "../../src/http/sse.ts";

describe("SSE formatting", () => {
  test("multi-line data becomes several data lines; id and event come first", () => {
    expect(formatEvent({ data: "a\nb\r\nc", id: 3, event: "result" })).toBe("event: result\nid: 3\ndata: a\ndata: b\ndata: c\n\n");
    expect(formatEvent({ data: "{}" })).toBe("data: {}\n\n");
    // A lone CR breaks a line too (the one-line fast path must not take it).
    expect(formatEvent({ data: "a\rb" })).toBe("data: a\ndata: b\n\n");
  });
  test("CR or LF in event or id is refused", () => {
    expect(() => formatEvent({ data: "x", event: "result\ndata: forged" })).toThrow();
    expect(() => formatEvent({ data: "x", id: "1\r2" })).toThrow();
  });
  test("comments cannot break out of their line", () => {
    expect(formatComment("a\nb")).toBe(": a b\n\n");
  });
  test("a quiet stream gets heartbeat comments, and onClose runs once when it ends", async () => {
    let closed = 0;
    const res = sseResponse(
      {
        async run(send) {
          await Bun.sleep(250);
          send({ data: "end", event: "result", id: 1 });
        },
        onClose: () => closed++,
      },
      { heartbeatMs: 50 },
    );
    const text = await res.text();
    expect(text.match(/^: heartbeat$/gm)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(text.endsWith("event: result\nid: 1\ndata: end\n\n")).toBe(true);
    expect(closed).toBe(1);
  });
});
