import { describe, expect, test } from "bun:test";
import { KEY_CACHE_TTL_MS, KeyCache } from "../../src/keys/cache.ts";
import { testDbKind, unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

// Two instances over the one database of the run (PGlite in this process, or the PostgreSQL server).
const a = await startTestServer();
const b = await startTestServer();
const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe(`revocation across two instances (${testDbKind()})`, () => {
  test("a key revoked on one instance fails on the other's very next request, though that one just used it", async () => {
    const issued = (await (await a.admin("/v1/keys", json({ name: "two", owner: unique() }))).json()) as { id: string; key: string };
    const auth = { headers: { authorization: `Bearer ${issued.key}` } };
    for (let i = 0; i < 3; i++) expect((await b.fetch("/v1/banks", auth)).status).toBe(200);
    expect((await a.admin(`/v1/keys/${issued.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await b.fetch("/v1/banks", auth)).status).toBe(401);
    expect((await a.fetch("/v1/banks", auth)).status).toBe(401);
  });

  test("a replaced test key fails on the other instance at once; the new one works there", async () => {
    const owner = unique();
    const first = (await (await a.admin("/v1/keys/test", json({ owner }))).json()) as { key: string };
    expect((await b.fetch("/v1/banks", { headers: { authorization: `Bearer ${first.key}` } })).status).toBe(200);
    const second = (await (await b.admin("/v1/keys/test", json({ owner }))).json()) as { key: string };
    expect((await a.fetch("/v1/banks", { headers: { authorization: `Bearer ${first.key}` } })).status).toBe(401);
    expect((await a.fetch("/v1/banks", { headers: { authorization: `Bearer ${second.key}` } })).status).toBe(200);
  });
});

describe("KeyCache", () => {
  test("remembers for KEY_CACHE_TTL_MS, then asks again; forgetAll forgets at once", () => {
    let now = 0;
    const cache = new KeyCache<string>(() => now);
    cache.set("h", "caller");
    now = KEY_CACHE_TTL_MS - 1;
    expect(cache.get("h")).toBe("caller");
    now = KEY_CACHE_TTL_MS;
    expect(cache.get("h")).toBeUndefined();
    cache.set("h", "caller");
    cache.forgetAll();
    expect(cache.get("h")).toBeUndefined();
  });
});
