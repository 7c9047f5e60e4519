/**
 * ?include=insights over real HTTP (test/helpers/server.ts, responses checked against
 * /openapi.json): the sync parse as JSON, CSV and XLSX, a job's result by the job's own include
 * and by the result endpoint's, and the default answers left as the spec's.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { OUTPUT_COLUMNS } from "../../src/engine/statement-rows.ts";
import type { EnrichedResponse } from "../../src/engine/insights/index.ts";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";
import { waitFinished } from "../jobs/support/http.ts";

const FIXTURE = readFileSync(join(import.meta.dir, "../../fixtures/polaris/statement.pdf"));
const server = await startTestServer({ FIRST_PARTY_IP_MONTHLY_CAP: "10000" });
const issued = await server.admin("/v1/keys", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "insights", owner: unique(), tier: "first_party" }),
});
const { key } = (await issued.json()) as { key: string };
const auth = { authorization: `Bearer ${key}`, "x-first-party-client-ip": "203.0.113.30" };

function post(path: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append("pdf", new Blob([FIXTURE]), "statement.pdf");
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return server.fetch(path, { method: "POST", headers: auth, body: form });
}
const get = (path: string) => server.fetch(path, { headers: auth });

async function job(query: string): Promise<string> {
  const res = await post(`/v1/parse/jobs${query}`);
  expect(res.status).toBe(202);
  const { job_id } = (await res.json()) as { job_id: string };
  await waitFinished(server, key, job_id);
  return job_id;
}

/** The CSV's lines as cells (no field of these fixtures holds a comma or quote). */
const csvRows = (text: string) => text.trimEnd().split("\r\n").map((l) => l.split(","));

function expectEnriched(body: EnrichedResponse): void {
  expect(body.transactions.length).toBeGreaterThan(10);
  for (const t of body.transactions) expect(typeof t.enrichment.category).toBe("string");
  expect(body.accounts?.[0]?.transactions[0]?.enrichment).toEqual(body.transactions[0]?.enrichment as never);
  // A figure is its rows' sum (the full check is test/insights/figures.test.ts).
  const debits = body.insights.charges.total.rows.reduce((s, i) => s + Math.round(Number(body.transactions[i]?.debit) * 100), 0);
  expect((debits / 100).toFixed(2)).toBe(body.insights.charges.total.amount);
  expect(body.insights.charges.total.rows.length).toBeGreaterThan(0);
}

describe("POST /v1/parse", () => {
  test("without include: the spec's ParseResponse, no enrichment and no insights", async () => {
    const body = (await (await post("/v1/parse")).json()) as Record<string, unknown> & { transactions: Record<string, unknown>[] };
    expect("insights" in body).toBe(false);
    expect(body.transactions.some((t) => "enrichment" in t)).toBe(false);
  });

  test("include=insights: every transaction enriched and the statement's insights", async () => {
    const res = await post("/v1/parse?include=insights");
    expect(res.status).toBe(200);
    const body = (await res.json()) as EnrichedResponse;
    expectEnriched(body);
    expect(body.insights.row_count).toBe(body.transactions.length);
    expect(body.insights.salary.length).toBeGreaterThan(0);
  });

  test("include=insights&format=csv: category and counterparty after the fixed columns", async () => {
    const json = (await (await post("/v1/parse?include=insights")).json()) as EnrichedResponse;
    const res = await post("/v1/parse?include=insights&format=csv");
    expect(res.status).toBe(200);
    const [header, ...rows] = csvRows(await res.text());
    expect(header).toEqual([...OUTPUT_COLUMNS, "category", "counterparty"]);
    expect(rows.map((r) => r[OUTPUT_COLUMNS.length])).toEqual(json.transactions.map((t) => t.enrichment.category));
    expect(rows.map((r) => r[OUTPUT_COLUMNS.length + 1])).toEqual(json.transactions.map((t) => t.enrichment.counterparty?.name ?? ""));
    const plain = csvRows(await (await post("/v1/parse?format=csv")).text());
    expect(plain[0]).toEqual([...OUTPUT_COLUMNS]);
  });

  test("include=insights&format=xlsx: the Transactions sheet gains category and counterparty", async () => {
    const res = await post("/v1/parse?include=insights&format=xlsx");
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.getWorksheet("Transactions");
    expect((sheet?.getRow(1).values as unknown[]).slice(1)).toEqual([...OUTPUT_COLUMNS, "category", "counterparty"]);
    const categories = new Set<unknown>();
    for (let r = 2; r <= (sheet?.rowCount ?? 0); r++) categories.add(sheet?.getRow(r).getCell(OUTPUT_COLUMNS.length + 1).value);
    expect(categories.has("salary")).toBe(true);
  });

  test("an unknown include is 422 naming the query field; include with redact=true is 422", async () => {
    const bad = await post("/v1/parse?include=everything");
    expect(bad.status).toBe(422);
    const detail = ((await bad.json()) as { detail: { loc: string[] }[] }).detail;
    expect(detail[0]?.loc).toEqual(["query", "include"]);
    const conflict = await post("/v1/parse?include=insights", { redact: "true" });
    expect(conflict.status).toBe(422);
  });
});

describe("jobs", () => {
  test("a job created with include=insights: its result (JSON and CSV), its snapshot and its stream's result event carry the same insights", async () => {
    const id = await job("?include=insights");
    const res = await get(`/v1/parse/jobs/${id}/result`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expectEnriched(JSON.parse(text) as EnrichedResponse);
    const csv = csvRows(await (await get(`/v1/parse/jobs/${id}/result?format=csv`)).text());
    expect(csv[0]?.slice(-2)).toEqual(["category", "counterparty"]);
    const snapshot = (await (await get(`/v1/parse/jobs/${id}`)).json()) as { result: EnrichedResponse };
    expect(snapshot.result).toEqual(JSON.parse(text));
    const stream = await (await server.fetch(`/v1/parse/jobs/${id}/stream`)).text();
    const event = stream.split("\n\n").find((e) => e.includes("event: result")) ?? "";
    const data = event.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
    expect(data).toBe(text);
  });

  test("a plain job: plain result by default, insights when the result endpoint asks (no second parse), XLSX too", async () => {
    const id = await job("");
    const plain = (await (await get(`/v1/parse/jobs/${id}/result`)).json()) as Record<string, unknown>;
    expect("insights" in plain).toBe(false);
    const asked = await get(`/v1/parse/jobs/${id}/result?include=insights`);
    expect(asked.status).toBe(200);
    // Sent as the bytes the insights thread encoded: still JSON, with its length known.
    expect([asked.headers.get("content-type"), Number(asked.headers.get("content-length")) > 0]).toEqual(["application/json", true]);
    const first = await asked.text();
    expectEnriched(JSON.parse(first) as EnrichedResponse);
    // Made once, then kept beside the result: the second read is the same answer.
    expect(await (await get(`/v1/parse/jobs/${id}/result?include=insights`)).text()).toBe(first);
    expect("insights" in ((await (await get(`/v1/parse/jobs/${id}/result`)).json()) as Record<string, unknown>)).toBe(false);
    const xlsx = await get(`/v1/parse/jobs/${id}/result?include=insights&format=xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await xlsx.arrayBuffer());
    expect((book.getWorksheet("Transactions")?.getRow(1).values as unknown[]).slice(-2)).toEqual(["category", "counterparty"]);
    const bad = await get(`/v1/parse/jobs/${id}/result?include=nope`);
    expect(bad.status).toBe(422);
  });
});
