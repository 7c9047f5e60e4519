import { connect, type Socket } from "node:net";

/**
 * A multipart upload over a raw socket, so a test decides when each byte is sent: the head (with
 * its Content-Length) first, the body later or never. fetch() gives no such control.
 */
export interface RawUpload {
  /** Sends `bytes` more of the body (all of the rest when omitted). */
  send(bytes?: number): Promise<void>;
  /** Closes the connection (an aborted upload). */
  abort(): void;
  /** The response status once it arrives (0 while none), and the whole response text. */
  readonly status: number;
  readonly response: string;
  /** Resolves when the server closes the connection or answers in full. */
  readonly ended: Promise<void>;
}

export async function rawUpload(url: string, path: string, headers: Record<string, string>, file: { name: string; size: number; fill?: number }): Promise<RawUpload> {
  const { hostname, port } = new URL(url);
  const boundary = "----raw-upload-boundary-15";
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pdf"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const total = head.length + file.size + tail.length;
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.on("error", () => {});
  let response = "";
  let endedResolve!: () => void;
  const ended = new Promise<void>((r) => (endedResolve = r));
  socket.on("data", (d) => {
    response += d.toString("latin1");
    const m = /\r\ncontent-length: (\d+)\r\n/i.exec(response);
    const bodyStart = response.indexOf("\r\n\r\n");
    if (m && bodyStart >= 0 && response.length - bodyStart - 4 >= Number(m[1])) endedResolve();
  });
  socket.on("close", () => endedResolve());
  const lines = [`POST ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, `Content-Type: multipart/form-data; boundary=${boundary}`, `Content-Length: ${total}`, "Connection: close"];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  socket.write(head);
  let sent = 0;
  const chunk = Buffer.alloc(256 * 1024, file.fill ?? 0);
  const write = (b: Buffer) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed) return resolve();
      socket.write(b, () => resolve());
    });
  return {
    async send(bytes = Number.POSITIVE_INFINITY) {
      const until = Math.min(file.size, sent + bytes);
      while (sent < until && !socket.destroyed) {
        const n = Math.min(chunk.length, until - sent);
        await write(n === chunk.length ? chunk : chunk.subarray(0, n));
        sent += n;
      }
      if (sent >= file.size) await write(tail);
    },
    abort: () => socket.destroy(),
    get status() {
      return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
    },
    get response() {
      return response;
    },
    ended,
  };
}
