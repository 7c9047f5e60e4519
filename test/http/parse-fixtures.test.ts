/**
 * Every generated fixture through the real HTTP path: POST /v1/parse on a running server (worker
 * pool, upload handling, metering), compared field by field with its expected.json; and one CSV.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { differences } from "../../fixtures/compare.ts";
import type { ExpectedResponse } from "../../fixtures/lib/expected.ts";
import { LAYOUTS } from "../../fixtures/layouts/index.ts";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");
// A first_party key skips the subscription gate; its per-IP cap is raised past the fixture count.
const server = await startTestServer({ FIRST_PARTY_IP_MONTHLY_CAP: "10000" });

const issued = await server.admin("/v1/keys", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "fixtures", owner: unique(), tier: "first_party" }),
});
const { key } = (await issued.json()) as { key: string };

function post(file: string, query = "") {
  const form = new FormData();
  form.append("pdf", new Blob([readFileSync(join(FIXTURES, file))]), file.split("/").pop() ?? "statement");
  return server.fetch(`/v1/parse${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "x-first-party-client-ip": "203.0.113.7" },
    body: form,
  });
}

describe("POST /v1/parse returns each fixture's expected ParseResponse", () => {
  test("the key was issued", () => {
    expect(issued.status).toBe(200);
  });

  for (const layout of LAYOUTS) {
    test(layout.name, async () => {
      const res = await post(`${layout.name}/${layout.file}`);
      const body = (await res.json()) as Record<string, unknown>;
      expect({ status: res.status, error: body.error_class }).toEqual({ status: 200, error: undefined });
      const expected = JSON.parse(readFileSync(join(FIXTURES, layout.name, "expected.json"), "utf8")) as ExpectedResponse;
      expect(differences(expected, body)).toEqual([]);
    });
  }
});

describe("format=csv on a fixture", () => {
  test("one header line and one line per expected transaction, oldest first", async () => {
    const res = await post("uba/statement.pdf", "?format=csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await res.text()).split("\r\n").filter((l) => l !== "");
    const expected = JSON.parse(readFileSync(join(FIXTURES, "uba/expected.json"), "utf8")) as ExpectedResponse;
    expect(lines[0]).toBe("bank,account,date,time,narration,debit,credit,balance,derived_balance,reference,currency");
    expect(lines.length).toBe(expected.transactions.length + 1);
    expect(lines[1]?.split(",")[2]).toBe(expected.transactions[0]?.date.slice(0, 10));
  });
});
