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
 * Lines end in CRLF, LF or CR. A CR ends its line at once; an LF at the start of the next chunk
 * is then the second half of that CRLF and is skipped.
 *
 * A job's result is one `data:` line of tens of MB arriving in thousands of chunks, so each chunk
 * is scanned once (native indexOf from where the last search stopped) and a line that spans
 * chunks is kept as a list of pieces joined once when it ends: appending to one buffer and
 * rescanning it per chunk was quadratic in the line's length.
 */
export class SseParser {
  /** Pieces of the line not yet ended, from earlier chunks. */
  #pieces: string[] = [];
  /** The previous chunk ended in CR: an LF starting this one belongs to it. */
  #afterCr = false;
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
    let start = 0;
    if (this.#afterCr && chunk.length > 0) {
      this.#afterCr = false;
      if (chunk.charCodeAt(0) === 10) start = 1;
    }
    const out: SseMessage[] = [];
    // Next LF and CR at or after `start` (-1: none left in this chunk); each is searched again only once passed.
    let lf = chunk.indexOf("\n", start);
    let cr = chunk.indexOf("\r", start);
    while (lf !== -1 || cr !== -1) {
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      const piece = chunk.slice(start, end);
      const line = this.#pieces.length === 0 ? piece : this.#pieces.join("") + piece;
      this.#pieces = [];
      start = end + 1;
      if (end === cr) {
        if (start === chunk.length) this.#afterCr = true;
        else if (chunk.charCodeAt(start) === 10) start++;
      }
      if (lf !== -1 && lf < start) lf = chunk.indexOf("\n", start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf("\r", start);
      const message = this.#line(line);
      if (message) out.push(message);
    }
    if (start < chunk.length) this.#pieces.push(chunk.slice(start));
    return out;
  }

  /** End of stream: a message without its closing blank line is discarded, as EventSource does. */
  end(): SseMessage[] {
    this.#pieces = [];
    this.#afterCr = false;
    this.#data = [];
    this.#event = "";
    return [];
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
