/**
 * Every generated golden statement (PDF and XLSX layouts; the HTML ".xls" export is not redactable)
 * redacted, then checked: the holder's name and account number are gone from what pdf.js and
 * pdftotext (or the cells) show, and the re-parsed transactions equal the original's, narrations
 * compared with the removed phone numbers taken out.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { LAYOUTS } from "../../fixtures/layouts/index.ts";
import { extractDocument, findStatementPii, parseStatement } from "../../src/engine/index.ts";
import { redactDocument } from "../../src/engine/redact/index.ts";
import type { Transaction } from "../../src/engine/types.ts";
import { expectNoLeaks, leaks } from "./redact-support.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");
const PHONE = /(?:\+234|0)[789][01]\d(?:[\s-]?\d){7}/g;

const comparable = (t: Transaction) => ({ ...t, narration: t.narration.replace(/\[REDACTED\]/g, "").replace(PHONE, "").replace(/\s+/g, " ").trim() });

async function cellText(bytes: Uint8Array): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
  const out: string[] = [];
  for (const ws of wb.worksheets) ws.eachRow((row) => row.eachCell((c) => out.push(String(c.text))));
  return out.join("\n");
}

describe.each(LAYOUTS.filter((l) => !l.file.endsWith(".xls")).map((l) => ({ name: l.name, file: l.file })))("redacting golden fixture $name", ({ name, file }) => {
  test("removes the holder's name and account number and keeps the transactions", async () => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, name, file)));
    const holder = (JSON.parse(readFileSync(join(FIXTURES, name, "expected.json"), "utf8")) as { metadata: { account_holder: string } }).metadata.account_holder;
    const { accountNumbers } = findStatementPii(await extractDocument(bytes, {}));
    const pii = [holder, ...accountNumbers].filter((s) => s.trim() !== "");
    expect(pii.length).toBeGreaterThan(0);

    const r = await redactDocument(bytes);
    expect(r.redactions).toBeGreaterThanOrEqual(pii.length);
    if (file.endsWith(".pdf")) await expectNoLeaks(r.bytes, pii);
    else {
      expect(leaks(await cellText(bytes), pii[0]!)).toBe(true);
      const text = await cellText(r.bytes);
      for (const n of pii) expect({ n, leaked: leaks(text, n) }).toEqual({ n, leaked: false });
    }

    // A layout the parse does not (yet) read must fail the same way after redaction.
    const outcome = async (b: Uint8Array) => parseStatement(b).catch((e: unknown) => (e as { errorClass?: string }).errorClass ?? "thrown");
    const before = await outcome(bytes);
    const after = await outcome(r.bytes);
    if (typeof before === "string" || typeof after === "string") {
      expect(after).toEqual(before);
      return;
    }
    expect(after.transactions.map(comparable)).toEqual(before.transactions.map(comparable));
    expect(after.totals).toEqual(before.totals);
    if (accountNumbers.length > 0) expect(after.metadata.account_number_masked).not.toBe(before.metadata.account_number_masked);
  });
});
