/** XLSX extraction: canonical cell text, the real OPay export, and the zip/XML guards. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { AppError } from "../../src/errors.ts";
import { extractXlsx } from "../../src/engine/xlsx/extract.ts";
import { cellText, dateText, formattedNumberText, numberText } from "../../src/engine/xlsx/cell-text.ts";
import { scanXml } from "../../src/engine/xlsx/zip-guard.ts";
import { makeStatement } from "../../fixtures/lib/model.ts";
import { gtbankXlsx } from "../../fixtures/layouts/sheets.ts";

const SAMPLES = join(import.meta.dir, "../../fixtures/real");
const LIMITS = { maxRows: 200_000, maxInflatedBytes: 50 * 1024 * 1024 };

async function workbook(fill: (ws: ExcelJS.Worksheet) => void): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  fill(wb.addWorksheet("Sheet1"));
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

async function refusal(p: Promise<unknown>): Promise<{ errorClass: string; status: number; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return { errorClass: e.errorClass, status: e.status, message: e.message };
    throw e;
  }
  throw new Error("expected the extraction to be refused");
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELS = "http://schemas.openxmlformats.org/package/2006/relationships";
const DOC_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/**
 * The minimal parts another writer (SheetJS-style) produces: inline strings instead of shared ones,
 * a string formula, built-in date format 14, a custom date-time format, a boolean, an error, a cell
 * with a line break and doubled spaces.
 */
async function handmadeWorkbook(): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file("[Content_Types].xml", `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`);
  zip.file("_rels/.rels", `${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
  zip.file("xl/workbook.xml", `${XML}<workbook xmlns="${MAIN}" xmlns:r="${DOC_RELS}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`);
  zip.file("xl/_rels/workbook.xml.rels", `${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${DOC_RELS}/styles" Target="styles.xml"/></Relationships>`);
  zip.file("xl/styles.xml", `${XML}<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy hh:mm"/></numFmts><fonts count="1"><font/></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="4" applyNumberFormat="1"/></cellXfs></styleSheet>`);
  zip.file("xl/worksheets/sheet1.xml", `${XML}<worksheet xmlns="${MAIN}"><sheetData>` +
    '<row r="1"><c r="A1" t="inlineStr"><is><t>Date</t></is></c><c r="B1" t="inlineStr"><is><r><t>Narr</t></r><r><t>ation</t></r></is></c><c r="C1" t="inlineStr"><is><t>Debit</t></is></c><c r="D1" t="str"><f>"Bal"&amp;"ance"</f><v>Balance</v></c></row>' +
    '<row r="2"><c r="A2" s="1"><v>45294</v></c><c r="B2" t="inlineStr"><is><t xml:space="preserve"> POS\n  PURCHASE </t></is></c><c r="C2" s="3"><v>1234.5</v></c><c r="D2" s="3"><f>1000-C2</f><v>-234.5</v></c></row>' +
    '<row r="3"><c r="A3" s="2"><v>45294.59861111111</v></c><c r="B3" t="b"><v>1</v></c><c r="C3" t="e"><v>#N/A</v></c><c r="D3"><v>0.1</v></c></row>' +
    "</sheetData></worksheet>");
  return new Uint8Array(await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" }));
}

/** Offsets of central-directory records, to patch declared sizes as a hostile zip would. */
function centralRecords(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i++) if (view.getUint32(i, true) === 0x02014b50) out.push(i);
  return out;
}

describe("cell text", () => {
  test("numbers are plain decimals without float noise or exponents", () => {
    expect(numberText(1234.5)).toBe("1234.5");
    expect(numberText(0.1 + 0.2)).toBe("0.3");
    expect(numberText(1234.5600000000002)).toBe("1234.56");
    expect(numberText(-12.5)).toBe("-12.5");
    expect(numberText(-0)).toBe("0");
    expect(numberText(1e21)).toBe("1000000000000000000000");
    expect(numberText(1.5e-7)).toBe("0.00000015");
    expect(numberText(7715993813)).toBe("7715993813");
    expect(numberText(Number.NaN)).toBe("");
  });

  test("a number shows the decimals its format fixes, and only those", () => {
    expect(formattedNumberText(25000, "#,##0.00")).toBe("25000.00");
    expect(formattedNumberText(1234.5, '"₦"#,##0.00;(#,##0.00)')).toBe("1234.50");
    expect(formattedNumberText(-6402.79, "[$₦-468]#,##0.00")).toBe("-6402.79");
    expect(formattedNumberText(-0.001, "0.00")).toBe("0.00");
    // General, whole-number, percentage, date and scientific formats keep numberText's spelling.
    expect(formattedNumberText(25000, undefined)).toBe("25000");
    expect(formattedNumberText(25000, "General")).toBe("25000");
    expect(formattedNumberText(7715993813, "0")).toBe("7715993813");
    expect(formattedNumberText(0.075, "0.00%")).toBe("0.075");
    expect(formattedNumberText(45291.5, "dd/mm/yyyy hh:mm")).toBe("45291.5");
    expect(formattedNumberText(1234.5, "0.00E+00")).toBe("1234.5");
  });

  test("a whole figure under a two-decimal format reads as money: an opening row's 25000 is its balance", async () => {
    const bytes = await workbook((ws) => {
      ws.addRow(["Date", "Narration", "Amount", "Balance"]);
      const opening = ws.addRow(["", "BALANCE B/F", "", 25000]);
      opening.getCell(4).numFmt = "#,##0.00";
      for (const values of [["02/01/2026", "Transfer in", 13581.63, 38581.63], ["03/01/2026", "Airtime", -1581.63, 37000]]) {
        const row = ws.addRow(values);
        row.getCell(3).numFmt = row.getCell(4).numFmt = "#,##0.00";
      }
    });
    const [sheet] = await extractXlsx(bytes, LIMITS);
    expect(sheet!.rows[1]).toEqual(["", "BALANCE B/F", "", "25000.00"]);
    expect(sheet!.rows[3]![3]).toBe("37000.00");
  });

  test("dates are ISO wall-clock times rounded to the second", () => {
    expect(dateText(new Date(Date.UTC(2024, 0, 3)))).toBe("2024-01-03T00:00:00");
    expect(dateText(new Date(Date.UTC(2024, 0, 3, 14, 22, 10, 999)))).toBe("2024-01-03T14:22:11");
  });

  test("rich text is joined, formulas show their result, errors are empty", () => {
    expect(cellText({ richText: [{ text: "NIP TRANSFER " }, { font: { bold: true }, text: "TO ADA" }] })).toBe("NIP TRANSFER TO ADA");
    expect(cellText({ formula: "B2-C2", result: 1500.25 })).toBe("1500.25");
    expect(cellText({ sharedFormula: "D2", result: { error: "#DIV/0!" } })).toBe("");
    expect(cellText({ text: "link", hyperlink: "https://example.com" })).toBe("link");
    expect(cellText(true)).toBe("TRUE");
    expect(cellText(null)).toBe("");
  });
});

describe("scanXml", () => {
  const enc = (x: string) => new TextEncoder().encode(x);

  test("counts row elements with or without a namespace prefix, and nothing that merely starts with row", () => {
    expect(scanXml(enc('<x:sheetData><x:row r="1"/><row>\n</row><row\tr="3"/><rowBreaks/><rows/></x:sheetData>'))).toEqual({ dtd: false, rows: 3, cells: 0, strings: 0 });
  });

  test("finds DOCTYPE and ENTITY declarations in any case, and in UTF-16 parts", () => {
    expect(scanXml(enc('<?xml version="1.0"?><!doctype x><x/>')).dtd).toBe(true);
    expect(scanXml(enc('<x><!ENTITY a "b"></x>')).dtd).toBe(true);
    expect(scanXml(enc("<x><![CDATA[<!-- not a declaration -->]]></x>")).dtd).toBe(false);
    const text = '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE x [<!ENTITY a "b">]><x/>';
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) utf16[2 + i * 2] = text.charCodeAt(i);
    expect(scanXml(utf16).dtd).toBe(true);
  });
});

describe("extractXlsx", () => {
  test("the real OPay export extracts both sheets with its rows", async () => {
    const sheets = await extractXlsx(new Uint8Array(readFileSync(join(SAMPLES, "opay.xlsx"))), LIMITS);
    expect(sheets.map((s) => s.name)).toEqual(["Wallet Account Transactions", "Savings Account Transactions"]);
    const wallet = sheets[0]?.rows ?? [];
    expect(wallet[6]).toEqual(["Trans. Date", "Value Date", "Description", "Debit(₦)", "Credit(₦)", "Balance After(₦)", "Channel", "Transaction Reference"]);
    expect(wallet[7]?.slice(0, 6)).toEqual(["02 May 2023 08:21:07", "02 May 2023", "", "--", "4,000.00", "4,204.31"]);
    expect(wallet[3]?.slice(0, 2)).toEqual(["Opening Balance", "₦204.31"]);
    expect(wallet.filter((r) => /^\d{2} May 2023 \d{2}:\d{2}:\d{2}$/.test(r[0] ?? "")).length).toBe(18);
  });

  test("typed cells of the generated GTBank export come back exact", async () => {
    const statement = makeStatement(gtbankXlsx.options);
    const bytes = new Uint8Array(readFileSync(join(import.meta.dir, "../../fixtures/gtbank-xlsx/statement.xlsx")));
    const rows = (await extractXlsx(bytes, LIMITS))[0]?.rows ?? [];
    const header = rows.findIndex((r) => r[0] === "Trans. Date");
    const data = rows.slice(header + 1);
    expect(data.length).toBe(statement.txns.length);
    const kobo = (s: string | undefined) => (s === undefined || s === "" ? 0 : Math.round(Number(s) * 100));
    statement.txns.forEach((t, i) => {
      const r = data[i] ?? [];
      const day = `${t.at.y}-${String(t.at.m).padStart(2, "0")}-${String(t.at.d).padStart(2, "0")}T00:00:00`;
      expect([r[0], kobo(r[3]), kobo(r[4]), kobo(r[5]), r[7]]).toEqual([day, t.debit, t.credit, t.balance, t.narration]);
      expect(r[5]).toMatch(/^-?\d+(\.\d{1,2})?$/);
    });
  });

  test("a workbook written by another tool: inline strings, string formulas, built-in and custom date formats", async () => {
    const rows = (await extractXlsx(await handmadeWorkbook(), LIMITS))[0]?.rows;
    expect(rows).toEqual([
      ["Date", "Narration", "Debit", "Balance"],
      // Both under the built-in `#,##0.00`, the formula's cached result too, shown with its two decimals.
      ["2024-01-03T00:00:00", "POS PURCHASE", "1234.50", "-234.50"],
      ["2024-01-03T14:22:00", "TRUE", "", "0.1"],
    ]);
  });

  test("a workbook zipped without compression (stored entries) passes the guard and extracts", async () => {
    const zip = await JSZip.loadAsync(await workbook((ws) => ws.addRow(["Stored", 12.5])));
    const stored = new Uint8Array(await zip.generateAsync({ type: "uint8array", compression: "STORE" }));
    expect((await extractXlsx(stored, LIMITS))[0]?.rows).toEqual([["Stored", "12.5"]]);
  });

  test("hidden and very hidden sheets are left out", async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet("Statement").addRow(["Date", "Narration"]);
    wb.addWorksheet("Lookup", { state: "hidden" }).addRow([1, 2, 3]);
    wb.addWorksheet("Scratch", { state: "veryHidden" }).addRow([4]);
    const sheets = await extractXlsx(new Uint8Array(await wb.xlsx.writeBuffer()), LIMITS);
    expect(sheets.map((s) => s.name)).toEqual(["Statement"]);
  });

  test("merged cells show their text once", async () => {
    const bytes = await workbook((ws) => {
      ws.getCell("A1").value = "Statement of Account";
      ws.mergeCells("A1:D1");
      ws.getCell("A2").value = 1;
    });
    const rows = (await extractXlsx(bytes, LIMITS))[0]?.rows;
    expect(rows).toEqual([["Statement of Account"], ["1"]]);
  });

  test("more rows than the limit: 413 payload_too_large", async () => {
    const bytes = await workbook((ws) => {
      for (let i = 0; i < 50; i++) ws.addRow([`row ${i}`, i]);
    });
    expect(await refusal(extractXlsx(bytes, { ...LIMITS, maxRows: 10 }))).toMatchObject({ errorClass: "payload_too_large", status: 413 });
    expect((await extractXlsx(bytes, { ...LIMITS, maxRows: 50 }))[0]?.rows.length).toBe(50);
  });

  test("rows are counted in the raw sheet XML before exceljs builds anything", async () => {
    const zip = new JSZip();
    zip.file("[Content_Types].xml", "<Types/>");
    zip.file("xl/worksheets/sheet1.xml", `<worksheet><sheetData>${"<row/>".repeat(20_000)}</sheetData></worksheet>`);
    const bytes = new Uint8Array(await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" }));
    const r = await refusal(extractXlsx(bytes, { ...LIMITS, maxRows: 19_999 }));
    expect(r).toMatchObject({ errorClass: "payload_too_large", status: 413 });
    expect(r.message).toContain("19999 rows");
  });

  test("values far to the right count every column up to them: 413 past the cell budget", async () => {
    const bytes = await workbook((ws) => {
      for (let r = 1; r <= 130; r++) ws.getCell(r, 16_000).value = "x";
    });
    expect(await refusal(extractXlsx(bytes, LIMITS))).toMatchObject({ errorClass: "payload_too_large", status: 413 });
    const few = await workbook((ws) => {
      ws.getCell(1, 3).value = "c";
      ws.getCell(2, 1).value = "a";
    });
    expect((await extractXlsx(few, LIMITS))[0]?.rows).toEqual([["", "", "c"], ["a"]]);
  });

  test("declared uncompressed sizes above the limit: 413 before inflating", async () => {
    const bytes = await workbook((ws) => ws.addRow(["x".repeat(5000)]));
    expect(await refusal(extractXlsx(bytes, { ...LIMITS, maxInflatedBytes: 2048 }))).toMatchObject({ errorClass: "payload_too_large", status: 413 });

    // A directory claiming 4 GB for one part is refused from the directory alone.
    const huge = bytes.slice();
    const view = new DataView(huge.buffer);
    const at = centralRecords(huge)[0] ?? -1;
    view.setUint32(at + 24, 0xfffffff0, true);
    expect(await refusal(extractXlsx(huge, LIMITS))).toMatchObject({ errorClass: "payload_too_large", status: 413 });
  });

  test("a part that inflates past its declared size (a lying zip bomb): 413", async () => {
    const zip = new JSZip();
    zip.file("[Content_Types].xml", "<Types/>");
    zip.file("xl/worksheets/sheet1.xml", `<worksheet>${"<row/>".repeat(20_000)}</worksheet>`);
    const bytes = new Uint8Array(await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" }));
    const view = new DataView(bytes.buffer);
    // The worksheet claims 100 bytes but holds 120,000.
    const sheet = centralRecords(bytes).find((at) => new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + view.getUint16(at + 28, true))) === "xl/worksheets/sheet1.xml");
    view.setUint32((sheet ?? -1) + 24, 100, true);
    const r = await refusal(extractXlsx(bytes, LIMITS));
    expect(r).toMatchObject({ errorClass: "payload_too_large", status: 413 });
    expect(r.message).toContain("declares");
  });

  test("an absurd number of zip entries: 413", async () => {
    const zip = new JSZip();
    for (let i = 0; i < 10_001; i++) zip.file(`x/${i}.txt`, "");
    const bytes = new Uint8Array(await zip.generateAsync({ type: "uint8array" }));
    expect(await refusal(extractXlsx(bytes, LIMITS))).toMatchObject({ errorClass: "payload_too_large", status: 413 });
  });

  test("an XML part with a DOCTYPE or ENTITY declaration: 422 unsupported_format", async () => {
    const base = await workbook((ws) => ws.addRow(["a"]));
    for (const decl of ['<!DOCTYPE lolz [<!ENTITY lol "lol">]>', "<!ENTITY x SYSTEM \"file:///etc/passwd\">"]) {
      const zip = await JSZip.loadAsync(base);
      const xml = (await zip.file("xl/workbook.xml")?.async("string")) ?? "";
      zip.file("xl/workbook.xml", xml.replace("?>", `?>${decl}`));
      const bytes = new Uint8Array(await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" }));
      expect(await refusal(extractXlsx(bytes, LIMITS))).toMatchObject({ errorClass: "unsupported_format", status: 422 });
    }
  });

  test("bytes that are not a zip, and the encrypted CFB sample: 422 unsupported_format", async () => {
    expect(await refusal(extractXlsx(new TextEncoder().encode("not a spreadsheet at all"), LIMITS))).toMatchObject({ errorClass: "unsupported_format", status: 422 });
    const cfb = new Uint8Array(readFileSync(join(SAMPLES, "encrypted.xlsx")));
    expect(await refusal(extractXlsx(cfb, LIMITS))).toMatchObject({ errorClass: "unsupported_format", status: 422 });
  });
});
