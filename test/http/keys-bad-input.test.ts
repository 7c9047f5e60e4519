import { describe, expect, test } from "bun:test";
import { sharedDb, unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer();
const db = await sharedDb();

interface Detail { loc: string[]; msg: string; type: string; input: unknown; ctx: Record<string, unknown> }

const keyCount = async (): Promise<number> => (await db.query<{ n: number }>(`select count(*)::int as n from api_keys`))[0]?.n ?? -1;

/** Sends a bad request and checks that no key was written whatever the answer. */
async function refused(path: string, init: RequestInit): Promise<Response> {
  const before = await keyCount();
  const res = await server.admin(path, init);
  expect(await keyCount()).toBe(before);
  return res;
}

async function expectValidation(res: Response, loc: string[], type?: string): Promise<Detail[]> {
  expect(res.status).toBe(422);
  const body = (await res.json()) as { detail: Detail[]; request_id: string };
  expect(Object.keys(body)).toEqual(["detail", "request_id"]);
  // The body names the request, as its X-Request-Id header does.
  expect(body.request_id).toBe(res.headers.get("x-request-id")!);
  expect(body.detail.length).toBeGreaterThan(0);
  for (const d of body.detail) expect(Object.keys(d).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
  expect(body.detail[0]?.loc).toEqual(loc);
  if (type) expect(body.detail[0]?.type).toBe(type);
  return body.detail;
}

const post = (body: string, contentType: string | null = "application/json"): RequestInit => ({
  method: "POST",
  headers: contentType ? { "content-type": contentType } : {},
  body,
});

describe("bad bodies on POST /v1/keys and /v1/keys/test", () => {
  for (const path of ["/v1/keys", "/v1/keys/test"]) {
    test(`${path}: malformed JSON is 422 json_invalid`, async () => {
      await expectValidation(await refused(path, post('{"name": "x",')), ["body"], "json_invalid");
    });
    test(`${path}: wrong content type is 422 content_type`, async () => {
      const d = await expectValidation(await refused(path, post('{"name":"x","owner":"y"}', "text/plain")), ["body"], "content_type");
      expect(d[0]?.input).toBe("text/plain");
    });
    test(`${path}: form-encoded body is 422 content_type`, async () => {
      await expectValidation(await refused(path, post("name=x&owner=y", "application/x-www-form-urlencoded")), ["body"], "content_type");
    });
    test(`${path}: no content type is 422`, async () => {
      await expectValidation(await refused(path, post('{"name":"x","owner":"y"}', null)), ["body"]);
    });
    test(`${path}: empty body is 422 missing`, async () => {
      await expectValidation(await refused(path, post("")), ["body"], "missing");
    });
    test(`${path}: a JSON array or string is 422`, async () => {
      await expectValidation(await refused(path, post("[]")), ["body"]);
      await expectValidation(await refused(path, post('"x"')), ["body"]);
      await expectValidation(await refused(path, post("null")), ["body"]);
    });
    test(`${path}: a body over 16 KiB is 413 payload_too_large`, async () => {
      const res = await refused(path, post(JSON.stringify({ name: "x".repeat(20_000), owner: "o" })));
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error_class: string }).error_class).toBe("payload_too_large");
    });
    test(`${path}: an oversize body sent chunked (no Content-Length) is 413`, async () => {
      const chunk = new TextEncoder().encode(`{"name":"${"y".repeat(8_000)}`);
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < 4; i++) c.enqueue(chunk);
          c.close();
        },
      });
      const res = await refused(path, { method: "POST", headers: { "content-type": "application/json" }, body: stream });
      expect(res.status).toBe(413);
    });
  }
});

describe("bad field values", () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ["empty name", { name: "", owner: "o" }, ["body", "name"]],
    ["blank name", { name: "   ", owner: "o" }, ["body", "name"]],
    ["empty owner", { name: "n", owner: "" }, ["body", "owner"]],
    ["name over 200 characters", { name: "n".repeat(201), owner: "o" }, ["body", "name"]],
    ["owner over 200 characters", { name: "n", owner: "o".repeat(201) }, ["body", "owner"]],
    ["NUL in name", { name: "a\u0000b", owner: "o" }, ["body", "name"]],
    ["newline in owner", { name: "n", owner: "a\nb" }, ["body", "owner"]],
    ["name not a string", { name: 42, owner: "o" }, ["body", "name"]],
    ["owner null", { name: "n", owner: null }, ["body", "owner"]],
    ["unknown tier", { name: "n", owner: "o", tier: "gold" }, ["body", "tier"]],
  ];
  for (const [label, body, loc] of cases) {
    test(`POST /v1/keys with ${label} is 422 at ${loc.join(".")}`, async () => {
      await expectValidation(await refused("/v1/keys", post(JSON.stringify(body))), loc);
    });
  }
  test("POST /v1/keys/test with an empty owner or extra field is 422", async () => {
    await expectValidation(await refused("/v1/keys/test", post(JSON.stringify({ owner: "" }))), ["body", "owner"]);
    await expectValidation(await refused("/v1/keys/test", post(JSON.stringify({ owner: "o", tier: "live" }))), ["body"], "unrecognized_keys");
  });
  test("a 200-character name is accepted (the limit is inclusive)", async () => {
    const res = await server.admin("/v1/keys", post(JSON.stringify({ name: "n".repeat(200), owner: unique() })));
    expect(res.status).toBe(200);
  });
});

describe("bad owner filters on GET /v1/keys", () => {
  for (const [label, owner] of [["empty", ""], ["5000 characters", "o".repeat(5000)], ["a control character", "a\u0001b"]] as const) {
    test(`an owner of ${label} is 422 at query.owner`, async () => {
      await expectValidation(await server.admin(`/v1/keys?owner=${encodeURIComponent(owner)}`), ["query", "owner"]);
    });
  }
});

describe("SQL metacharacters are data", () => {
  const nasty = `x'); drop table api_keys; -- "%_\\`;
  test("a name and owner full of SQL metacharacters are stored and listed verbatim", async () => {
    const owner = `${unique()}${nasty}`;
    const res = await server.admin("/v1/keys", post(JSON.stringify({ name: nasty, owner })));
    expect(res.status).toBe(200);
    const list = await server.admin(`/v1/keys?owner=${encodeURIComponent(owner)}`);
    const keys = ((await list.json()) as { keys: { name: string; owner: string }[] }).keys;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ name: nasty, owner });
  });
  test("an owner filter of a LIKE wildcard matches nothing", async () => {
    const res = await server.admin(`/v1/keys?owner=${encodeURIComponent("%")}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { keys: unknown[] }).keys).toEqual([]);
  });
});

describe("bad key ids on DELETE /v1/keys/{key_id}", () => {
  const garbage = ["garbage", "1", "key_", "key_short", `key_${"a".repeat(23)}`, "key_aaaaaaaaaaaaaaaaaaaa%27--", "00000000-0000-0000-0000-000000000000", "stp_live_abc"];
  for (const id of garbage) {
    test(`"${id}" is 422 with loc path.key_id and nothing revoked`, async () => {
      const before = (await db.query<{ n: number }>(`select count(*)::int as n from api_keys where revoked_at is not null`))[0]?.n;
      const res = await server.admin(`/v1/keys/${encodeURIComponent(id)}`, { method: "DELETE" });
      await expectValidation(res, ["path", "key_id"], "invalid_format");
      const after = (await db.query<{ n: number }>(`select count(*)::int as n from api_keys where revoked_at is not null`))[0]?.n;
      expect(after).toBe(before);
    });
  }
  test("a very long id is 422", async () => {
    const res = await server.admin(`/v1/keys/key_${"x".repeat(5000)}`, { method: "DELETE" });
    expect(res.status).toBe(422);
  });
});
