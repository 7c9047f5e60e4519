/**
 * Every generated golden statement (PDF, XLSX and HTML ".xls" layouts) redacted, then checked: the holder's name and account number are gone from what pdf.js and
 * pdftotext (or the cells) show, and the re-parsed transactions equal the original's, narrations
 * compared with what redaction may remove from them (phone numbers, the holder's name and number)
 * taken out.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { LAYOUTS } from "../../fixtures/layouts/index.ts";
import { extractHtmlTables } from "../../src/engine/html/extract.ts";
import { extractDocument, findStatementPii, parseStatement } from "../../src/engine/index.ts";
import { nameParts } from "../../src/engine/redact/find.ts";
import { redactDocument } from "../../src/engine/redact/index.ts";
import { extractSpreadsheetMl, isSpreadsheetMl } from "../../src/engine/xml/spreadsheetml.ts";
import type { Transaction } from "../../src/engine/types.ts";
import { expectNoLeaks, leaks } from "./redact-support.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");
const PHONE = /(?:\+234|0)[789][01]\d(?:[\s-]?\d){7}/g;

/** The transaction with what redaction may take out of a narration taken out: phone numbers, the holder's values. */
function comparable(t: Transaction, pii: string[]): Transaction {
  let n = t.narration.replace(/\[REDACTED\]/g, "").replace(PHONE, "");
  for (const v of pii) {
    const pattern = v.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s*");
    n = n.replace(new RegExp(pattern, "gi"), "");
    // Masked renderings of an account number ("******0111").
    if (/^\d+$/.test(v)) n = n.replace(new RegExp(`[*Xx]{2,}${v.slice(-4)}`, "g"), "");
    // Each part of the holder's name on its own ("... TO ADEYEMI"), as a whole word.
    for (const part of nameParts(v)) n = n.replace(new RegExp(`(?<![\\p{L}\\p{N}])${part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "giu"), "");
  }
  return { ...t, narration: n.replace(/\s+/g, " ").trim() };
}

async function cellText(bytes: Uint8Array): Promise<string> {
  // An Excel 2003 XML ".xls" export: the text of its cells.
  if (isSpreadsheetMl(bytes)) return extractSpreadsheetMl(bytes, { maxRows: 100_000 }).flatMap((t) => t.rows.flat()).join("\n");
  // An HTML ".xls" export: the text of its tables.
  if (bytes[0] === 0x3c || /<table/i.test(new TextDecoder().decode(bytes.subarray(0, 4096)))) {
    return extractHtmlTables(bytes).flatMap((t) => t.rows.flat()).join("\n");
  }
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
  const out: string[] = [];
  for (const ws of wb.worksheets) ws.eachRow((row) => row.eachCell((c) => out.push(String(c.text))));
  return out.join("\n");
}

describe.each(LAYOUTS.map((l) => ({ name: l.name, file: l.file })))("redacting golden fixture $name", ({ name, file }) => {
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
    expect(after.transactions.map((t) => comparable(t, pii))).toEqual(before.transactions.map((t) => comparable(t, pii)));
    expect(after.totals).toEqual(before.totals);
    if (accountNumbers.length > 0) expect(after.metadata.account_number_masked).not.toBe(before.metadata.account_number_masked);
  });
});
