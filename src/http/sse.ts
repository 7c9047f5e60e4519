/**
 * Server-Sent Events, formatted in this one module (WHATWG HTML, "Server-sent events"). Data with
 * line breaks becomes several `data:` lines; an `event` or `id` containing CR or LF is refused
 * because it would end the field early and let the payload forge events.
 */

export interface SseMessage {
  /** Text, or UTF-8 bytes (a result's JSON as the worker sent it), sent as they are when on one line. */
  data: string | Uint8Array;
  event?: string;
  id?: string | number;
}

const LINE_BREAK = /\r\n|\r|\n/;

export function formatEvent({ data, event, id }: SseMessage & { data: string }): string {
  return `${fieldsOf(event, id)}${dataLines(data)}`;
}

/**
 * The event as chunks to send: for bytes on one line, the fields' text, the bytes themselves and
 * the end of the event, so a large result is neither decoded nor copied; otherwise one text.
 */
export function eventChunks(m: SseMessage): (string | Uint8Array)[] {
  if (typeof m.data === "string") return [formatEvent({ ...m, data: m.data })];
  if (m.data.includes(0x0a) || m.data.includes(0x0d)) return [formatEvent({ ...m, data: new TextDecoder().decode(m.data) })];
  return [`${fieldsOf(m.event, m.id)}data: `, m.data, "\n\n"];
}

function fieldsOf(event: string | undefined, id: string | number | undefined): string {
  let out = "";
  if (event !== undefined) {
    if (/[\r\n]/.test(event)) throw new Error("SSE event name must not contain CR or LF");
    out += `event: ${event}\n`;
  }
  if (id !== undefined) {
    const s = String(id);
    if (/[\r\n\0]/.test(s)) throw new Error("SSE id must not contain CR, LF or NUL");
    out += `id: ${s}\n`;
  }
  return out;
}

function dataLines(data: string): string {
  // A job's result is one line of JSON, tens of MB: two plain searches instead of a regex split.
  if (!data.includes("\n") && !data.includes("\r")) return `data: ${data}\n\n`;
  let out = "";
  for (const line of data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** A comment line: ignored by clients, keeps proxies and idle timers from closing a quiet stream. */
export const formatComment = (text: string): string => `: ${text.replace(/[\r\n]+/g, " ")}\n\n`;

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // A job's stream carries its result (statement data): never kept by a cache (no-store implies no-cache).
  "cache-control": "no-store",
  // nginx buffers proxied responses unless told not to; events must arrive as they happen.
  "x-accel-buffering": "no",
  connection: "keep-alive",
} as const;

export interface SseSource {
  /** Called once with a `send` that writes one event; resolve when the stream should end. */
  run(send: (m: SseMessage) => void, signal: AbortSignal): Promise<void>;
  /** Always called once, however the stream ends (finished, client gone, error). */
  onClose?: () => void;
}

/**
 * A streaming Response for `source`, with a heartbeat comment every `heartbeatMs`. The stream is
 * closed in `finally`, so the consumer slot is given back however it ends.
 */
export function sseResponse(source: SseSource, { heartbeatMs, headers = {} }: { heartbeatMs: number; headers?: Record<string, string> }): Response {
  const encoder = new TextEncoder();
  const gone = new AbortController();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (s: string | Uint8Array) => {
        if (closed) return;
        try {
          controller.enqueue(typeof s === "string" ? encoder.encode(s) : s);
        } catch {
          gone.abort();
        }
      };
      heartbeat = setInterval(() => write(formatComment("heartbeat")), heartbeatMs);
      // Not awaited: start() must return for the body to flow while the source runs.
      void (async () => {
      try {
        // A first comment flushes the headers at once, so the client knows it is connected.
        write(formatComment("connected"));
        await source.run((m) => {
          for (const chunk of eventChunks(m)) write(chunk);
        }, gone.signal);
      } catch {
        // the source failed: end the stream (the consumer sees it close without a result)
      } finally {
        clearInterval(heartbeat);
        if (!closed) {
          closed = true;
          try {
            controller.close();
          } catch {
            // already closed by a cancel
          }
        }
        source.onClose?.();
      }
      })();
    },
    cancel() {
      closed = true;
      clearInterval(heartbeat);
      gone.abort();
    },
  });
  return new Response(stream, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}
