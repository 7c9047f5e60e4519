/**
 * Issue 15 item 6: the holder's name parts are redacted wherever they stand, in every output
 * format: a narration naming only the surname ("…TO ADEYEMI") or only the first name loses it;
 * narration words and other people's names stay.
 */
import { expect, test } from "bun:test";
import ExcelJS from "exceljs";
import { redactDocument } from "../../src/engine/redact/index.ts";
import { pdfjsText, pdftotextText } from "./redact-support.ts";
import { buildPdf } from "./synthetic-pdf.ts";

const HOLDER = "ADEYEMI TOLULOPE BANKOLE";
const PARTS = ["ADEYEMI", "TOLULOPE", "BANKOLE"];
const ROWS = [
  ["Date", "Narration", "Debit", "Credit", "Balance"],
  ["01/05/2026", "Opening Balance", "", "", "100,000.00"],
  ["02/05/2026", "NIP TRANSFER FROM CHIDI EZE TO ADEYEMI", "", "50,000.00", "150,000.00"],
  ["03/05/2026", "USSD TRANSFER TO TOLULOPE VIA *945#", "1,000.00", "", "149,000.00"],
  ["04/05/2026", "POS PURCHASE BANKOLE STORES LTD", "2,000.00", "", "147,000.00"],
];
const KEPT = ["NIP TRANSFER FROM CHIDI EZE TO", "USSD TRANSFER TO", "POS PURCHASE", "STORES LTD", "147,000.00"];

test("PDF: each part of the holder's name is gone from every narration; the rest of each narration stays", async () => {
  const cols = [50, 110, 360, 430, 500];
  const bytes = await buildPdf([
    {
      lines: [
        { top: 60, puts: [{ x: 50, t: "Account Name:" }, { x: 140, t: HOLDER }] },
        { top: 74, puts: [{ x: 50, t: "Account Number:" }, { x: 140, t: "3087654321" }] },
        ...ROWS.map((row, i) => ({ top: 120 + 16 * i, puts: row.flatMap((t, c) => (t ? [{ x: cols[c]!, t }] : [])) })),
      ],
    },
  ]);
  const r = await redactDocument(bytes);
  for (const text of [await pdfjsText(r.bytes), await pdftotextText(r.bytes)]) {
    for (const part of PARTS) expect({ part, found: text.includes(part) }).toEqual({ part, found: false });
    for (const kept of KEPT) expect({ kept, found: text.replace(/\s+/g, " ").includes(kept) }).toEqual({ kept, found: true });
  }
  // The header's whole name, the number, and one part in each of three narrations.
  expect(r.redactions).toBe(5);
});

test("XLSX: each part of the holder's name becomes [REDACTED] in the narration cells", async () => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Statement");
  ws.addRow(["Account Name", HOLDER]);
  ws.addRow(["Account Number", "3087654321"]);
  ws.addRow([]);
  for (const row of ROWS) ws.addRow(row);
  const r = await redactDocument(new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer));
  const out = new ExcelJS.Workbook();
  await out.xlsx.load(Buffer.from(r.bytes) as unknown as ExcelJS.Buffer);
  const narrations = out.worksheets[0]!.getColumn(2).values.slice(5).map(String);
  expect(narrations).toEqual(["Opening Balance", "NIP TRANSFER FROM CHIDI EZE TO [REDACTED]", "USSD TRANSFER TO [REDACTED] VIA *945#", "POS PURCHASE [REDACTED] STORES LTD"]);
});
