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
  // Scripts are removed outright (issue 15).
  expect(out).not.toContain("<script");
});

test("comments, scripts, styles, attributes and the head hold nothing: removed or redacted, and counted", async () => {
  const doc =
    `<html><head><meta charset="utf-8"><title>Statement for CHIOMA NWOSU 2034567891</title>` +
    `<meta name="author" content="Chioma Nwosu"><meta name="description" content='acct 2034567891'>` +
    `<style>/* CHIOMA NWOSU */ td { color: black }</style></head><body>` +
    `<!-- exported for CHIOMA NWOSU, account 2034567891 -->` +
    `<!--[if gte mso 9]><xml><x:Name>NWOSU 2034567891</x:Name></xml><![endif]-->` +
    `<script type="text/javascript">var holder = "CHIOMA NWOSU"; var acct = '2034567891';</script>` +
    `<table><tr><td>Account Name</td><td>CHIOMA NWOSU</td></tr><tr><td>Account Number</td><td>2034567891</td></tr></table>` +
    `<table border="1"><tr><th>Date</th><th>Narration</th><th>Debit</th><th>Credit</th><th>Balance</th></tr>` +
    `<tr><td>02-May-2026</td><td><img alt="Chioma Nwosu" src="x.png">TRANSFER TO NWOSU</td><td>&nbsp;</td><td>50,000.00</td><td>150,000.00</td></tr>` +
    `<tr><td>03-May-2026</td><td title="2034567891"><input value=2034567891>POS PURCHASE</td><td>12,500.50</td><td>&nbsp;</td><td>137,499.50</td></tr>` +
    `</table></body></html>`;
  const r = await redactDocument(new TextEncoder().encode(doc));
  const out = new TextDecoder().decode(r.bytes);
  expect(out).not.toMatch(/CHIOMA|NWOSU|2034567891/i);
  expect(out).not.toMatch(/<!--|<script|<style|<xml/i);
  expect(out).toContain(`<title>Statement for [REDACTED] [REDACTED]</title>`);
  expect(out).toContain(`<meta name="author" content="[REDACTED]">`);
  expect(out).toContain(`<img alt="[REDACTED]" src="x.png">TRANSFER TO [REDACTED]`);
  expect(out).toContain(`<td title="[REDACTED]"><input value="[REDACTED]">POS PURCHASE</td>`);
  // Every occurrence counts, the removed ones too: title 2, meta 2, style 1, comments 2 + 2,
  // script 2, cells 2, narration (alt 1, text 1), title/value attributes 2.
  expect(r.redactions).toBe(17);
  // The statement still reads the same.
  const rows = extractHtmlTables(r.bytes)[1]!.rows;
  expect(rows.map((row) => row[0])).toEqual(["Date", "02-May-2026", "03-May-2026"]);
});

test("hostile markup costs linear time: a '<' with no '>', an unclosed comment or script", async () => {
  const table = `<table><tr><td>Account Name</td><td>CHIOMA NWOSU</td></tr></table>`;
  for (const tail of ["<a".repeat(100_000), "<!--" + "x".repeat(200_000), "<script>" + "<".repeat(200_000)]) {
    const r = await redactDocument(new TextEncoder().encode(`<html><body>${table}${tail}</body></html>`));
    expect(new TextDecoder().decode(r.bytes)).not.toContain("NWOSU");
  }
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
