/** HTML tables saved with an .xls name: tolerant table extraction and entity decoding. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractHtmlTables, MAX_HTML_CELLS } from "../../src/engine/html/extract.ts";
import { decodeEntities } from "../../src/engine/html/entities.ts";
import { makeStatement } from "../../fixtures/lib/model.ts";
import { ubaHtmlXls, unknownHtmlXls } from "../../fixtures/layouts/sheets.ts";

const html = (s: string) => new TextEncoder().encode(s);

describe("extractHtmlTables", () => {
  test("the generated windows-1252 export with thead/tbody/tfoot, font tags and line breaks", () => {
    const statement = makeStatement(unknownHtmlXls.options);
    const tables = extractHtmlTables(new Uint8Array(readFileSync(join(import.meta.dir, "../../fixtures/unknown-html-xls/statement.xls"))));
    expect(tables.length).toBe(1);
    const rows = tables[0]?.rows ?? [];
    expect(rows[0]?.[0]).toBe("Adamawa Peoples Microfinance Bank – Statement of Account");
    const header = rows.findIndex((r) => r[0] === "Date");
    expect(rows[header]).toEqual(["Date", "Transaction Details", "Withdrawals", "Deposits", "Balance"]);
    const newest = statement.txns[statement.txns.length - 1];
    expect(rows[header + 1]?.[1]).toBe(newest?.narration);
    expect(rows[header + 1]?.[4]).toMatch(/^₦[\d,]+\.\d{2}$/);
    expect(rows.length).toBe(header + 1 + statement.txns.length + 1);
  });

  test("the generated UBA .xls download gives its summary and transaction tables", () => {
    const statement = makeStatement(ubaHtmlXls.options);
    const tables = extractHtmlTables(new Uint8Array(readFileSync(join(import.meta.dir, "../../fixtures/uba-html-xls/statement.xls"))));
    expect(tables.map((t) => t.name)).toEqual(["table 1", "table 2"]);
    expect(tables[0]?.rows[1]).toEqual(["Account Name", statement.holder]);
    const rows = tables[1]?.rows ?? [];
    expect(rows[0]).toEqual(["Tran Date", "Value Date", "Narration", "Debit", "Credit", "Balance"]);
    // Header, one row per transaction, and the Total row.
    expect(rows.length).toBe(statement.txns.length + 2);
    expect(rows.slice(1, -1).map((r) => r[2])).toEqual(statement.txns.map((t) => t.narration));
    expect(rows[rows.length - 1]?.slice(0, 3)).toEqual(["", "", "Total"]);
  });

  test("missing end tags close the way browsers close them", () => {
    const tables = extractHtmlTables(html("<TABLE><TR><TD>03-Jan-2024<TD>POS<br>PURCHASE<TD>1,000.00<TR><TD>04-Jan-2024<td>SMS</table>"));
    expect(tables).toEqual([{ name: "table 1", rows: [["03-Jan-2024", "POS PURCHASE", "1,000.00"], ["04-Jan-2024", "SMS"]] }]);
  });

  test("colspan keeps later columns aligned; nested tables are separate", () => {
    const tables = extractHtmlTables(html(
      '<table><tr><th colspan="2">Dates</th><th>Amount</th></tr>' +
        "<tr><td>a</td><td><table><tr><td>inner</td></tr></table>b</td><td>c</td></tr></table>",
    ));
    expect(tables.map((t) => t.rows)).toEqual([[["inner"]], [["Dates", "", "Amount"], ["a", "b", "c"]]]);
  });

  test("entities, non-breaking spaces, comments, scripts and styles", () => {
    const tables = extractHtmlTables(html(
      "<style>td{color:red}</style><script>var s='<table><tr><td>no</td></tr></table>';</script>" +
        "<table><!-- <tr><td>hidden</td></tr> --><tr><td>A&amp;B&nbsp;&nbsp;Ltd</td><td>&#8358;1,000.00</td><td>&#x20A6;5&lt;6</td><td>&nbsp;</td><td>x</td></tr></table>",
    ));
    expect(tables).toEqual([{ name: "table 1", rows: [["A&B Ltd", "₦1,000.00", "₦5<6", "", "x"]] }]);
  });

  test("declared windows-1252 and UTF-16 with a BOM decode", () => {
    const latin = new Uint8Array([...html('<meta charset="windows-1252"><table><tr><td>'), 0xa3, 0x35, ...html("</td></tr></table>")]);
    expect(extractHtmlTables(latin)[0]?.rows).toEqual([["£5"]]);
    const text = "<table><tr><td>₦2</td></tr></table>";
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) utf16[2 + i * 2] = text.charCodeAt(i) & 0xff, utf16[3 + i * 2] = text.charCodeAt(i) >> 8;
    expect(extractHtmlTables(utf16)[0]?.rows).toEqual([["₦2"]]);
  });

  test("more cells than any statement has (colspan counted): 413 payload_too_large", () => {
    const hostile = html(`<table><tr>${'<td colspan="100">x</td>'.repeat(MAX_HTML_CELLS / 100 + 1)}</tr></table>`);
    expect(() => extractHtmlTables(hostile)).toThrow(expect.objectContaining({ errorClass: "payload_too_large", status: 413 }));
    expect(extractHtmlTables(html(`<table><tr>${'<td colspan="100">x</td>'.repeat(10)}</tr></table>`))[0]?.rows[0]?.length).toBe(901);
  });

  test("a document without tables, or with only empty ones, gives none", () => {
    expect(extractHtmlTables(html("<html><body><p>Hello</p><table><tr></tr></table></body></html>"))).toEqual([]);
  });

  test("unknown or malformed character references stay as written or become U+FFFD", () => {
    expect(decodeEntities("&bogus; &#0; &#xD800; &amp")).toBe("&bogus; \uFFFD \uFFFD &");
    // 128-159 are windows-1252 characters in HTML, as old exporters meant them.
    expect(decodeEntities("01-Jun-2024 &#150; 30-Jun-2024 &#128;5")).toBe("01-Jun-2024 – 30-Jun-2024 €5");
  });
});
