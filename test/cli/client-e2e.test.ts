/** The typed client against the real service on loopback, on Bun and (bundled) on Node. */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AuthError, createClient, EncryptedSourceError, IdempotencyKeyReusedError, type JobEvent, NotFoundError } from "../../src/index.ts";
import { startTestServer } from "../helpers/server.ts";
import { issueTestKey, ROOT, SAMPLES, tempDir } from "./support.ts";

const server = await startTestServer({ TEST_MONTHLY_CAP: "1000" });
const key = await issueTestKey(server);
const client = createClient({ baseUrl: server.url, apiKey: key });
const opay = new Uint8Array(readFileSync(join(SAMPLES, "opay.pdf")));

const collect = async (it: AsyncIterable<JobEvent>) => {
  const out: JobEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
};

describe("client against the service", () => {
  test("parseJob streams progress and ends with the same result as parse()", async () => {
    const sync = await client.parse(opay);
    const events = await collect(client.parseJob(opay));
    expect(events[0]?.type).toBe("created");
    const last = events.at(-1);
    expect(last?.type).toBe("result");
    expect(last?.type === "result" && last.kind === "json" ? last.result : undefined).toEqual(sync);
    const progress = events.slice(1, -1);
    expect(progress.length).toBeGreaterThan(0);
    for (const e of progress) expect(e.type).toBe("progress");
  });

  test("idempotencyKey: the same request is answered once and counted once; another request with the key is IdempotencyKeyReusedError", async () => {
    const own = createClient({ baseUrl: server.url, apiKey: await issueTestKey(server) });
    const idempotencyKey = `e2e-${crypto.randomUUID()}`;
    const first = await own.parse(opay, { idempotencyKey });
    expect(await own.parse(opay, { idempotencyKey })).toEqual(first);
    expect((await own.usage()).period_parses).toBe(1);
    const other = new Uint8Array(readFileSync(join(SAMPLES, "firstbank.pdf")));
    const e = await own.parse(other, { idempotencyKey }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(e).toMatchObject({ status: 409, errorClass: "idempotency_key_reused" });
  });

  test("clientReference is sent with the job and shown in its snapshot", async () => {
    const events = await collect(client.parseJob(opay, { clientReference: "batch-7/opay.pdf" }));
    const snap = await client.job(events[0]?.jobId ?? "");
    expect(snap.client_reference).toBe("batch-7/opay.pdf");
  });

  test("a csv job's bytes from result() equal parse({ format: 'csv' })", async () => {
    const events = await collect(client.parseJob(opay, { format: "csv" }));
    const last = events.at(-1);
    if (last?.type !== "result") throw new Error("no result event");
    const got = await client.result(last.jobId);
    expect(got.kind).toBe("csv");
    expect(got.kind === "csv" && got.text).toBe(await client.parse(opay, { format: "csv" }));
  });

  test("redact() returns a PDF and its count; a redact job gives the same bytes at result()", async () => {
    const firstbank = new Uint8Array(readFileSync(join(SAMPLES, "firstbank.pdf")));
    const doc = await client.redact(firstbank);
    expect(doc.contentType).toContain("application/pdf");
    expect(new TextDecoder().decode(doc.bytes.subarray(0, 5))).toBe("%PDF-");
    expect(doc.redactions).toBeGreaterThan(0);
    const last = (await collect(client.parseJob(firstbank, { redact: true }))).at(-1);
    if (last?.type !== "result" || last.kind !== "redact") throw new Error("no redact result");
    expect(last.redacted.redactions).toBe(doc.redactions as number);
    const fetched = await client.result(last.jobId);
    expect(fetched.kind === "redact" && fetched.bytes.byteLength).toBeGreaterThan(0);
  });

  test("usage() and banks() answer for the key", async () => {
    const usage = await client.usage();
    expect(usage.tier).toBe("test");
    expect(usage.monthly_cap).toBe(1000);
    expect(usage.period_parses).toBeGreaterThan(0);
    const banks = await client.banks();
    expect(banks.engine_version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(banks.banks.find((b) => b.id === "firstbank")?.formats).toContain("pdf");
  });

  test("service errors arrive as their classes, without the key", async () => {
    const wrong = "stp_test_not_a_key_000000000000000000";
    const e = await createClient({ baseUrl: server.url, apiKey: wrong }).usage().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AuthError);
    expect(e).toMatchObject({ status: 401, errorClass: "auth_error" });
    expect(JSON.stringify(e) + String(e)).not.toContain(wrong);

    const encrypted = new Uint8Array(readFileSync(join(SAMPLES, "encrypted.pdf")));
    await expect(client.parse(encrypted)).rejects.toBeInstanceOf(EncryptedSourceError);
    const viaJob = await collect(client.parseJob(encrypted)).catch((x: unknown) => x);
    expect(viaJob).toBeInstanceOf(EncryptedSourceError);
    expect(viaJob).toMatchObject({ status: 422, errorClass: "encrypted_source" });

    // Another owner's key cannot see a job: 404, as if it did not exist.
    const created = (await collect(client.parseJob(opay))).at(-1) as JobEvent & { jobId: string };
    const other = createClient({ baseUrl: server.url, apiKey: await issueTestKey(server) });
    await expect(other.result(created.jobId)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("the package entry runs on Node (global fetch only)", async () => {
    const dir = tempDir("client-node");
    const built = await Bun.build({ entrypoints: [join(ROOT, "src/index.ts")], target: "node", format: "esm" });
    expect(built.success).toBe(true);
    writeFileSync(join(dir, "client.mjs"), await (built.outputs[0] as Blob).text());
    writeFileSync(
      join(dir, "run.mjs"),
      `import { readFileSync } from "node:fs";
import { createClient, AuthError } from "./client.mjs";
const c = createClient({ baseUrl: process.argv[2], apiKey: process.argv[3] });
const events = [];
for await (const e of c.parseJob(readFileSync(process.argv[4]))) events.push(e.type);
const bad = await createClient({ baseUrl: process.argv[2], apiKey: "nope" }).usage().catch((e) => e);
console.log(JSON.stringify({ events: [...new Set(events)], usage: (await c.usage()).tier, authError: bad instanceof AuthError }));
`,
    );
    const proc = Bun.spawn(["node", join(dir, "run.mjs"), server.url, key, join(SAMPLES, "firstbank.pdf")], { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(err).toBe("");
    expect(code).toBe(0);
    const got = JSON.parse(out) as { events: string[]; usage: string; authError: boolean };
    expect(got.events[0]).toBe("created");
    expect(got.events.at(-1)).toBe("result");
    expect(got).toMatchObject({ usage: "test", authError: true });
  });
});
