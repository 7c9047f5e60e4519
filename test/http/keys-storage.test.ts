import { expect, test } from "bun:test";
import { sha256Hex } from "../../src/crypto.ts";
import { sharedDb, unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer();
const db = await sharedDb();

/** Every value of every text-like column of every table in the schema, as one list of strings. */
async function dumpAllText(): Promise<string[]> {
  const columns = await db.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea')`,
  );
  const values: string[] = [];
  for (const c of columns) {
    const rows = await db.query<{ v: string | null }>(
      `select ${quoteIdent(c.column_name)}::text as v from ${quoteIdent(c.table_name)}`,
    );
    for (const r of rows) if (r.v !== null) values.push(r.v);
  }
  return values;
}
const quoteIdent = (s: string) => `"${s.replaceAll('"', '""')}"`;

test("the raw key appears nowhere in the database; only its SHA-256 does", async () => {
  const owner = unique();
  const issued: { key: string; prefix: string }[] = [];
  for (const path of ["/v1/keys", "/v1/keys/test"]) {
    const body = path === "/v1/keys" ? { name: "secret-check", owner } : { owner };
    const res = await server.admin(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    issued.push((await res.json()) as { key: string; prefix: string });
  }
  const dump = await dumpAllText();
  expect(dump.length).toBeGreaterThan(0);
  for (const { key, prefix } of issued) {
    const secretPart = key.slice(prefix.length);
    expect(dump.filter((v) => v.includes(key))).toEqual([]);
    expect(dump.filter((v) => v.includes(secretPart))).toEqual([]);
    expect(dump).toContain(sha256Hex(key));
    expect(dump).toContain(prefix);
  }
});
