/**
 * Issue 27 on the Redis job backend (REDIS_URL): the jobs list, client_reference, Idempotency-Key
 * (a sync answer kept as a Redis job and replayed), completion callbacks sent by the instance that
 * ends the job, and a Redis job's result as XLSX.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { SIGNATURE_HEADER, verifySignature } from "../../src/callbacks/signature.ts";
import { startTestServer } from "../helpers/server.ts";
import { form, get, newKey, post, type Snapshot, waitFinished } from "../jobs/support/http.ts";
import { dropPrefix, REDIS_URL, uniquePrefix } from "./support.ts";

const prefix = uniquePrefix("batch");
afterAll(() => dropPrefix(prefix));
const server = await startTestServer({ REDIS_URL, REDIS_PREFIX: prefix, WORKERS: "1", TEST_MONTHLY_CAP: "100000", CALLBACK_ALLOWED_HOSTS: "127.0.0.1", CALLBACK_RETRY_BASE_MS: "100" });
const statement = new Uint8Array(readFileSync(join(import.meta.dir, "../../fixtures/gtbank/statement.pdf")));

const bodies: { headers: Headers; body: string }[] = [];
const receiver: Bun.Server<undefined> = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req): Promise<Response> {
    bodies.push({ headers: req.headers, body: await req.text() });
    return new Response("", { status: 204 });
  },
});
afterAll(() => receiver.stop(true));

describe("batch features on the Redis backend", () => {
  test("list with client_reference, a signed callback from the ending instance, the result as XLSX", async () => {
    const { key, owner } = await newKey(server);
    const issued = await server.admin("/v1/admin/callback-secret", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner }) });
    const { secret } = (await issued.json()) as { secret: string };
    const res = await post(server, "/v1/parse/jobs", key, form(statement, { client_reference: "redis-1", callback_url: `http://127.0.0.1:${receiver.port}/hook` }));
    expect(res.status).toBe(202);
    const { job_id } = (await res.json()) as { job_id: string };
    const done = (await waitFinished(server, key, job_id)) as Snapshot & { client_reference?: string };
    expect(done.state).toBe("done");
    expect(done.client_reference).toBe("redis-1");

    const deadline = Date.now() + 10_000;
    while (bodies.length === 0 && Date.now() < deadline) await Bun.sleep(25);
    expect(bodies.length).toBe(1);
    expect(verifySignature(bodies[0]!.headers.get(SIGNATURE_HEADER)!, bodies[0]!.body, secret)).toBe(true);
    expect(JSON.parse(bodies[0]!.body)).toEqual(JSON.parse(await (await get(server, `/v1/parse/jobs/${job_id}`, key)).text()));

    let listed: { job_id: string; state: string; client_reference: string | null; callback_state: string | null } | undefined;
    while (Date.now() < deadline) {
      const page = (await (await get(server, "/v1/parse/jobs", key)).json()) as { jobs: NonNullable<typeof listed>[] };
      listed = page.jobs[0];
      if (listed?.callback_state === "delivered") break;
      await Bun.sleep(25);
    }
    expect(listed).toMatchObject({ job_id, state: "done", client_reference: "redis-1", callback_state: "delivered" });

    const xlsx = await get(server, `/v1/parse/jobs/${job_id}/result?format=xlsx`, key);
    expect(xlsx.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await xlsx.arrayBuffer());
    expect(book.getWorksheet("Transactions")!.rowCount).toBe((done.result as { transactions: unknown[] }).transactions.length + 1);
  });

  test("Idempotency-Key: a sync answer is kept in Redis and replayed; a job replay names the same job", async () => {
    const { key } = await newKey(server);
    const send = (path: string, idem: string) => server.fetch(path, { method: "POST", headers: { authorization: `Bearer ${key}`, "idempotency-key": idem }, body: form(statement) });
    const idem = crypto.randomUUID();
    const first = await send("/v1/parse", idem);
    expect(first.status).toBe(200);
    const text = await first.text();
    const again = await send("/v1/parse", idem);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(text);

    const job = (await (await send("/v1/parse/jobs", idem)).json()) as { job_id: string };
    const replay = await send("/v1/parse/jobs", idem);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(((await replay.json()) as { job_id: string }).job_id).toBe(job.job_id);
  });
});
