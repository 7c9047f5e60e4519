/**
 * Output formats over real HTTP: format=xlsx read back with exceljs (every row, typed cells, the
 * frozen and filtered header, the Summary sheet), a job's one parse fetched as JSON, CSV and XLSX,
 * and the CSVs of two different banks stacking under one header.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { OUTPUT_COLUMNS } from "../../src/engine/statement-rows.ts";
import type { ParseResponse } from "../../src/engine/types.ts";
import { XLSX_CONTENT_TYPE } from "../../src/output/xlsx.ts";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";
import { waitFinished } from "../jobs/support/http.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");
const server = await startTestServer({ FIRST_PARTY_IP_MONTHLY_CAP: "10000" });
const issued = await server.admin("/v1/keys", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "formats", owner: unique(), tier: "first_party" }),
});
const { key } = (await issued.json()) as { key: string };
const auth = { authorization: `Bearer ${key}`, "x-first-party-client-ip": "203.0.113.9" };

function upload(path: string, query = "", endpoint = "/v1/parse") {
  const form = new FormData();
  form.append("pdf", new Blob([readFileSync(join(FIXTURES, path))]), path.split("/").pop() ?? "statement");
  return server.fetch(`${endpoint}${query}`, { method: "POST", headers: auth, body: form });
}

async function workbook(res: Response): Promise<ExcelJS.Workbook> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe(XLSX_CONTENT_TYPE);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await res.arrayBuffer());
  return book;
}

/** The Transactions sheet checked against the JSON of the same parse: every row, typed. */
function expectRows(book: ExcelJS.Workbook, json: ParseResponse): void {
  const sheet = book.getWorksheet("Transactions");
  if (!sheet) throw new Error("no Transactions sheet");
  expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([...OUTPUT_COLUMNS]);
  expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
  expect(sheet.autoFilter).toBeTruthy();
  const rows = json.accounts.flatMap((a) => a.transactions.map((t) => ({ t, account: a.metadata.account_number_masked })));
  expect(sheet.rowCount).toBe(rows.length + 1);
  const col = (name: (typeof OUTPUT_COLUMNS)[number]) => OUTPUT_COLUMNS.indexOf(name) + 1;
  rows.forEach(({ t, account }, i) => {
    const r = sheet.getRow(i + 2);
    expect(r.getCell(col("bank")).value).toBe(json.metadata.bank);
    expect(r.getCell(col("account")).value).toBe(account);
    const day = r.getCell(col("date")).value;
    expect(day).toBeInstanceOf(Date);
    expect((day as Date).toISOString().slice(0, 10)).toBe(t.date.slice(0, 10));
    expect(r.getCell(col("narration")).value ?? "").toBe(t.narration);
    for (const side of ["debit", "credit", "balance"] as const) {
      const v = r.getCell(col(side)).value;
      expect(typeof v).toBe("number");
      expect((v as number).toFixed(2)).toBe(Number(t[side]).toFixed(2));
    }
    expect(typeof r.getCell(col("derived_balance")).value).toBe("number");
  });
}

describe("format=xlsx", () => {
  test("POST /v1/parse?format=xlsx: a Transactions sheet with every row of the JSON, typed, and a Summary sheet with the verdict", async () => {
    const json = (await (await upload("uba/statement.pdf")).json()) as ParseResponse;
    const book = await workbook(await upload("uba/statement.pdf", "?format=xlsx"));
    expect(json.transactions.length).toBeGreaterThan(5);
    expectRows(book, json);
    const summary = book.getWorksheet("Summary");
    if (!summary) throw new Error("no Summary sheet");
    const pairs = new Map<string, unknown>();
    summary.eachRow((row) => {
      const [, k, v] = row.values as unknown[];
      if (typeof k === "string" && !pairs.has(k)) pairs.set(k, v);
    });
    expect(pairs.get("Bank")).toBe("uba");
    expect(pairs.get("Transactions")).toBe(json.transactions.length);
    const verdict = (json.checks as { verdict?: string }).verdict;
    expect(pairs.get("Verdict")).toBe(verdict ?? (json.row_wise_reconcilable ? "reconcilable (no verdict in this result)" : "unverified"));
    expect(pairs.get("Rows chain")).toBe(json.checks.row_chain ? "yes" : "no");
  });

  test("a job's one parse is fetched as JSON, CSV and XLSX without parsing again; a format=xlsx job answers XLSX by default", async () => {
    const created = (await (await upload("gtbank/statement.pdf", "?format=xlsx", "/v1/parse/jobs")).json()) as { job_id: string; poll_url: string };
    const done = await waitFinished(server, key, created.job_id);
    expect(done.state).toBe("done");
    expect(done.result_kind).toBe("xlsx");
    expect(done.result_url).toBe(`/v1/parse/jobs/${created.job_id}/result`);
    const json = done.result as ParseResponse;
    const parses = async () => ((await (await server.fetch("/v1/usage", { headers: auth })).json()) as { period_parses: number }).period_parses;
    const before = await parses();
    expectRows(await workbook(await server.fetch(`${created.poll_url}/result`, { headers: auth })), json);
    expectRows(await workbook(await server.fetch(`${created.poll_url}/result?format=xlsx`, { headers: auth })), json);
    const asJson = await server.fetch(`${created.poll_url}/result?format=json`, { headers: auth });
    expect(await asJson.json()).toEqual(json);
    const csv = await (await server.fetch(`${created.poll_url}/result?format=csv`, { headers: auth })).text();
    expect(csv.trimEnd().split("\r\n").length).toBe(json.transactions.length + 1);
    expect(await parses()).toBe(before);
  });

  test("redact=true cannot be combined with format=xlsx (422)", async () => {
    const form = new FormData();
    form.append("pdf", new Blob([readFileSync(join(FIXTURES, "uba/statement.pdf"))]), "statement.pdf");
    form.append("redact", "true");
    const res = await server.fetch("/v1/parse?format=xlsx", { method: "POST", headers: auth, body: form });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: string[]; type: string }[] };
    expect(body.detail.some((d) => d.loc.join(".") === "query.format" && d.type === "conflict")).toBe(true);
  });
});

describe("CSVs of a batch stack", () => {
  test("two different banks: the same header, every row names its bank and account", async () => {
    const [a, b] = await Promise.all([upload("gtbank/statement.pdf", "?format=csv"), upload("kuda-xlsx/statement.xlsx", "?format=csv")]);
    const [csvA, csvB] = [await a.text(), await b.text()];
    const [headA, ...rowsA] = csvA.trimEnd().split("\r\n");
    const [headB, ...rowsB] = csvB.trimEnd().split("\r\n");
    expect(headA).toBe(OUTPUT_COLUMNS.join(","));
    expect(headB).toBe(headA);
    expect(rowsA.length).toBeGreaterThan(0);
    expect(rowsB.length).toBeGreaterThan(0);
    // Stacked: one header, then both files' rows, each still telling its bank.
    const banks = new Set([...rowsA, ...rowsB].map((l) => l.split(",")[0]));
    expect([...banks].sort()).toEqual(["gtbank", "kuda"]);
  });
});
