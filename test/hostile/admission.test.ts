import { afterAll, describe, expect, test } from "bun:test";
import { type ChildServer, childDbEnv, childTestKey, startChildServer } from "../helpers/child-server.ts";
import { unique } from "../helpers/db.ts";
import { rawUpload } from "../helpers/raw-upload.ts";

/**
 * Issue 15 item 8: admission before the upload is read. 24 concurrent 20 MB uploads on one key
 * (MAX_INFLIGHT_PER_KEY 8) used to be read into memory in full before 16 of them got 429. Now the
 * key's place and the upload's bytes (from Content-Length) are taken first, so the 16 are refused
 * before a byte of their body is read. The uploads go over raw sockets, head first, so all 24 are
 * at the server at once; the server runs as its own process so its RSS is measured alone.
 */
const UPLOAD = 20 * 1024 * 1024;
const CONCURRENT = 24;
const PER_KEY = 8;
let server: ChildServer;

afterAll(async () => {
  await server?.stop();
});

describe("admission before the upload is read", () => {
  test("24 concurrent 20 MB uploads on one key (limit 8): 16 get 429 before their body is sent, and RSS stays bounded", async () => {
    server = await startChildServer({ ...childDbEnv(), MAX_INFLIGHT_PER_KEY: String(PER_KEY), TEST_MONTHLY_CAP: "100000", WORKERS: "1" });
    const key = await childTestKey(server, unique("admission"));
    const auth = { authorization: `Bearer ${key}` };
    // Warm up: the first upload loads the engine in the worker.
    const warm = await rawUpload(server.url, "/v1/parse", auth, { name: "junk.pdf", size: 1024 });
    await warm.send();
    await warm.ended;
    await Bun.sleep(500);
    const before = server.rssMiB();
    let peak = before;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, server.rssMiB());
      } catch {
        clearInterval(sampler); // the server is gone (a failed test stopped it)
      }
    }, 20);

    // Zeros named .pdf: the sniffer refuses them at once, so what is measured is the upload.
    const uploads = await Promise.all(Array.from({ length: CONCURRENT }, () => rawUpload(server.url, "/v1/parse", auth, { name: "junk.pdf", size: UPLOAD })));
    // Nothing of any body has been sent yet: whoever is refused now was refused before reading.
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && uploads.filter((u) => u.status === 429).length < CONCURRENT - PER_KEY; ) await Bun.sleep(50);
    const refusedUnread = uploads.filter((u) => u.status === 429);
    expect(refusedUnread.length).toBe(CONCURRENT - PER_KEY);
    for (const u of refusedUnread) expect(u.response).toContain('"error_class":"rate_limited"');

    await Promise.all(uploads.map((u) => (u.status === 429 ? Promise.resolve() : u.send())));
    await Promise.all(uploads.filter((u) => u.status !== 429).map((u) => u.ended));
    clearInterval(sampler);
    peak = Math.max(peak, server.rssMiB());
    const admitted = uploads.filter((u) => u.status !== 429);
    for (const u of admitted) expect(u.response).toContain('"error_class":"unsupported_format"');
    console.log(`admission: RSS ${before} -> peak ${peak} MiB (+${peak - before}); ${refusedUnread.length} refused unread, ${admitted.length} read`);
    // The 24 bodies are 480 MiB: reading them all (as before) costs more than that; reading only
    // the 8 admitted ones stays well under it.
    expect(peak - before).toBeLessThan((CONCURRENT * UPLOAD) / (1024 * 1024));
  }, 120_000);
});
