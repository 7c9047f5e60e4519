/** Where a completion callback may go (src/callbacks/target.ts) and the retry schedule (deliver.ts), without a network. */
import { describe, expect, test } from "bun:test";
import { retryDelayMs } from "../../src/callbacks/deliver.ts";
import { allowedHosts, checkCallbackUrl, isPublicAddress, RefusedTarget, resolveTarget } from "../../src/callbacks/target.ts";

describe("isPublicAddress", () => {
  test("public unicast only; every special range refused, IPv4-mapped IPv6 judged as its IPv4", () => {
    for (const a of ["8.8.8.8", "102.89.1.1", "2001:4860:4860::8888"]) expect(isPublicAddress(a)).toBe(true);
    for (const a of ["10.0.0.1", "172.16.5.4", "192.168.1.1", "127.0.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "192.0.2.1", "224.0.0.1", "255.255.255.255", "::1", "::", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1", "not-an-ip"]) {
      expect(isPublicAddress(a)).toBe(false);
    }
  });
});

describe("checkCallbackUrl", () => {
  const none = allowedHosts(undefined);
  test("https to a name or a public address passes", () => {
    for (const u of ["https://hooks.example.com/x", "https://8.8.8.8/x", "https://[2001:4860:4860::8888]:8443/x"]) expect(checkCallbackUrl(u, none).ok).toBe(true);
  });
  test("plain http, credentials, other schemes, literal private addresses and garbage are refused", () => {
    for (const u of ["http://hooks.example.com/x", "https://user:pw@hooks.example.com/x", "ftp://hooks.example.com/x", "https://10.1.2.3/x", "https://[::1]/x", "https://[::ffff:192.168.0.1]/x", "not a url"]) {
      expect(checkCallbackUrl(u, none).ok).toBe(false);
    }
  });
  test("a listed host may be private and plain http; matching ignores case and IPv6 brackets", () => {
    const listed = allowedHosts(" 127.0.0.1 , Receiver.Internal,[::1]");
    for (const u of ["http://127.0.0.1:8080/x", "http://receiver.internal/x", "https://[::1]/x"]) expect(checkCallbackUrl(u, listed).ok).toBe(true);
    expect(checkCallbackUrl("http://127.0.0.2/x", listed).ok).toBe(false);
  });
});

describe("resolveTarget", () => {
  test("a name resolving to loopback is refused unless listed; a literal address needs no lookup", async () => {
    await expect(resolveTarget("localhost", allowedHosts(undefined))).rejects.toBeInstanceOf(RefusedTarget);
    expect((await resolveTarget("localhost", allowedHosts("localhost"))).address).toMatch(/^(127\.|::1$)/);
    expect(await resolveTarget("8.8.8.8", allowedHosts(undefined))).toEqual({ address: "8.8.8.8", family: 4 });
    await expect(resolveTarget("10.0.0.1", allowedHosts(undefined))).rejects.toBeInstanceOf(RefusedTarget);
  });
});

test("retry waits double from the base", () => {
  expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(5000, n))).toEqual([5000, 10_000, 20_000, 40_000, 80_000, 160_000]);
});
