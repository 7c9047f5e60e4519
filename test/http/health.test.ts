import { afterAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { loadConfig } from "../../src/config.ts";
import { errorHandler } from "../../src/http/errors.ts";
import { createLogger } from "../../src/log.ts";
import { healthRoutes } from "../../src/http/health.ts";
import { ENGINE_VERSION, FORMAT_VERSION, SERVICE_VERSION } from "../../src/version.ts";
import { sharedDb } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer({ WORKERS: "3" });
const db = await sharedDb();

describe("health", () => {
  test("GET /healthz answers ok with a request id", async () => {
    const res = await server.fetch("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("a sane incoming X-Request-Id is echoed", async () => {
    const res = await server.fetch("/healthz", { headers: { "x-request-id": "abc-123" } });
    expect(res.headers.get("x-request-id")).toBe("abc-123");
  });

  test("GET /readyz becomes 200 once the engine pool has loaded, listing every check", async () => {
    // The worker threads load the engine in the background after start; until then it is 503.
    const deadline = Date.now() + 45_000;
    let res = await server.fetch("/readyz");
    while (res.status === 503 && Date.now() < deadline) {
      await Bun.sleep(200);
      res = await server.fetch("/readyz");
    }
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; checks: Record<string, { ok: boolean }> };
    expect(body.status).toBe("ready");
    expect(body.checks.database).toEqual({ ok: true });
    expect(Object.keys(body.checks).length).toBeGreaterThanOrEqual(2);
    expect(Object.values(body.checks).every((c) => c.ok)).toBe(true);
  });

  test("GET /v1/status needs no credentials and reports versions, worker threads and whether billing is on", async () => {
    const res = await server.fetch("/v1/status");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      service_version: SERVICE_VERSION,
      engine_version: ENGINE_VERSION,
      format_version: FORMAT_VERSION,
      worker_threads: 3,
      billing: { enabled: false, provider: null },
    });
  });

  test("unknown route gives the 404 envelope", async () => {
    const res = await server.fetch("/v1/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "No such route", error_class: "not_found", format_version: "1.0", marker_coverage: 0, request_id: res.headers.get("x-request-id") });
  });

  test("GET /docs is a self-contained page: no external scripts, styles or fonts", async () => {
    const res = await server.fetch("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("/openapi.json");
    expect(html).not.toMatch(/<script[^>]+src=["']?https?:/i);
    expect(html).not.toMatch(/<link[^>]+href=["']https?:/i);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  test("GET /docs has the web page's Content-Security-Policy, no inline script or style, and its own files under the same policy", async () => {
    const [docs, page] = await Promise.all([server.fetch("/docs"), server.fetch("/")]);
    const csp = docs.headers.get("content-security-policy");
    expect(csp).toBe(page.headers.get("content-security-policy"));
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const html = await docs.text();
    // Every <script> has a src (none inline), and there is no <style> element or style attribute.
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBe(1);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body!.trim()).toBe("");
    }
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
    const src = /<script[^>]*\bsrc="([^"]+)"/.exec(html)![1]!;
    const href = /<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/.exec(html)![1]!;
    for (const [path, type] of [[src, "text/javascript"], [href, "text/css"]] as const) {
      const res = await server.fetch(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain(type);
      expect(res.headers.get("content-security-policy")).toBe(csp);
      expect((await res.text()).length).toBeGreaterThan(100);
    }
    // The script reads the spec's path from the page, so it renders this page's spec.
    expect(await (await server.fetch(src)).text()).toContain("root.dataset.spec");
    expect(html).toContain('data-spec="/openapi.json"');
  });
});

describe("GET /v1/banks", () => {
  test("needs an API key", async () => {
    const res = await server.fetch("/v1/banks");
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error_class: string }).error_class).toBe("auth_error");
  });

  test("lists the engine version and every bank with its formats", async () => {
    const issued = await server.admin("/v1/keys", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "banks", owner: "health-test" }) });
    const { key } = (await issued.json()) as { key: string };
    const res = await server.fetch("/v1/banks", { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { engine_version: string; banks: { id: string; name: string; formats: string[] }[] };
    expect(body.engine_version).toBe(ENGINE_VERSION);
    expect(body.banks.length).toBeGreaterThanOrEqual(10);
    const ids = body.banks.map((b) => b.id);
    expect(ids).toContain("gtbank");
    expect(new Set(ids).size).toBe(ids.length);
    for (const b of body.banks) {
      expect(b.name.length).toBeGreaterThan(0);
      expect(b.formats.length).toBeGreaterThan(0);
      for (const f of b.formats) expect(["pdf", "xlsx"]).toContain(f);
    }
  });
});

describe("GET /readyz when a check fails", () => {
  // The health plugin on its own real server, with one named check that fails and one that hangs.
  const app = new Elysia()
    .use(errorHandler())
    .use(
      healthRoutes({
        db,
        config: loadConfig({}),
        readiness: [
          { name: "engine", check: async () => false },
          { name: "hung", check: () => new Promise<void>(() => {}) },
          { name: "cache", check: async () => {} },
        ],
      }),
    )
    .listen({ port: 0, hostname: "127.0.0.1" });
  afterAll(() => app.stop());

  test("answers 503 naming the checks that failed", async () => {
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${app.server?.port}/readyz`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { status: string; checks: Record<string, { ok: boolean; error?: string }> };
    expect(body.status).toBe("not_ready");
    expect(body.checks.database).toEqual({ ok: true });
    expect(body.checks.cache).toEqual({ ok: true });
    expect(body.checks.engine?.ok).toBe(false);
    expect(body.checks.hung?.ok).toBe(false);
    expect(body.checks.hung?.error).toContain("no answer");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test("liveness stays 200 meanwhile", async () => {
    expect((await fetch(`http://127.0.0.1:${app.server?.port}/healthz`)).status).toBe(200);
  });
});

describe("GET /readyz when the database fails", () => {
  // A database whose driver throws with details an unauthenticated caller must not see.
  const RAW = 'connect ECONNREFUSED 10.1.2.3:5432 (password authentication failed for user "billing_admin")';
  const failing = { ...db, query: async () => Promise.reject(new Error(RAW)) } as typeof db;
  const logged: string[] = [];
  const app = new Elysia()
    .use(errorHandler())
    .use(healthRoutes({ db: failing, config: loadConfig({}), log: createLogger("info", (l) => logged.push(l)) }))
    .listen({ port: 0, hostname: "127.0.0.1" });
  afterAll(() => app.stop());

  test("names the failed check without the driver's error, which goes to the log", async () => {
    const res = await fetch(`http://127.0.0.1:${app.server?.port}/readyz`);
    expect(res.status).toBe(503);
    const text = await res.text();
    const body = JSON.parse(text) as { status: string; checks: Record<string, { ok: boolean; error?: string }> };
    expect(body.status).toBe("not_ready");
    expect(body.checks.database?.ok).toBe(false);
    expect(body.checks.database?.error).toBeTruthy();
    for (const detail of ["ECONNREFUSED", "10.1.2.3", "billing_admin", "password"]) expect(text).not.toContain(detail);
    const line = logged.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === "readiness check failed");
    expect(line).toMatchObject({ level: "warn", check: "database", error: RAW });
  });
});
