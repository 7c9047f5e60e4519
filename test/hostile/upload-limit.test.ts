import { describe, expect, test } from "bun:test";
import { startTestServer } from "../helpers/server.ts";
import { postParse, rssMiB, testKey } from "./client.ts";
import { sample } from "./generate.ts";

/**
 * An upload without Content-Length (chunked) is counted while it is read and refused at
 * MAX_UPLOAD_BYTES: the server never buffers the rest, so an endless body costs it about the limit.
 */
const LIMIT = 1024 * 1024;
const server = await startTestServer({ MAX_UPLOAD_BYTES: String(LIMIT), TEST_MONTHLY_CAP: "100000" });
const key = await testKey(server);

/** A multipart body streamed in 64 KiB chunks, `total` bytes of file content, with no length declared. */
function streamedForm(total: number): { body: ReadableStream<Uint8Array>; boundary: string; sent: () => number } {
  const boundary = "----hostile-boundary-7";
  const enc = new TextEncoder();
  const head = enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="pdf"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`);
  const tail = enc.encode(`\r\n--${boundary}--\r\n`);
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  let sent = 0;
  let stage = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stage === 0) {
        controller.enqueue(head);
        stage = 1;
      } else if (sent < total) {
        controller.enqueue(chunk);
        sent += chunk.length;
      } else if (stage === 1) {
        controller.enqueue(tail);
        stage = 2;
      } else controller.close();
    },
  });
  return { body, boundary, sent: () => sent };
}

describe("upload size without Content-Length", () => {
  test("a 256 MiB chunked upload is refused with 413 payload_too_large after about MAX_UPLOAD_BYTES", async () => {
    const before = rssMiB();
    const { body, boundary, sent } = streamedForm(256 * 1024 * 1024);
    const started = performance.now();
    let status = 0;
    let errorClass: string | undefined;
    try {
      const res = await server.fetch("/v1/parse", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: "half",
      } as RequestInit);
      status = res.status;
      errorClass = ((await res.json()) as { error_class?: string }).error_class;
    } catch {
      // The server may close the connection while the client is still sending; what matters is
      // that it stopped reading early, checked below.
      status = -1;
    }
    const ms = performance.now() - started;
    console.log(`upload-limit: status ${status}, client sent ${Math.round(sent() / 1024)} KiB in ${Math.round(ms)} ms, RSS ${before} -> ${rssMiB()} MiB`);
    if (status !== -1) {
      expect(status).toBe(413);
      expect(errorClass).toBe("payload_too_large");
    }
    // Far less than the 256 MiB offered was read, and memory did not grow by anything like it.
    expect(sent()).toBeLessThan(64 * 1024 * 1024);
    expect(rssMiB()).toBeLessThan(before + 128);
  }, 60_000);

  test("the server parses normally afterwards", async () => {
    const a = await postParse(server, key, sample("firstbank.pdf"), "firstbank.pdf");
    expect(a.status).toBe(200);
    expect((a.json?.transactions as unknown[]).length).toBeGreaterThan(0);
  });
});
