import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { canonicalIp } from "../../src/metering/client-ip.ts";
import { unique } from "../helpers/db.ts";
import { startFakePaystack } from "../helpers/paystack.ts";
import { startTestServer } from "../helpers/server.ts";

/**
 * Issue 29 item 14: a first_party key's monthly cap counts each end user once, however the
 * surface spells the address (IPv6 leading zeros or case, a zone id, IPv4-mapped IPv6).
 */
const FIRSTBANK = new Uint8Array(readFileSync(new URL("../../fixtures/real/firstbank.pdf", import.meta.url)));
// Paystack configured explicitly: the caps are what is under test, whatever the no-provider default is.
const paystack = startFakePaystack();
const server = await startTestServer({
  PAYSTACK_BASE_URL: paystack.baseUrl,
  PAYSTACK_SECRET_KEY: paystack.secretKey,
  FIRST_PARTY_IP_MONTHLY_CAP: "1",
  MAX_INFLIGHT_PER_KEY: "16",
});

async function firstPartyKey(): Promise<string> {
  const res = await server.admin("/v1/keys", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "web", owner: unique(), tier: "first_party" }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { key: string }).key;
}

async function parseAs(key: string, ip: string): Promise<{ status: number; sample: boolean }> {
  const form = new FormData();
  form.append("pdf", new Blob([FIRSTBANK], { type: "application/pdf" }), "statement.pdf");
  const res = await server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}`, "x-first-party-client-ip": ip }, body: form });
  await res.arrayBuffer();
  return { status: res.status, sample: res.headers.get("x-sample") === "true" };
}

describe("first-party client IPs are counted in one canonical form", () => {
  test("canonicalIp: one spelling per address", () => {
    expect(canonicalIp("2001:0DB8:0000::0001")).toBe("2001:db8::1");
    expect(canonicalIp("fe80::1%eth0")).toBe("fe80::1");
    expect(canonicalIp("::ffff:192.0.2.10")).toBe("192.0.2.10");
    expect(canonicalIp("::FFFF:c000:020a")).toBe("192.0.2.10");
    expect(canonicalIp("192.0.2.10")).toBe("192.0.2.10");
    // Not mapped: an IPv4-compatible or other IPv6 address keeps its IPv6 form.
    expect(canonicalIp("64:ff9b::c000:20a")).toBe("64:ff9b::c000:20a");
  });

  const spellings: Array<[string, string[]]> = [
    ["2001:db8::1", ["2001:0db8::1", "2001:DB8:0:0:0:0:0:1"]],
    ["fe80::1%eth0", ["fe80::1", "FE80::0001%lo"]],
    ["192.0.2.77", ["::ffff:192.0.2.77", "::ffff:c000:24d"]],
  ];
  for (const [first, others] of spellings) {
    test(`${first} and ${others.join(", ")} are one end user under a cap of 1`, async () => {
      const key = await firstPartyKey();
      expect(await parseAs(key, first)).toEqual({ status: 200, sample: false });
      for (const ip of others) expect({ ip, ...(await parseAs(key, ip)) }).toEqual({ ip, status: 200, sample: true });
    });
  }
});
