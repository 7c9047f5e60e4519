import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { parseStatement } from "../../src/engine/index.ts";
import { redactDocument } from "../../src/engine/redact/index.ts";
import { REDACTED } from "../../src/engine/redact/xlsx.ts";
import { inflateEntry, readCentralDirectory } from "../../src/engine/xlsx/zip-guard.ts";

const SAMPLES = join(import.meta.dir, "../../fixtures/real");

async function load(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
  return wb;
}

/** Every part of the zip (shared strings, sheets, document properties), inflated, as text. */
function allParts(bytes: Uint8Array): string {
  return readCentralDirectory(bytes, 64 * 1024 * 1024)
    .map((e) => new TextDecoder().decode(inflateEntry(bytes, e)))
    .join("\n");
}

/** Every non-empty cell as "sheet!A1" -> value, values made comparable (dates as ISO). */
function cells(wb: ExcelJS.Workbook): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const ws of wb.worksheets) {
    ws.eachRow((row) =>
      row.eachCell((c) => {
        if (c.isMerged && c.master !== c) return;
        out.set(`${ws.name}!${c.address}`, c.value instanceof Date ? c.value.toISOString() : JSON.parse(JSON.stringify(c.value)));
      }),
    );
  }
  return out;
}

async function generatedWorkbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  wb.creator = "Chioma Nwosu";
  wb.lastModifiedBy = "Chioma Nwosu";
  const ws = wb.addWorksheet("Statement");
  wb.addWorksheet("CHIOMA NWOSU May 2026").addRow(["Summary", "CHIOMA NWOSU"]);
  ws.addRow(["Customer Name", "CHIOMA NWOSU"]);
  ws.addRow(["Account Number", 2034567891]);
  ws.addRow(["Address", "5 Bode Thomas Street, Surulere"]);
  ws.addRow(["Email", { text: "chioma.nwosu@example.com", hyperlink: "mailto:chioma.nwosu@example.com" }]);
  ws.addRow(["Phone", "+234 803 123 4567"]);
  ws.addRow(["Period", "01/05/2026 - 31/05/2026"]);
  ws.getCell("C1").note = "Verified with CHIOMA NWOSU by phone";
  ws.headerFooter.oddFooter = "&LStatement of CHIOMA NWOSU&RPage &P";
  ws.addRow([]);
  ws.addRow(["Date", "Narration", "Debit", "Credit", "Balance"]);
  ws.addRow([new Date(Date.UTC(2026, 4, 2)), "TRANSFER FROM CHIOMA NWOSU", null, 50000, 150000]);
  ws.addRow([new Date(Date.UTC(2026, 4, 3)), "POS PURCHASE SHOPRITE", 12500.5, null, 137499.5]);
  ws.addRow([new Date(Date.UTC(2026, 4, 4)), "SALARY MAY 2026", null, 300000, 437499.5]);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe("redacting a generated workbook", () => {
  test("replaces the personal data in its cells and touches no other cell", async () => {
    const input = await generatedWorkbook();
    const r = await redactDocument(input);
    expect(r.contentType).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    // Name (header and narration), account number, address, e-mail and phone; the print footer;
    // the second sheet's name and its cell. (The note is dropped whole: exceljs does not carry
    // notes over, see the raw check below.)
    expect(r.redactions).toBe(9);
    const before = cells(await load(input));
    const out = await load(r.bytes);
    expect(out.worksheets.map((w) => w.name)).toEqual(["Statement", "REDACTED May 2026"]);
    const after = new Map([...cells(out)].map(([k, v]) => [k.replace("REDACTED May 2026", "CHIOMA NWOSU May 2026"), v]));
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    const changed = [...before.keys()].filter((k) => JSON.stringify(before.get(k)) !== JSON.stringify(after.get(k)));
    expect(changed.sort()).toEqual(["CHIOMA NWOSU May 2026!B1", "Statement!B1", "Statement!B2", "Statement!B3", "Statement!B4", "Statement!B5", "Statement!B9"]);
    expect(after.get("Statement!B1")).toBe(REDACTED);
    expect(after.get("Statement!B2")).toBe(REDACTED);
    expect(after.get("Statement!B9")).toBe(`TRANSFER FROM ${REDACTED}`);
    expect(out.worksheets[0]!.headerFooter.oddFooter).toBe(`&LStatement of ${REDACTED}&RPage &P`);
    const raw = allParts(r.bytes);
    for (const s of ["Chioma", "CHIOMA", "2034567891", "Bode Thomas", "chioma.nwosu@example.com", "803 123 4567"]) expect({ s, found: raw.includes(s) }).toEqual({ s, found: false });
  });
});

describe("redacting the real OPay workbook", () => {
  test("removes name, account number and address from both sheets; the parse is unchanged", async () => {
    const input = new Uint8Array(readFileSync(join(SAMPLES, "opay.xlsx")));
    const r = await redactDocument(input);
    // Name, number and address on each of the two sheets' headers.
    expect(r.redactions).toBe(6);
    const before = cells(await load(input));
    const after = cells(await load(r.bytes));
    const changed = [...before.keys()].filter((k) => JSON.stringify(before.get(k)) !== JSON.stringify(after.get(k)));
    expect(changed.map((k) => before.get(k)).sort()).toEqual(["0000000000", "0000000000", "TEST USER", "TEST USER", "Test Address", "Test Address"]);
    for (const k of changed) expect(after.get(k)).toBe(REDACTED);
    // Nowhere in the file: not in shared strings, merged cells, or the document properties.
    const raw = allParts(r.bytes);
    expect(allParts(input)).toContain("TEST USER");
    for (const s of ["TEST USER", "Test Address", "菜根儿"]) expect(raw).not.toContain(s);
    expect(raw).not.toMatch(/(?<!\d)0000000000(?!\d)/);
    const parsedBefore = await parseStatement(input);
    const parsedAfter = await parseStatement(r.bytes);
    expect(parsedAfter.transactions.length).toBeGreaterThan(0);
    expect(parsedAfter.transactions).toEqual(parsedBefore.transactions);
    expect(parsedAfter.totals).toEqual(parsedBefore.totals);
  });
});
