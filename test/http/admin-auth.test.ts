import { describe, expect, test } from "bun:test";
import { generateRawKey } from "../../src/keys/format.ts";
import { unique } from "../helpers/db.ts";
import { ADMIN_TOKEN, startTestServer } from "../helpers/server.ts";

const server = await startTestServer();

const liveKey = await (async () => {
  const res = await server.admin("/v1/keys", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "caller", owner: unique() }) });
  return ((await res.json()) as { key: string }).key;
})();

/** Every route the OpenAPI description marks as needing the admin token, with a sample request. */
async function adminOperations(): Promise<{ method: string; path: string }[]> {
  const spec = (await (await server.fetch("/openapi.json")).json()) as {
    paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
  };
  const ops: { method: string; path: string }[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op.security?.some((s) => "adminToken" in s)) ops.push({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, "key_0000000000000000000000") });
    }
  }
  return ops;
}

const send = (op: { method: string; path: string }, authorization?: string) =>
  server.fetch(op.path, {
    method: op.method,
    headers: { ...(authorization ? { authorization } : {}), ...(op.method === "POST" ? { "content-type": "application/json" } : {}) },
    ...(op.method === "POST" ? { body: JSON.stringify({ name: "x", owner: "x" }) } : {}),
  });

const ops = await adminOperations();

describe("admin authentication", () => {
  test("the key routes are among the admin operations", () => {
    const names = ops.map((o) => `${o.method} ${o.path}`);
    expect(names).toContain("POST /v1/keys");
    expect(names).toContain("POST /v1/keys/test");
    expect(names).toContain("GET /v1/keys");
    expect(names).toContain("DELETE /v1/keys/key_0000000000000000000000");
  });

  for (const op of ops) {
    test(`${op.method} ${op.path}: no credentials is 401 auth_error`, async () => {
      const res = await send(op);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error_class: "auth_error", format_version: "1.0", marker_coverage: 0 });
    });
    test(`${op.method} ${op.path}: a wrong token is 401`, async () => {
      expect((await send(op, `Bearer ${ADMIN_TOKEN}x`)).status).toBe(401);
      expect((await send(op, "Basic dXNlcjpwYXNz")).status).toBe(401);
      expect((await send(op, ADMIN_TOKEN)).status).toBe(401);
    });
    test(`${op.method} ${op.path}: a valid API key is 403 forbidden`, async () => {
      const res = await send(op, `Bearer ${liveKey}`);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error_class: string }).error_class).toBe("forbidden");
    });
  }

  test("an API key cannot issue keys and nothing is written", async () => {
    const owner = unique();
    const res = await server.fetch("/v1/keys", {
      method: "POST",
      headers: { authorization: `Bearer ${liveKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "escalate", owner }),
    });
    expect(res.status).toBe(403);
    const list = await server.admin(`/v1/keys?owner=${owner}`);
    expect(((await list.json()) as { keys: unknown[] }).keys).toEqual([]);
  });

  test("credentials are checked before the body: bad bodies without the admin token are 401/403, not 422 or 413", async () => {
    for (const body of ["{", "", JSON.stringify({ name: "x", tier: "test" }), JSON.stringify({ name: "x".repeat(20_000) })]) {
      const init = (authorization?: string): RequestInit => ({
        method: "POST",
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
        body,
      });
      expect((await server.fetch("/v1/keys", init())).status).toBe(401);
      expect((await server.fetch("/v1/keys", init(`Bearer ${liveKey}`))).status).toBe(403);
    }
    expect((await server.fetch("/v1/keys/garbage", { method: "DELETE" })).status).toBe(401);
  });

  test("the bearer scheme is case-insensitive", async () => {
    expect((await server.fetch("/v1/keys?owner=x", { headers: { authorization: `bearer ${ADMIN_TOKEN}` } })).status).toBe(200);
  });
});

describe("API key authentication on /v1 routes", () => {
  test("missing, malformed, unknown and admin-token credentials are 401 auth_error on GET /v1/banks", async () => {
    const cases: (string | undefined)[] = [undefined, "Bearer", "Bearer ", "Token abc", "Bearer stp_live_nope", `Bearer ${liveKey.slice(0, -1)}${liveKey.endsWith("x") ? "y" : "x"}`, `Bearer ${liveKey} extra`];
    for (const authorization of cases) {
      const res = await server.fetch("/v1/banks", authorization ? { headers: { authorization } } : {});
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error_class: string }).error_class).toBe("auth_error");
    }
  });
  test("a malformed key is told so; a well-formed unknown key is told it is unknown", async () => {
    const malformed = await server.fetch("/v1/banks", { headers: { authorization: `Bearer ${liveKey.slice(0, -1)}` } });
    expect(((await malformed.json()) as { error: string }).error).toBe("Malformed API key");
    const unknown = await server.fetch("/v1/banks", { headers: { authorization: `Bearer ${generateRawKey("live").key}` } });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: string }).error).toBe("Unknown or revoked API key");
  });
  test("a valid key is accepted", async () => {
    expect((await server.fetch("/v1/banks", { headers: { authorization: `Bearer ${liveKey}` } })).status).toBe(200);
  });
});
