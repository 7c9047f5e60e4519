/**
 * Issue 27 over real HTTP: an owner's jobs listed newest first, paged (limit, starting_after,
 * has_more) and filtered by state, with client_reference in the list and the snapshot; and
 * Idempotency-Key on POST /v1/parse/jobs and POST /v1/parse (replays answer the first request
 * without parsing or counting again; the same key with another request is 409).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { form, get, newKey, post, type Snapshot, submit, waitFinished } from "./support/http.ts";

const server = await startTestServer({ TEST_MONTHLY_CAP: "100000" });
const statement = new Uint8Array(readFileSync(join(import.meta.dir, "../../fixtures/gtbank/statement.pdf")));
const other = new Uint8Array(readFileSync(join(import.meta.dir, "../../fixtures/uba/statement.pdf")));

interface Listing {
  job_id: string;
  state: string;
  result_kind: string;
  client_reference: string | null;
  error_class: string | null;
  callback_state: string | null;
  created_at: string;
  finished_at: string | null;
}
interface Page {
  jobs: Listing[];
  has_more: boolean;
}

async function list(key: string, query = ""): Promise<Page> {
  const res = await get(server, `/v1/parse/jobs${query}`, key);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

/** The list is written by the job's end on its own clock: wait until it shows `n` jobs in `state`. */
async function listedAs(key: string, state: string, n: number): Promise<Page> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const page = await list(key, `?state=${state}&limit=100`);
    if (page.jobs.length >= n || Date.now() > deadline) return page;
    await Bun.sleep(25);
  }
}

const usage = async (key: string) => ((await (await get(server, "/v1/usage", key)).json()) as { period_parses: number }).period_parses;

describe("GET /v1/parse/jobs", () => {
  test("newest first, paged with limit/starting_after/has_more, filtered by state; client_reference in the list and the snapshot; owners see only their own", async () => {
    const { key } = await newKey(server);
    const stranger = await newKey(server);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push((await submit(server, key, form(statement, { client_reference: `loan-${i}` }))).job_id);
      // Distinct creation times, so "newest first" has one right answer.
      await Bun.sleep(5);
    }
    // Not a statement: the job fails in its worker.
    const failed = (await submit(server, key, form(new TextEncoder().encode("%PDF-1.4 not really"), {}, "broken.pdf"))).job_id;
    ids.push(failed);
    for (const id of ids) await waitFinished(server, key, id);

    const snap = (await (await get(server, `/v1/parse/jobs/${ids[2]}`, key)).json()) as Snapshot & { client_reference?: string };
    expect(snap.client_reference).toBe("loan-2");

    const done = await listedAs(key, "done", 4);
    expect(done.jobs.map((j) => j.job_id)).toEqual(ids.slice(0, 4).reverse());
    expect(done.jobs.map((j) => j.client_reference)).toEqual(["loan-3", "loan-2", "loan-1", "loan-0"]);
    for (const j of done.jobs) {
      expect(j.result_kind).toBe("json");
      expect(j.finished_at).not.toBeNull();
      expect(j.callback_state).toBeNull();
      expect(Date.parse(j.finished_at!)).toBeGreaterThanOrEqual(Date.parse(j.created_at));
    }
    const bad = await listedAs(key, "failed", 1);
    expect(bad.jobs.map((j) => [j.job_id, j.client_reference])).toEqual([[failed, null]]);
    expect(bad.jobs[0]!.error_class).toBeTruthy();

    // Pages of two: every job once, newest first, has_more false only on the last page.
    const seen: string[] = [];
    let page = await list(key, "?limit=2");
    const pages = [page];
    seen.push(...page.jobs.map((j) => j.job_id));
    while (page.has_more) {
      page = await list(key, `?limit=2&starting_after=${seen.at(-1)}`);
      pages.push(page);
      seen.push(...page.jobs.map((j) => j.job_id));
    }
    expect(seen).toEqual([...ids].reverse());
    expect(pages.map((p) => p.jobs.length)).toEqual([2, 2, 1]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);

    // Another owner's list is empty, and it cannot page from someone else's job.
    expect((await list(stranger.key)).jobs).toEqual([]);
    const foreign = await get(server, `/v1/parse/jobs?starting_after=${ids[0]}`, stranger.key);
    expect(foreign.status).toBe(422);
    expect(((await foreign.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(["query", "starting_after"]);
  });

  test("bad list queries are 422; no key is 401", async () => {
    const { key } = await newKey(server);
    for (const q of ["?limit=0", "?limit=101", "?state=paused", "?starting_after=nope", "?colour=red"]) {
      expect((await get(server, `/v1/parse/jobs${q}`, key)).status).toBe(422);
    }
    expect((await get(server, "/v1/parse/jobs")).status).toBe(401);
  });
});

describe("Idempotency-Key", () => {
  const withKey = (path: string, key: string, idem: string, body: FormData) =>
    server.fetch(path, { method: "POST", headers: { authorization: `Bearer ${key}`, "idempotency-key": idem }, body });

  test("POST /v1/parse/jobs: the same request again answers the same job and is not counted again; another request with the key is 409", async () => {
    const { key } = await newKey(server);
    const idem = crypto.randomUUID();
    const first = await withKey("/v1/parse/jobs", key, idem, form(statement, { client_reference: "a" }));
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const created = (await first.json()) as { job_id: string };
    await waitFinished(server, key, created.job_id);
    const counted = await usage(key);

    // A fresh multipart body (new boundary), the same file and fields.
    const again = await withKey("/v1/parse/jobs", key, idem, form(statement, { client_reference: "a" }));
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as { job_id: string }).job_id).toBe(created.job_id);

    for (const changed of [form(other, { client_reference: "a" }), form(statement, { client_reference: "b" })]) {
      const res = await withKey("/v1/parse/jobs", key, idem, changed);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error_class: string }).error_class).toBe("idempotency_key_reused");
    }
    expect(await usage(key)).toBe(counted);
    // The list holds the job once.
    const listed = await list(key, "?limit=100");
    expect(listed.jobs.filter((j) => j.job_id === created.job_id).length).toBe(1);
    expect(listed.jobs.length).toBe(1);

    // Another key value is another request.
    const fresh = await withKey("/v1/parse/jobs", key, crypto.randomUUID(), form(statement, { client_reference: "a" }));
    expect(((await fresh.json()) as { job_id: string }).job_id).not.toBe(created.job_id);
  });

  test("POST /v1/parse: a replay answers the first parse's body without parsing again; another format with the key is 409", async () => {
    const { key } = await newKey(server);
    const idem = crypto.randomUUID();
    const first = await withKey("/v1/parse", key, idem, form(statement));
    expect(first.status).toBe(200);
    const body = await first.text();
    const counted = await usage(key);
    const again = await withKey("/v1/parse", key, idem, form(statement));
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toStartWith("application/json");
    expect(await again.text()).toBe(body);
    expect(await usage(key)).toBe(counted);

    const asCsv = await server.fetch("/v1/parse?format=csv", { method: "POST", headers: { authorization: `Bearer ${key}`, "idempotency-key": idem }, body: form(statement) });
    expect(asCsv.status).toBe(409);
    expect(((await asCsv.json()) as { error_class: string }).error_class).toBe("idempotency_key_reused");
    // The same key on the jobs endpoint is a separate key space.
    expect((await withKey("/v1/parse/jobs", key, idem, form(statement))).status).toBe(202);
  });

  test("a refused request leaves the key free; a malformed key is 422", async () => {
    const { key } = await newKey(server);
    const idem = crypto.randomUUID();
    // 422 (no file): nothing ran, so the same key then serves a good request.
    const refused = await withKey("/v1/parse", key, idem, form(null, { bank: "gtbank" }));
    expect(refused.status).toBe(422);
    expect((await withKey("/v1/parse", key, idem, form(statement))).status).toBe(200);
    // Without the header, nothing is bound: the same request parses again.
    expect((await post(server, "/v1/parse", key, form(statement))).status).toBe(200);
    const spaced = await withKey("/v1/parse", key, "has space", form(statement));
    expect(spaced.status).toBe(422);
    expect(((await spaced.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(["header", "Idempotency-Key"]);
  });
});
