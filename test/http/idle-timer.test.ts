import { describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { startTestServer } from "../helpers/server.ts";
import { form, newKey, sample, submit, waitFinished } from "../jobs/support/http.ts";

/**
 * Issue 29 items 8 and 9, over raw sockets on a real server whose connection idle timer
 * (HTTP_IDLE_TIMEOUT_S) is 2 s:
 * - an upload that sends slowly but steadily for three times that long is read to the end (only
 *   UPLOAD_IDLE_TIMEOUT_S of true silence cuts an upload);
 * - a finished SSE stream gives its keep-alive connection back to the idle timer, which closes it.
 */
const IDLE_S = 2;
const server = await startTestServer({ HTTP_IDLE_TIMEOUT_S: String(IDLE_S), UPLOAD_IDLE_TIMEOUT_S: "2", TEST_MONTHLY_CAP: "100", MAX_INFLIGHT_PER_KEY: "8" });
const pdf = await sample("firstbank.pdf");
const { port } = new URL(server.url);

interface Conn {
  socket: Socket;
  text: () => string;
  closed: Promise<void>;
  isClosed: () => boolean;
}

async function open(): Promise<Conn> {
  const socket = connect({ host: "127.0.0.1", port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let text = "";
  let closed = false;
  socket.on("data", (d) => (text += d.toString("latin1")));
  socket.on("error", () => {});
  return { socket, text: () => text, closed: new Promise<void>((r) => socket.on("close", () => ((closed = true), r()))), isClosed: () => closed };
}

/** POSTs `body` in `pieces` parts, one every `everyMs`: a steady, slow upload. */
async function slowPost(path: string, key: string, body: Uint8Array, contentType: string, pieces: number, everyMs: number): Promise<Conn> {
  const c = await open();
  c.socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.byteLength}\r\nConnection: close\r\n\r\n`);
  const size = Math.ceil(body.byteLength / pieces);
  for (let at = 0; at < body.byteLength; at += size) {
    await Bun.sleep(everyMs);
    if (c.isClosed()) break;
    c.socket.write(body.subarray(at, Math.min(body.byteLength, at + size)));
  }
  await Promise.race([c.closed, Bun.sleep(30_000)]);
  return c;
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);

describe("Bun's idle timer is no hard cap on uploads (item 8)", () => {
  test(`an upload sending steadily for ${3 * IDLE_S}+ s is read and parsed, sync and as a job`, async () => {
    const { key } = await newKey(server);
    const encoded = new Response(form(pdf));
    const type = encoded.headers.get("content-type") ?? "";
    const body = new Uint8Array(await encoded.arrayBuffer());
    expect(type).toStartWith("multipart/form-data; boundary=");
    const started = performance.now();
    // 13 pieces, one every 500 ms: never silent for UPLOAD_IDLE_TIMEOUT_S, but 6.5 s in all.
    const [sync, job] = await Promise.all([slowPost("/v1/parse", key, body, type, 13, 500), slowPost("/v1/parse/jobs", key, body, type, 13, 500)]);
    expect(performance.now() - started).toBeGreaterThan(3 * IDLE_S * 1000);
    expect({ sync: statusOf(sync.text()), job: statusOf(job.text()) }).toEqual({ sync: 200, job: 202 });
    expect(sync.text()).toContain('"transactions"');
  }, 60_000);

  test("true idleness still cuts it: 408 upload_timeout", async () => {
    const { key } = await newKey(server);
    const c = await open();
    c.socket.write(`POST /v1/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n--b\r\n`);
    await Promise.race([c.closed, Bun.sleep(15_000)]);
    expect(statusOf(c.text())).toBe(408);
    expect(c.text()).toContain("upload_timeout");
  }, 30_000);
});

describe("a finished SSE stream gives its connection back to the idle timer (item 9)", () => {
  test("20 reads of a finished job's stream over keep-alive connections: all closed once idle", async () => {
    const { key } = await newKey(server);
    const { job_id, stream_url } = await submit(server, key, form(pdf));
    await waitFinished(server, key, job_id);
    const conns = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const c = await open();
        c.socket.write(`GET ${stream_url} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
        // The stream is chunked; it has ended when the last chunk (0 CRLF CRLF) has arrived.
        for (let i = 0; i < 300 && !c.text().endsWith("\r\n0\r\n\r\n"); i++) await Bun.sleep(20);
        return c;
      }),
    );
    for (const c of conns) {
      expect(statusOf(c.text())).toBe(200);
      expect(c.text()).toContain("event: result");
    }
    // A control: a plain keep-alive request's connection, closed by the same timer.
    const control = await open();
    control.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await Bun.sleep((IDLE_S + 3) * 1000);
    expect(control.isClosed()).toBe(true);
    expect(conns.filter((c) => !c.isClosed()).length).toBe(0);
    for (const c of conns) c.socket.destroy();
  }, 60_000);
});
