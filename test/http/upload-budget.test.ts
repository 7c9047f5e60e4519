import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { unique } from "../helpers/db.ts";
import { startFakePaystack } from "../helpers/paystack.ts";
import { type RawUpload, rawUpload } from "../helpers/raw-upload.ts";
import { startTestServer } from "../helpers/server.ts";

/**
 * Issue 29 item 7 over real sockets: one owner's trickling uploads cannot starve other owners of
 * MAX_INFLIGHT_UPLOAD_BYTES (each owner may hold only its share), an upload must end within
 * UPLOAD_DEADLINE_S however steadily it sends, and a caller admission would refuse anyway (no
 * subscription, no first-party IP header) is answered before anything is held or read.
 */
const MiB = 1024 * 1024;
// Paystack configured: the 402 of an unpaid live key is part of what is tested.
const paystack = startFakePaystack();
const server = await startTestServer({
  PAYSTACK_BASE_URL: paystack.baseUrl,
  PAYSTACK_SECRET_KEY: paystack.secretKey,
  MAX_UPLOAD_BYTES: String(MiB),
  MAX_INFLIGHT_UPLOAD_BYTES: String(4 * MiB),
  MAX_INFLIGHT_UPLOAD_BYTES_PER_OWNER: String(2 * MiB),
  UPLOAD_IDLE_TIMEOUT_S: "10",
  UPLOAD_DEADLINE_S: "4",
  TEST_MONTHLY_CAP: "100",
  MAX_INFLIGHT_PER_KEY: "8",
});
const FIRSTBANK = new Uint8Array(readFileSync(new URL("../../fixtures/real/firstbank.pdf", import.meta.url)));
const open: RawUpload[] = [];
afterAll(() => abortAll());

const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
async function key(owner: string, tier: "test" | "live" | "first_party"): Promise<string> {
  const res = tier === "test" ? await server.admin("/v1/keys/test", json({ owner })) : await server.admin("/v1/keys", json({ name: "k", owner, tier }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { key: string }).key;
}
const parse = (k: string) => {
  const form = new FormData();
  form.append("pdf", new Blob([FIRSTBANK], { type: "application/pdf" }), "statement.pdf");
  return server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${k}` }, body: form });
};
const settle = () => Bun.sleep(500);
/** Aborts the uploads left open (their holds go back when the server sees the close). */
async function abortAll(): Promise<void> {
  for (const u of open.splice(0)) u.abort();
  await settle();
}

describe("upload byte budget", () => {
  test("one owner's trickling uploads (3 keys) hold only its share; another owner still parses", async () => {
    const owner = unique("trickler");
    // One owner, three keys (first_party keys: an owner may hold several).
    const keys = [await key(owner, "first_party"), await key(owner, "first_party"), await key(owner, "first_party")];
    // Six uploads of ~1 MiB that send a little and then trickle nothing (within the idle timeout).
    for (const k of [...keys, ...keys]) {
      const u = await rawUpload(server.url, "/v1/parse", { authorization: `Bearer ${k}`, "x-first-party-client-ip": "192.0.2.1" }, { name: "big.pdf", size: 1_045_000 });
      open.push(u);
      await u.send(16 * 1024);
    }
    await settle();
    try {
      const statuses = open.map((u) => u.status);
      // Two fit in the owner's 2 MiB share and are still being read; the rest were told 429 at once.
      expect(statuses.filter((s) => s === 0).length).toBe(2);
      expect(statuses.filter((s) => s === 429).length).toBe(4);
      expect(open.find((u) => u.status === 429)!.response).toContain('"error_class":"rate_limited"');
      const other = await parse(await key(unique("other"), "test"));
      expect(other.status).toBe(200);
    } finally {
      await abortAll();
    }
  }, 30_000);

  test("an upload that sends steadily past UPLOAD_DEADLINE_S is cut with 408 upload_timeout", async () => {
    const k = await key(unique("slow"), "test");
    const u = await rawUpload(server.url, "/v1/parse", { authorization: `Bearer ${k}` }, { name: "slow.pdf", size: 200_000 });
    open.push(u);
    const started = performance.now();
    // 10 KB every 400 ms: never idle, 8 s in all.
    for (let i = 0; i < 20 && u.status === 0; i++) {
      await u.send(10_000);
      await Bun.sleep(400);
    }
    await u.ended;
    expect(u.status).toBe(408);
    expect(u.response).toContain('"error_class":"upload_timeout"');
    expect(performance.now() - started).toBeLessThan(7000);
  }, 30_000);

  test("no subscription (402) and no first-party IP header (422) are answered before the body is read or bytes held", async () => {
    const live = await key(unique("unpaid"), "live");
    const web = await key(unique("web"), "first_party");
    const unpaid = await rawUpload(server.url, "/v1/parse/jobs", { authorization: `Bearer ${live}` }, { name: "big.pdf", size: 1_045_000 });
    const noHeader = await rawUpload(server.url, "/v1/parse", { authorization: `Bearer ${web}` }, { name: "big.pdf", size: 1_045_000 });
    open.push(unpaid, noHeader);
    // Not a byte of the body is sent: the answers come from the head alone.
    await Promise.race([Promise.all([unpaid.ended, noHeader.ended]), Bun.sleep(5000)]);
    expect({ unpaid: unpaid.status, noHeader: noHeader.status }).toEqual({ unpaid: 402, noHeader: 422 });
    expect(unpaid.response).toContain('"error_class":"subscription_inactive"');
  }, 30_000);
});
