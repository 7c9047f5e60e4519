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

/** How the line splitter looks into a chunk: decoded text, or the raw bytes of the stream. */
interface ChunkOps<T> {
  /** Index of the next LF (10) or CR (13) at or after `from`, -1 when none. */
  find(chunk: T, code: 10 | 13, from: number): number;
  codeAt(chunk: T, i: number): number;
  cut(chunk: T, start: number, end?: number): T;
}

const TEXT: ChunkOps<string> = {
  find: (c, code, from) => c.indexOf(code === 10 ? "\n" : "\r", from),
  codeAt: (c, i) => c.charCodeAt(i),
  cut: (c, start, end) => c.slice(start, end),
};

const BYTES: ChunkOps<Uint8Array> = {
  find: (c, code, from) => c.indexOf(code, from),
  codeAt: (c, i) => c[i] ?? -1,
  // A view, not a copy: a stream hands over each chunk and never writes to it again.
  cut: (c, start, end) => c.subarray(start, end),
};

/**
 * Lines ending in CRLF, LF or CR, from chunks of any size. A CR ends its line at once; an LF at the
 * start of the next chunk is then the second half of that CRLF and is skipped.
 *
 * A job's result is one `data:` line of tens of MB arriving in thousands of chunks, so each chunk
 * is searched once (native indexOf from where the last search stopped) and a line that spans
 * chunks is handed over as the list of its pieces, to be joined once: appending each chunk to one
 * buffer and rescanning it was quadratic in the line's length (38 s for the bench's 26.6 MB result).
 */
class LineSplitter<T extends { length: number }> {
  #pieces: T[] = [];
  #afterCr = false;

  constructor(private readonly ops: ChunkOps<T>) {}

  /** The lines this chunk completes, each as its pieces in order. */
  lines(chunk: T): T[][] {
    const { find, codeAt, cut } = this.ops;
    let start = 0;
    if (this.#afterCr && chunk.length > 0) {
      this.#afterCr = false;
      if (codeAt(chunk, 0) === 10) start = 1;
    }
    const out: T[][] = [];
    let lf = find(chunk, 10, start);
    let cr = find(chunk, 13, start);
    while (lf !== -1 || cr !== -1) {
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      out.push([...this.#pieces, cut(chunk, start, end)]);
      this.#pieces = [];
      start = end + 1;
      if (end === cr) {
        if (start === chunk.length) this.#afterCr = true;
        else if (codeAt(chunk, start) === 10) start++;
      }
      if (lf !== -1 && lf < start) lf = find(chunk, 10, start);
      if (cr !== -1 && cr < start) cr = find(chunk, 13, start);
    }
    if (start < chunk.length) this.#pieces.push(cut(chunk, start));
    return out;
  }

  reset(): void {
    this.#pieces = [];
    this.#afterCr = false;
  }
}

/** One line's bytes as one array (a copy only when it arrived in several chunks). */
function joinBytes(pieces: Uint8Array[]): Uint8Array {
  if (pieces.length === 1 && pieces[0]) return pieces[0];
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Incremental parser: feed it decoded text (`feed`) or the stream's bytes (`feedBytes`) in chunks
 * of any size, get complete messages back. Bytes are decoded a whole line at a time (a line ends
 * at an ASCII byte, so no UTF-8 sequence is ever cut): one decode of a 26 MB result line instead
 * of thousands of chunk decodes and a join.
 */
export class SseParser {
  readonly #text = new LineSplitter(TEXT);
  readonly #bytes = new LineSplitter(BYTES);
  // A BOM is removed by hand, only at the start of the stream (a decoder strips one per call).
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  #data: string[] = [];
  #event = "";
  #id = "";
  #retry: number | undefined;
  #sawBom = false;

  feed(chunk: string): SseMessage[] {
    return this.#lines(this.#text.lines(chunk).map((pieces) => pieces.join("")));
  }

  feedBytes(chunk: Uint8Array): SseMessage[] {
    return this.#lines(this.#bytes.lines(chunk).map((pieces) => this.#decoder.decode(joinBytes(pieces))));
  }

  /** End of stream: a message without its closing blank line is discarded, as EventSource does. */
  end(): SseMessage[] {
    this.#text.reset();
    this.#bytes.reset();
    this.#data = [];
    this.#event = "";
    return [];
  }

  #lines(lines: string[]): SseMessage[] {
    const out: SseMessage[] = [];
    for (const text of lines) {
      let line = text;
      if (!this.#sawBom) {
        this.#sawBom = true;
        if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      }
      const message = this.#line(line);
      if (message) out.push(message);
    }
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
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        yield* parser.end();
        return;
      }
      yield* parser.feedBytes(value);
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
