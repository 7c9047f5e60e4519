import { expect, test } from "bun:test";
import { sharedDb, unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer();
const db = await sharedDb();

test("20 parallel POST /v1/keys/test for one owner leave exactly one active test key", async () => {
  const owner = unique();
  const responses = await Promise.all(
    Array.from({ length: 20 }, () =>
      server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner }) }),
    ),
  );
  expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
  const issued = (await Promise.all(responses.map((r) => r.json()))) as { id: string; key: string }[];
  expect(new Set(issued.map((k) => k.id)).size).toBe(20);

  const rows = await db.query<{ id: string; revoked: boolean }>(
    `select id, revoked_at is not null as revoked from api_keys where owner = $1 and tier = 'test'`,
    [owner],
  );
  expect(rows).toHaveLength(20);
  const active = rows.filter((r) => !r.revoked);
  expect(active).toHaveLength(1);

  // Exactly the active one still authenticates.
  const statuses = await Promise.all(
    issued.map(async (k) => [k.id, (await server.fetch("/v1/banks", { headers: { authorization: `Bearer ${k.key}` } })).status] as const),
  );
  expect(statuses.filter(([, s]) => s === 200).map(([id]) => id)).toEqual([active[0]?.id ?? "none"]);
});

test("parallel test-key calls for different owners do not wait on each other's lock or collide", async () => {
  const owners = Array.from({ length: 10 }, () => unique());
  const responses = await Promise.all(
    owners.map((owner) =>
      server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner }) }),
    ),
  );
  expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
  const rows = await db.query<{ n: number }>(
    `select count(*)::int as n from api_keys where owner = any($1) and tier = 'test' and revoked_at is null`,
    [owners],
  );
  expect(rows[0]?.n).toBe(10);
});
