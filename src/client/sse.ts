/**
 * Server-Sent Events wire format (WHATWG HTML, "Parsing an event stream"), read from a byte
 * stream, so the client needs no EventSource and runs the same on Bun and Node 18+.
 */

export interface SseMessage {
  /** `message` when the server sent no `event:` field. */
  event: string;
  data: string;
  /** Last event id seen so far (it persists across messages, as in EventSource). */
  id: string;
  /** Reconnection delay the server asked for, ms, if any message in the stream set one. */
  retry?: number;
}

/**
 * Incremental parser: feed it decoded text in chunks of any size, get complete messages back.
 * Lines end in CRLF, LF or CR; a CR at the end of a chunk may be the first half of a CRLF, so it
 * is held until the next chunk decides.
 */
export class SseParser {
  #buffer = "";
  #data: string[] = [];
  #event = "";
  #id = "";
  #retry: number | undefined;
  #sawBom = false;

  feed(chunk: string): SseMessage[] {
    if (!this.#sawBom && chunk.length > 0) {
      this.#sawBom = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    this.#buffer += chunk;
    const out: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < this.#buffer.length; i++) {
      const c = this.#buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      if (c === 13 && i === this.#buffer.length - 1) break; // maybe half of CRLF
      const line = this.#buffer.slice(start, i);
      if (c === 13 && this.#buffer.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
      const message = this.#line(line);
      if (message) out.push(message);
    }
    this.#buffer = this.#buffer.slice(start);
    return out;
  }

  /**
   * End of stream: a held CR was a line end after all; a message without its closing blank line
   * is then discarded, as EventSource does.
   */
  end(): SseMessage[] {
    const out: SseMessage[] = [];
    if (this.#buffer.endsWith("\r")) {
      const message = this.#line(this.#buffer.slice(0, -1));
      if (message) out.push(message);
    }
    this.#buffer = "";
    this.#data = [];
    this.#event = "";
    return out;
  }

  #line(line: string): SseMessage | undefined {
    if (line === "") return this.#dispatch();
    if (line.startsWith(":")) return undefined; // comment (heartbeats)
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "data":
        this.#data.push(value);
        break;
      case "event":
        this.#event = value;
        break;
      case "id":
        if (!value.includes("\0")) this.#id = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.#retry = Number(value);
        break;
      default:
        break; // unknown fields are ignored
    }
    return undefined;
  }

  #dispatch(): SseMessage | undefined {
    const data = this.#data;
    const event = this.#event;
    this.#data = [];
    this.#event = "";
    if (data.length === 0) return undefined;
    return { event: event || "message", data: data.join("\n"), id: this.#id, ...(this.#retry === undefined ? {} : { retry: this.#retry }) };
  }
}

/** Reads a response body as a sequence of SSE messages; cancels the body if the consumer stops early. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        yield* parser.feed(decoder.decode());
        yield* parser.end();
        return;
      }
      yield* parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
