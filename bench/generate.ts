/**
 * Generates the bench inputs in memory-cheap streaming fashion: a plain Nigerian-bank-style
 * statement of N pages (PDF, pdf-lib standard fonts) and an XLSX of N rows. Balances chain so the
 * engine's reconciliation runs its full path.
 */
import ExcelJS from "exceljs";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

const ROWS_PER_PAGE = 38;
const NARRATIONS = [
  "NIP TRANSFER FROM ADEBAYO OLUWASEUN/GTB/REF 0001",
  "POS PURCHASE SHOPRITE IKEJA LAGOS",
  "AIRTIME PURCHASE MTN 0803",
  "SMS ALERT CHARGES",
  "USSD TRANSFER TO CHUKWUEMEKA OBI",
  "STAMP DUTY",
  "SALARY CREDIT ACME NIGERIA LTD",
];

function* rows(count: number) {
  let balance = 5_000_000_00n; // kobo
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < count; i++) {
    const credit = i % 3 === 0;
    const amount = BigInt(((i * 7919) % 500_000) + 100) * 100n + BigInt(i % 100);
    balance += credit ? amount : -amount;
    const date = new Date(start + Math.floor(i / 40) * 86_400_000);
    yield { date, narration: NARRATIONS[i % NARRATIONS.length]!, debit: credit ? 0n : amount, credit: credit ? amount : 0n, balance };
  }
}

const fmt = (k: bigint) => {
  const neg = k < 0n;
  const a = neg ? -k : k;
  const whole = (a / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${neg ? "-" : ""}${whole}.${(a % 100n).toString().padStart(2, "0")}`;
};
const day = (d: Date) => `${String(d.getUTCDate()).padStart(2, "0")}-${["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][d.getUTCMonth()]}-${d.getUTCFullYear()}`;

export async function statementPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const it = rows(pages * ROWS_PER_PAGE);
  const right = (page: ReturnType<typeof doc.addPage>, s: string, x: number, y: number) =>
    page.drawText(s, { x: x - font.widthOfTextAtSize(s, 7), y, size: 7, font });
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    let y = 800;
    if (p === 0) {
      page.drawText("BENCH BANK PLC - STATEMENT OF ACCOUNT", { x: 40, y, size: 12, font: bold });
      page.drawText("Account Name: ADAEZE BENCHMARK", { x: 40, y: (y -= 16), size: 8, font });
      page.drawText("Account Number: 0123456789", { x: 40, y: (y -= 11), size: 8, font });
      page.drawText("Opening Balance: 5,000,000.00", { x: 40, y: (y -= 11), size: 8, font });
      y -= 10;
    }
    y -= 14;
    for (const [label, x, r] of [["Date", 40, false], ["Narration", 100, false], ["Debit", 400, true], ["Credit", 470, true], ["Balance", 555, true]] as const) {
      if (r) page.drawText(label, { x: x - bold.widthOfTextAtSize(label, 8), y, size: 8, font: bold });
      else page.drawText(label, { x, y, size: 8, font: bold });
    }
    for (let r = 0; r < ROWS_PER_PAGE - (p === 0 ? 4 : 0); r++) {
      const row = it.next();
      if (row.done) break;
      const t = row.value;
      y -= 18;
      page.drawText(day(t.date), { x: 40, y, size: 7, font });
      page.drawText(t.narration, { x: 100, y, size: 7, font });
      right(page, t.debit ? fmt(t.debit) : "", 400, y);
      right(page, t.credit ? fmt(t.credit) : "", 470, y);
      right(page, fmt(t.balance), 555, y);
    }
    page.drawText(`Page ${p + 1} of ${pages}`, { x: 500, y: 20, size: 7, font, color: rgb(0.3, 0.3, 0.3) });
  }
  return doc.save();
}

export async function statementXlsx(count: number): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Statement");
  ws.addRow(["Account Name", "ADAEZE BENCHMARK"]);
  ws.addRow(["Account Number", "0123456789"]);
  ws.addRow(["Opening Balance", 5_000_000]);
  ws.addRow([]);
  ws.addRow(["Date", "Narration", "Debit", "Credit", "Balance"]);
  for (const t of rows(count)) {
    ws.addRow([t.date, t.narration, t.debit ? Number(t.debit) / 100 : null, t.credit ? Number(t.credit) / 100 : null, Number(t.balance) / 100]);
  }
  return new Uint8Array(await wb.xlsx.writeBuffer());
}
