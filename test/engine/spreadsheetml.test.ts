/** Excel 2003 XML Spreadsheet (.xls) extraction: typed cells, ss:Index gaps, merges, limits, DTD refusal. */
import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/errors.ts";
import { extractSpreadsheetMl, isSpreadsheetMl } from "../../src/engine/xml/spreadsheetml.ts";
import { makeStatement } from "../../fixtures/lib/model.ts";
import { zenithSpreadsheetMl } from "../../fixtures/layouts/sheets.ts";

const LIMITS = { maxRows: 200_000 };
const enc = (s: string) => new TextEncoder().encode(s);
const workbook = (table: string) =>
  enc(`<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet"><Worksheet ss:Name="S"><Table>${table}</Table></Worksheet></Workbook>`);

function refusal(f: () => unknown): { errorClass: string; status: number } {
  try {
    f();
  } catch (e) {
    if (e instanceof AppError) return { errorClass: e.errorClass, status: e.status };
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("extractSpreadsheetMl", () => {
  test("the generated Zenith export: preamble, gutter column, skipped row and typed cells", async () => {
    const statement = makeStatement(zenithSpreadsheetMl.options);
    const bytes = await zenithSpreadsheetMl.render(statement);
    expect(isSpreadsheetMl(bytes)).toBe(true);
    const [sheet] = extractSpreadsheetMl(bytes, LIMITS);
    expect(sheet?.name).toBe("Statement");
    const rows = sheet?.rows ?? [];
    expect(rows[0]).toEqual(["Zenith Bank Plc"]);
    expect(rows[2]).toEqual(["Account Number", statement.accountNumber]);
    expect(rows[6]).toEqual([]);
    expect(rows[7]).toEqual(["DATE POSTED", "", "DESCRIPTION", "DEBIT", "CREDIT", "BALANCE"]);
    const first = statement.txns[0];
    const pad = (n: number) => String(n).padStart(2, "0");
    expect(rows[8]?.[0]).toBe(`${first?.at.y}-${pad(first?.at.m ?? 0)}-${pad(first?.at.d ?? 0)}T00:00:00`);
    expect(rows.slice(8).map((r) => Math.round(Number(r[5]) * 100))).toEqual(statement.txns.map((t) => t.balance));
    expect(rows.slice(8).map((r) => r[2])).toEqual(statement.txns.map((t) => t.narration));
  });

  test("numbers, booleans, errors, entities and inline HTML formatting in Data", () => {
    const rows = extractSpreadsheetMl(workbook(
      '<Row><Cell><Data ss:Type="Number">1.2345E3</Data></Cell><Cell><Data ss:Type="Boolean">1</Data></Cell><Cell><Data ss:Type="Error">#N/A</Data></Cell>' +
        '<Cell><ss:Data ss:Type="String" xmlns="http://www.w3.org/TR/REC-html40"><B>POS</B>&#10;PURCHASE &amp; CO</ss:Data></Cell></Row>',
    ), LIMITS)[0]?.rows;
    expect(rows).toEqual([["1234.5", "TRUE", "", "POS PURCHASE & CO"]]);
  });

  test("a number shows the decimals its style's format fixes, named (Standard) or coded", () => {
    const styled = enc(
      '<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">' +
        '<Styles><Style ss:ID="std"><NumberFormat ss:Format="Standard"/></Style><Style ss:ID="naira"><NumberFormat ss:Format="&quot;₦&quot;#,##0.00"/></Style><Style ss:ID="pct"><NumberFormat ss:Format="Percent"/></Style></Styles>' +
        '<Worksheet ss:Name="S"><Table><Row><Cell ss:StyleID="std"><Data ss:Type="Number">25000</Data></Cell><Cell ss:StyleID="naira"><Data ss:Type="Number">-1234.5</Data></Cell>' +
        '<Cell ss:StyleID="pct"><Data ss:Type="Number">0.075</Data></Cell><Cell><Data ss:Type="Number">25000</Data></Cell></Row></Table></Worksheet></Workbook>',
    );
    expect(extractSpreadsheetMl(styled, LIMITS)[0]?.rows).toEqual([["25000.00", "-1234.50", "0.075", "25000"]]);
  });

  test("unclosed Row and Cell tags end at the next one: 100,000 of them read in one pass", () => {
    // Matching each element to its closing tag rescanned the rest of the file for every unclosed
    // one (quadratic: this document took minutes); the reader walks the tags once.
    const rows = extractSpreadsheetMl(workbook('<Row><Cell><Data ss:Type="String">x</Data>'.repeat(100_000)), LIMITS)[0]?.rows ?? [];
    expect(rows.length).toBe(100_000);
    expect(rows[99_999]).toEqual(["x"]);
  });

  test("more rows than the limit: 413; absurd ss:Index: 422; a DOCTYPE: 422", () => {
    const many = workbook('<Row><Cell><Data ss:Type="String">x</Data></Cell></Row>'.repeat(11));
    expect(refusal(() => extractSpreadsheetMl(many, { maxRows: 10 }))).toEqual({ errorClass: "payload_too_large", status: 413 });
    expect(extractSpreadsheetMl(many, { maxRows: 11 })[0]?.rows.length).toBe(11);
    expect(refusal(() => extractSpreadsheetMl(workbook('<Row><Cell ss:Index="999999"/></Row>'), LIMITS))).toEqual({ errorClass: "unsupported_format", status: 422 });
    const dtd = enc('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"/>');
    expect(refusal(() => extractSpreadsheetMl(dtd, LIMITS))).toEqual({ errorClass: "unsupported_format", status: 422 });
  });

  test("recognised only with the SpreadsheetML namespace after an XML declaration", () => {
    expect(isSpreadsheetMl(workbook(""))).toBe(true);
    expect(isSpreadsheetMl(enc('<?xml version="1.0"?><html><table></table></html>'))).toBe(false);
    expect(isSpreadsheetMl(enc("<table><tr><td>urn:schemas-microsoft-com:office:spreadsheet</td></tr></table>"))).toBe(false);
  });
});
