import { describe, expect, test } from "bun:test";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer();
const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

interface Issued { id: string; key: string; prefix: string; name: string; tier: string }
interface Listed { id: string; name: string; prefix: string; tier: string; owner: string; created_at: string; revoked_at: string | null }

async function issue(body: Record<string, unknown>): Promise<Issued> {
  const res = await server.admin("/v1/keys", json(body));
  expect(res.status).toBe(200);
  return (await res.json()) as Issued;
}
async function list(owner: string): Promise<Listed[]> {
  const res = await server.admin(`/v1/keys?owner=${encodeURIComponent(owner)}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { keys: Listed[] }).keys;
}

describe("POST /v1/keys", () => {
  test("issues a live key by default and returns exactly {id, key, prefix, name, tier}", async () => {
    const owner = unique();
    const k = await issue({ name: "ci", owner });
    expect(Object.keys(k).sort()).toEqual(["id", "key", "name", "prefix", "tier"]);
    expect(k.tier).toBe("live");
    expect(k.name).toBe("ci");
    expect(k.id).toMatch(/^key_[0-9A-Za-z]{22}$/);
    expect(k.key).toMatch(/^stp_live_[0-9A-Za-z]{33}$/);
    expect(k.key.startsWith(k.prefix)).toBe(true);
    expect(k.key.length - k.prefix.length).toBeGreaterThanOrEqual(22);
  });

  test("issues first_party keys", async () => {
    const k = await issue({ name: "web", owner: unique(), tier: "first_party" });
    expect(k.tier).toBe("first_party");
    expect(k.key).toMatch(/^stp_first_party_/);
  });

  test("an owner may hold many live keys, each with its own key", async () => {
    const owner = unique();
    const a = await issue({ name: "a", owner });
    const b = await issue({ name: "b", owner });
    expect(a.key).not.toBe(b.key);
    expect((await list(owner)).map((k) => k.id).sort()).toEqual([a.id, b.id].sort());
  });

  test('without owner the key belongs to owner "default"', async () => {
    const k = await issue({ name: unique("no-owner") });
    const mine = (await list("default")).find((x) => x.id === k.id);
    expect(mine?.owner).toBe("default");
  });

  test("tier=test is 422 with the validation body naming the field", async () => {
    const res = await server.admin("/v1/keys", json({ name: "x", owner: unique(), tier: "test" }));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: string[]; msg: string; type: string; input: unknown; ctx: object }[] };
    expect(body.detail[0]).toMatchObject({ loc: ["body", "tier"], type: "invalid_value", input: "test" });
    expect(typeof body.detail[0]?.msg).toBe("string");
    expect(body.detail[0]?.ctx).toBeObject();
  });

  test("an unknown field is 422 and names the field in ctx", async () => {
    const res = await server.admin("/v1/keys", json({ name: "x", owner: unique(), scopes: ["all"] }));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: string[]; type: string; ctx: { keys?: string[] } }[] };
    expect(body.detail[0]?.type).toBe("unrecognized_keys");
    expect(body.detail[0]?.ctx.keys).toEqual(["scopes"]);
  });

  test("a missing name is 422", async () => {
    const res = await server.admin("/v1/keys", json({ owner: unique() }));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: string[] }[] };
    expect(body.detail[0]?.loc).toEqual(["body", "name"]);
  });
});

describe("POST /v1/keys/test", () => {
  test("issues a test key named test", async () => {
    const res = await server.admin("/v1/keys/test", json({ owner: unique() }));
    expect(res.status).toBe(200);
    const k = (await res.json()) as Issued;
    expect(k).toMatchObject({ tier: "test", name: "test" });
    expect(k.key).toMatch(/^stp_test_/);
  });

  test("a second call revokes the first test key and leaves one active", async () => {
    const owner = unique();
    const first = (await (await server.admin("/v1/keys/test", json({ owner }))).json()) as Issued;
    // Used once first: a key the server has just found active is still refused once revoked.
    expect((await server.fetch("/v1/banks", { headers: { authorization: `Bearer ${first.key}` } })).status).toBe(200);
    const second = (await (await server.admin("/v1/keys/test", json({ owner }))).json()) as Issued;
    const keys = await list(owner);
    expect(keys).toHaveLength(2);
    expect(keys.find((k) => k.id === first.id)?.revoked_at).toBeString();
    expect(keys.find((k) => k.id === second.id)?.revoked_at).toBeNull();
    // The revoked test key no longer authenticates; the new one does.
    expect((await server.fetch("/v1/banks", { headers: { authorization: `Bearer ${first.key}` } })).status).toBe(401);
    expect((await server.fetch("/v1/banks", { headers: { authorization: `Bearer ${second.key}` } })).status).toBe(200);
  });

  test("it does not touch the owner's live keys", async () => {
    const owner = unique();
    const live = await issue({ name: "live", owner });
    await server.admin("/v1/keys/test", json({ owner }));
    await server.admin("/v1/keys/test", json({ owner }));
    expect((await list(owner)).find((k) => k.id === live.id)?.revoked_at).toBeNull();
  });

  test("owner is required", async () => {
    const res = await server.admin("/v1/keys/test", json({}));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0]?.loc).toEqual(["body", "owner"]);
  });
});

describe("GET /v1/keys", () => {
  test("lists active and revoked keys with ISO timestamps, never the key or its hash", async () => {
    const owner = unique();
    const a = await issue({ name: "a", owner });
    const b = await issue({ name: "b", owner });
    expect((await server.admin(`/v1/keys/${a.id}`, { method: "DELETE" })).status).toBe(204);
    const res = await server.admin(`/v1/keys?owner=${owner}`);
    const text = await res.text();
    expect(text).not.toContain(a.key);
    expect(text).not.toContain(b.key);
    expect(text).not.toContain("hash");
    const keys = (JSON.parse(text) as { keys: Listed[] }).keys;
    expect(keys.map((k) => Object.keys(k).sort())).toEqual([
      ["created_at", "id", "name", "owner", "prefix", "revoked_at", "tier"],
      ["created_at", "id", "name", "owner", "prefix", "revoked_at", "tier"],
    ]);
    const revoked = keys.find((k) => k.id === a.id);
    const active = keys.find((k) => k.id === b.id);
    expect(revoked?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(active?.revoked_at).toBeNull();
    expect(active).toMatchObject({ name: "b", owner, tier: "live", prefix: b.prefix });
    expect(Number.isNaN(Date.parse(active?.created_at ?? ""))).toBe(false);
  });

  test("without owner it lists every owner's keys", async () => {
    const a = await issue({ name: "a", owner: unique() });
    const b = await issue({ name: "b", owner: unique() });
    const res = await server.admin("/v1/keys");
    const ids = ((await res.json()) as { keys: Listed[] }).keys.map((k) => k.id);
    expect(ids).toContain(a.id);
    expect(ids).toContain(b.id);
  });

  test("an owner with no keys gets an empty list", async () => {
    expect(await list(unique())).toEqual([]);
  });

  test("an unknown query parameter is 422", async () => {
    const res = await server.admin("/v1/keys?ownr=x");
    expect(res.status).toBe(422);
  });
});

describe("DELETE /v1/keys/{key_id}", () => {
  test("revokes an active key: 204 with an empty body, and the key fails on its very next request", async () => {
    const k = await issue({ name: "gone", owner: unique() });
    const auth = { headers: { authorization: `Bearer ${k.key}` } };
    expect((await server.fetch("/v1/banks", auth)).status).toBe(200);
    const res = await server.admin(`/v1/keys/${k.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    const after = await server.fetch("/v1/banks", auth);
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error_class: string }).error_class).toBe("auth_error");
  });

  test("an already revoked key is 404 with the envelope and keeps its first revocation time", async () => {
    const owner = unique();
    const k = await issue({ name: "twice", owner });
    await server.admin(`/v1/keys/${k.id}`, { method: "DELETE" });
    const before = (await list(owner))[0]?.revoked_at;
    const res = await server.admin(`/v1/keys/${k.id}`, { method: "DELETE" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "No active key with this id", error_class: "not_found", format_version: "1.0", marker_coverage: 0, request_id: res.headers.get("x-request-id") });
    expect((await list(owner))[0]?.revoked_at).toBe(before);
  });

  test("a well-formed unknown id is 404", async () => {
    const res = await server.admin("/v1/keys/key_0000000000000000000000", { method: "DELETE" });
    expect(res.status).toBe(404);
  });
});
