import { describe, expect, test } from "bun:test";
import { readSse, SseParser, type SseMessage } from "../../src/client/sse.ts";

const feedAll = (chunks: string[]) => {
  const p = new SseParser();
  return [...chunks.flatMap((c) => p.feed(c)), ...p.end()];
};

const streamOf = (chunks: (string | Uint8Array)[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const x of chunks) c.enqueue(typeof x === "string" ? new TextEncoder().encode(x) : x);
      c.close();
    },
  });

describe("SSE wire format", () => {
  test("default messages, named events, ids, comments and multi-line data", () => {
    const text = ': heartbeat\n\nid: 1\ndata: {"stage":"pages","current":1,"total":2}\n\nid: 2\nevent: result\ndata: line one\ndata: line two\n\n';
    expect(feedAll([text])).toEqual([
      { event: "message", data: '{"stage":"pages","current":1,"total":2}', id: "1" },
      { event: "result", data: "line one\nline two", id: "2" },
    ]);
  });

  test("CRLF, CR and LF line ends, split anywhere, give the same messages", () => {
    const lf = "event: a\ndata: x\n\ndata: y\n\n";
    const expected = [
      { event: "a", data: "x", id: "" },
      { event: "message", data: "y", id: "" },
    ];
    for (const text of [lf, lf.replaceAll("\n", "\r\n"), lf.replaceAll("\n", "\r")]) {
      expect(feedAll([text])).toEqual(expected);
      // every split point, including between the CR and LF of a CRLF
      for (let i = 1; i < text.length; i++) expect(feedAll([text.slice(0, i), text.slice(i)])).toEqual(expected);
    }
  });

  test("field rules: one leading space stripped, no colon means empty value, unknown fields and bad retry ignored, BOM dropped", () => {
    const text = "\uFEFFdata:  two spaces\nfoo: bar\nretry: soon\n\ndata\n\nretry: 2500\ndata: z\n\n";
    expect(feedAll([text])).toEqual([
      { event: "message", data: " two spaces", id: "" },
      { event: "message", data: "", id: "" },
      { event: "message", data: "z", id: "", retry: 2500 },
    ]);
  });

  test("an event without data is not dispatched; an unterminated last message is dropped", () => {
    expect(feedAll(["event: result\n\n", "data: partial"])).toEqual([]);
  });

  test("id persists across messages and an id with NUL is ignored", () => {
    expect(feedAll(["id: 7\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\n"]).map((m) => m.id)).toEqual(["7", "7", "7"]);
  });

  test("readSse decodes UTF-8 split across chunks", async () => {
    const bytes = new TextEncoder().encode("data: ₦1,000\n\n");
    const cut = 7; // inside the 3-byte naira sign
    const out: SseMessage[] = [];
    for await (const m of readSse(streamOf([bytes.slice(0, cut), bytes.slice(cut)]))) out.push(m);
    expect(out).toEqual([{ event: "message", data: "₦1,000", id: "" }]);
  });

  test("readSse cancels the body when the consumer stops early", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(new TextEncoder().encode("data: tick\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const m of readSse(body)) {
      expect(m.data).toBe("tick");
      break;
    }
    expect(cancelled).toBe(true);
  });

  test("feedBytes gives feed's messages for every split point of the bytes, inside a UTF-8 sequence or a CRLF too", () => {
    const text = 'id: 1\r\ndata: {"narration":"₦1,000 naira — ok"}\r\n\r\nevent: result\rdata: é\n\n';
    const bytes = new TextEncoder().encode(text);
    const expected = feedAll([text]);
    expect(expected).toHaveLength(2);
    for (let i = 1; i < bytes.length; i++) {
      const p = new SseParser();
      expect([...p.feedBytes(bytes.slice(0, i)), ...p.feedBytes(bytes.slice(i)), ...p.end()]).toEqual(expected);
    }
  });

  test("readSse drops a BOM at the start of the stream only, and reads one long data line in many chunks whole", async () => {
    const long = "x".repeat(300_000);
    const bytes = new TextEncoder().encode(`\uFEFFdata: ${long}\n\ndata: \uFEFFkept\n\n`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 1000) chunks.push(bytes.slice(i, i + 1000));
    const out: SseMessage[] = [];
    for await (const m of readSse(streamOf(chunks))) out.push(m);
    expect(out.map((m) => m.data)).toEqual([long, "\uFEFFkept"]);
  });
});
