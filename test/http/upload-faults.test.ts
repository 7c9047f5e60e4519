import { describe, expect, test } from "bun:test";
import { createLogger } from "../../src/log.ts";
import { rawUpload } from "../helpers/raw-upload.ts";
import { startTestServer } from "../helpers/server.ts";
import { testKey } from "../hostile/client.ts";

/**
 * Issue 15 items 8 and 13 over real sockets: the server-wide upload byte budget refuses before the
 * body is read; an upload whose connection closes mid-body, or that stops sending, gets its own
 * class (400 upload_aborted / 408 upload_timeout) and a warn line instead of a 500
 * "unhandled error"; the key's place and the bytes are given back either way.
 */
const lines: string[] = [];
const server = await startTestServer(
  { UPLOAD_IDLE_TIMEOUT_S: "1", MAX_INFLIGHT_UPLOAD_BYTES: String(3 * 1024 * 1024), TEST_MONTHLY_CAP: "100000", MAX_INFLIGHT_PER_KEY: "1", LOG_LEVEL: "info" },
  { log: createLogger("info", (line) => lines.push(line)) },
);
const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
const MiB = 1024 * 1024;

describe("upload faults", () => {
  test("an upload that stops sending is cut after UPLOAD_IDLE_TIMEOUT_S with 408 upload_timeout and a warn line", async () => {
    const key = await testKey(server);
    const u = await rawUpload(server.url, "/v1/parse", { authorization: `Bearer ${key}` }, { name: "slow.pdf", size: MiB });
    await u.send(64 * 1024);
    await u.ended;
    expect(u.status).toBe(408);
    expect(u.response).toContain('"error_class":"upload_timeout"');
    expect(logged().some((l) => l.level === "warn" && l.error_class === "upload_timeout")).toBe(true);
    expect(logged().some((l) => l.msg === "unhandled error")).toBe(false);
    // The key's only place was given back.
    const again = await rawUpload(server.url, "/v1/parse", { authorization: `Bearer ${key}` }, { name: "junk.pdf", size: 1024 });
    await again.send();
    await again.ended;
    expect(again.status).toBe(422);
  }, 30_000);

  test("an upload whose connection closes mid-body is logged as 400 upload_aborted (warn), not a 500", async () => {
    const key = await testKey(server);
    const before = lines.length;
    const u = await rawUpload(server.url, "/v1/parse/jobs", { authorization: `Bearer ${key}` }, { name: "cut.pdf", size: MiB });
    await u.send(128 * 1024);
    await Bun.sleep(200);
    u.abort();
    let seen: Record<string, unknown>[] = [];
    for (const deadline = Date.now() + 5000; Date.now() < deadline; await Bun.sleep(50)) {
      seen = lines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>);
      if (seen.some((l) => l.msg === "request" && l.path === "/v1/parse/jobs")) break;
    }
    expect(seen.some((l) => l.level === "warn" && l.error_class === "upload_aborted")).toBe(true);
    expect(seen.find((l) => l.msg === "request" && l.path === "/v1/parse/jobs")?.status).toBe(400);
    expect(seen.some((l) => l.msg === "unhandled error")).toBe(false);
    const again = await rawUpload(server.url, "/v1/parse", { authorization: `Bearer ${key}` }, { name: "junk.pdf", size: 1024 });
    await again.send();
    await again.ended;
    expect(again.status).toBe(422);
  }, 30_000);

  test("past MAX_INFLIGHT_UPLOAD_BYTES an upload gets 503 queue_full with Retry-After before its body is read", async () => {
    const [a, b] = [await testKey(server), await testKey(server)];
    const first = await rawUpload(server.url, "/v1/parse", { authorization: `Bearer ${a}` }, { name: "a.pdf", size: 2 * MiB });
    await first.send(16 * 1024);
    await Bun.sleep(100);
    const second = await rawUpload(server.url, "/v1/parse", { authorization: `Bearer ${b}` }, { name: "b.pdf", size: 2 * MiB });
    await second.ended;
    expect(second.status).toBe(503);
    expect(second.response).toContain('"error_class":"queue_full"');
    expect(second.response.toLowerCase()).toContain("retry-after:");
    await first.send();
    await first.ended;
    expect(first.status).toBe(422);
    // Its bytes are back: the other key gets in now.
    const third = await rawUpload(server.url, "/v1/parse", { authorization: `Bearer ${b}` }, { name: "b.pdf", size: 2 * MiB });
    await third.send();
    await third.ended;
    expect(third.status).toBe(422);
  }, 30_000);
});
