/**
 * Completion callbacks against a real receiver (a Bun HTTP server on loopback, allowed through
 * CALLBACK_ALLOWED_HOSTS): the final snapshot arrives signed and verifies with the owner's secret,
 * a 500 is retried, a redirect is not followed, private addresses are refused at creation (a
 * literal address) or at send time (a name resolving to one), and a rotation signs with both
 * secrets for its overlap.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SIGNATURE_HEADER, verifySignature } from "../../src/callbacks/signature.ts";
import { createLogger } from "../../src/log.ts";
import { startTestServer } from "../helpers/server.ts";
import { form, get, newKey, post, type Snapshot, waitFinished } from "./support/http.ts";

const logLines: string[] = [];
const server = await startTestServer(
  { TEST_MONTHLY_CAP: "100000", CALLBACK_ALLOWED_HOSTS: "127.0.0.1", CALLBACK_RETRY_BASE_MS: "100", CALLBACK_MAX_ATTEMPTS: "3" },
  { log: createLogger("info", (l) => logLines.push(l)) },
);
const failures = () => logLines.map((l) => JSON.parse(l) as { msg: string; reason?: string; attempts?: number }).filter((l) => l.msg === "callback failed");
const statement = new Uint8Array(readFileSync(join(import.meta.dir, "../../fixtures/gtbank/statement.pdf")));

interface Received {
  path: string;
  headers: Headers;
  body: string;
}
const received: Received[] = [];
/** How the receiver answers each path, in turn: a status per request (the last one repeats). */
const script: Record<string, number[]> = { "/retry": [500, 200], "/ok": [200], "/redirect": [302] };
const receiver: Bun.Server<undefined> = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req): Promise<Response> {
    const path = new URL(req.url).pathname;
    received.push({ path, headers: req.headers, body: await req.text() });
    const statuses = script[path] ?? [404];
    const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
    return status === 302 ? new Response(null, { status, headers: { location: `http://127.0.0.1:${receiver.port}/ok` } }) : new Response("", { status });
  },
});
afterAll(() => receiver.stop(true));
const hook = (path: string) => `http://127.0.0.1:${receiver.port}${path}`;

async function issueSecret(owner: string): Promise<{ secret: string; previous_valid_until: string | null }> {
  const res = await server.admin("/v1/admin/callback-secret", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner }) });
  expect(res.status).toBe(200);
  return (await res.json()) as { secret: string; previous_valid_until: string | null };
}

async function createWithCallback(key: string, url: string): Promise<Response> {
  return post(server, "/v1/parse/jobs", key, form(statement, { callback_url: url, client_reference: "cb" }));
}

const arrivals = (path: string) => received.filter((r) => r.path === path);

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

async function callbackState(key: string, id: string): Promise<string | null> {
  const page = (await (await get(server, "/v1/parse/jobs?limit=100", key)).json()) as { jobs: { job_id: string; callback_state: string | null }[] };
  return page.jobs.find((j) => j.job_id === id)?.callback_state ?? null;
}

describe("completion callbacks", () => {
  test("signed final snapshot received and verified; a 500 is retried; the list says delivered", async () => {
    const { key, owner } = await newKey(server);
    const { secret } = await issueSecret(owner);
    const res = await createWithCallback(key, hook("/retry"));
    expect(res.status).toBe(202);
    const { job_id } = (await res.json()) as { job_id: string };
    const snapshot = await waitFinished(server, key, job_id);
    expect(snapshot.state).toBe("done");

    const [first, second] = await until("two attempts", () => (arrivals("/retry").length >= 2 ? arrivals("/retry") : undefined));
    for (const [n, r] of [[1, first!], [2, second!]] as const) {
      expect(r.headers.get("content-type")).toBe("application/json");
      expect(r.headers.get("stp-job-id")).toBe(job_id);
      expect(r.headers.get("stp-delivery-attempt")).toBe(String(n));
      const signature = r.headers.get(SIGNATURE_HEADER)!;
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifySignature(signature, r.body, secret)).toBe(true);
      // A tampered body or another secret does not verify.
      expect(verifySignature(signature, r.body.replace("done", "dona"), secret)).toBe(false);
      expect(verifySignature(signature, r.body, `${secret}x`)).toBe(false);
    }
    // The body is the job's final snapshot, as polling shows it.
    const body = JSON.parse(second!.body) as Snapshot & { client_reference: string };
    expect(body).toEqual(JSON.parse(await (await get(server, `/v1/parse/jobs/${job_id}`, key)).text()));
    expect(body.client_reference).toBe("cb");
    expect(await until("delivered", async () => ((await callbackState(key, job_id)) === "delivered" ? true : undefined))).toBe(true);
    // Delivered on the second attempt: no third.
    await Bun.sleep(300);
    expect(arrivals("/retry").length).toBe(2);
  });

  test("a redirect is not followed: the callback fails without another attempt", async () => {
    const { key, owner } = await newKey(server);
    await issueSecret(owner);
    const before = arrivals("/ok").length;
    const { job_id } = (await (await createWithCallback(key, hook("/redirect"))).json()) as { job_id: string };
    await waitFinished(server, key, job_id);
    expect(await until("failed", async () => ((await callbackState(key, job_id)) === "failed" ? true : undefined))).toBe(true);
    expect(arrivals("/redirect").length).toBe(1);
    expect(failures().some((f) => f.reason === "answered 302 (redirects are not followed)" && f.attempts === 1)).toBe(true);
    expect(arrivals("/ok").length).toBe(before);
  });

  test("private addresses: a literal one is 422 at creation; a name that resolves to one is refused at send time, nothing is sent", async () => {
    const { key, owner } = await newKey(server);
    await issueSecret(owner);
    for (const url of ["https://10.0.0.5/hook", "https://169.254.169.254/latest", `http://127.0.0.2:${receiver.port}/ok`, "https://[::1]/hook", "ftp://example.com/x"]) {
      const res = await createWithCallback(key, url);
      expect(res.status).toBe(422);
      const detail = ((await res.json()) as { detail: { loc: string[]; type: string }[] }).detail[0]!;
      expect(detail.loc).toEqual(["body", "callback_url"]);
      expect(detail.type).toBe("callback_url_refused");
    }
    const before = received.length;
    // localhost is a name (not listed in CALLBACK_ALLOWED_HOSTS): accepted at creation, resolved at send time to a loopback address.
    const res = await createWithCallback(key, `https://localhost:${receiver.port}/ok`);
    expect(res.status).toBe(202);
    const { job_id } = (await res.json()) as { job_id: string };
    await waitFinished(server, key, job_id);
    expect(await until("failed", async () => ((await callbackState(key, job_id)) === "failed" ? true : undefined))).toBe(true);
    expect(received.length).toBe(before);
    // Refused for its address, on the first attempt (a refusal is not retried), before any connection.
    const refusal = failures().find((f) => f.reason?.startsWith("localhost resolves to"));
    expect(refusal?.reason).toContain("which is not a public address");
    expect(refusal?.attempts).toBe(1);
  });

  test("no signing secret: callback_url is 422; a rotation signs with the new and the previous secret", async () => {
    const { key, owner } = await newKey(server);
    const refused = await createWithCallback(key, hook("/ok"));
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: { type: string }[] }).detail[0]!.type).toBe("callback_secret_missing");

    const old = await issueSecret(owner);
    expect(old.previous_valid_until).toBeNull();
    const rotated = await issueSecret(owner);
    expect(rotated.secret).not.toBe(old.secret);
    expect(rotated.secret).toStartWith("whsec_");
    expect(Date.parse(rotated.previous_valid_until!)).toBeGreaterThan(Date.now());
    const before = arrivals("/ok").length;
    const { job_id } = (await (await createWithCallback(key, hook("/ok"))).json()) as { job_id: string };
    const r = await until("the callback", () => arrivals("/ok").slice(before).find((x) => x.headers.get("stp-job-id") === job_id));
    const signature = r.headers.get(SIGNATURE_HEADER)!;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifySignature(signature, r.body, rotated.secret)).toBe(true);
    expect(verifySignature(signature, r.body, old.secret)).toBe(true);
  });

  test("the secret endpoint is the admin's: an API key gets 403", async () => {
    const { key, owner } = await newKey(server);
    const res = await server.fetch("/v1/admin/callback-secret", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ owner }) });
    expect(res.status).toBe(403);
  });
});
