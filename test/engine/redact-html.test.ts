/** HTML table exports (".xls" files that are HTML): the same data replaced in text and attributes. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractHtmlTables } from "../../src/engine/html/extract.ts";
import { redactDocument } from "../../src/engine/redact/index.ts";

const html = (body: string, charset = "utf-8") =>
  `<html><head><meta http-equiv="Content-Type" content="text/html; charset=${charset}"><title>Statement</title></head><body>${body}</body></html>`;

test("replaces the holder's data in cells, entities and attributes; markup and other text stay", async () => {
  const doc = html(
    `<table><tr><td>Account Name</td><td title="CHIOMA NWOSU">CHIOMA&nbsp;NWOSU</td></tr><tr><td>Account Number</td><td>2034567891</td></tr></table>` +
      `<table border="1"><tr><th>Date</th><th>Narration</th><th>Debit</th><th>Credit</th><th>Balance</th></tr>` +
      `<tr><td>02-May-2026</td><td>TRANSFER FROM CHIOMA NWOSU &amp; CO</td><td>&nbsp;</td><td>50,000.00</td><td>150,000.00</td></tr>` +
      `<tr><td>03-May-2026</td><td>POS PURCHASE SHOPRITE</td><td>12,500.50</td><td>&nbsp;</td><td>137,499.50</td></tr></table>` +
      `<script>var owner = "kept as is";</script>`,
  );
  const r = await redactDocument(new TextEncoder().encode(doc));
  expect(r.contentType).toBe("application/vnd.ms-excel");
  // Name in the header (text and title attribute), the number, the name in the narration.
  expect(r.redactions).toBe(4);
  const out = new TextDecoder().decode(r.bytes);
  expect(out).not.toMatch(/CHIOMA|NWOSU|2034567891/);
  expect(out).toContain(`<td title="[REDACTED]">[REDACTED]</td>`);
  expect(out).toContain(`TRANSFER FROM [REDACTED] &amp; CO`);
  expect(out).toContain(`<tr><td>03-May-2026</td><td>POS PURCHASE SHOPRITE</td><td>12,500.50</td><td>&nbsp;</td><td>137,499.50</td></tr>`);
  expect(out).toContain(`<script>var owner = "kept as is";</script>`);
});

test("a windows-1252 export comes back as UTF-8 and says so", async () => {
  const doc = html(`<table><tr><td>Account Name</td><td>ADÉBAYO OKONKWO</td></tr><tr><td>Note</td><td>café</td></tr></table>`, "windows-1252");
  const bytes = Uint8Array.from(doc, (c) => c.charCodeAt(0));
  const r = await redactDocument(bytes);
  const out = new TextDecoder().decode(r.bytes);
  expect(out).toContain("charset=utf-8");
  expect(out).toContain("café");
  expect(out).not.toContain("OKONKWO");
});

test("the UBA HTML export: the same tables with the holder's data replaced", async () => {
  const bytes = new Uint8Array(readFileSync(join(import.meta.dir, "../../fixtures/uba-html-xls/statement.xls")));
  const r = await redactDocument(bytes);
  const before = extractHtmlTables(bytes);
  const after = extractHtmlTables(r.bytes);
  expect(after.map((t) => t.rows.length)).toEqual(before.map((t) => t.rows.length));
  const changed = before.flatMap((t, i) => t.rows.flatMap((row, j) => row.flatMap((c, k) => (after[i]!.rows[j]![k] === c ? [] : [[c, after[i]!.rows[j]![k]]]))));
  expect(changed.length).toBe(r.redactions);
  for (const [, now] of changed) expect(now).toContain("[REDACTED]");
});
