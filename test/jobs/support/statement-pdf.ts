import { PDFDocument, type PDFFont, StandardFonts } from "pdf-lib";

/**
 * A plain bank statement table over many pages, made with pdf-lib: a header block, the column
 * header repeated on every page, dated rows with a running balance, and a page footer. Used to
 * exercise the page fan-out; amounts are integer kobo throughout.
 */
export interface StatementOptions {
  pages: number;
  rowsPerPage?: number;
}

const naira = (kobo: number) => {
  const s = (kobo / 100).toFixed(2);
  const [whole, frac] = s.split(".");
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${frac}`;
};

const COLS = { date: 40, narration: 110, debitRight: 370, creditRight: 450, balanceRight: 550 };

export async function makeStatementPdf({ pages, rowsPerPage = 22 }: StatementOptions): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setProducer("jobs-test-generator");
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let balance = 10_000_000; // kobo: N100,000.00
  const opening = balance;
  let day = 0;
  const start = Date.UTC(2024, 0, 1);
  const fmtDate = (d: number) => {
    const dt = new Date(start + d * 86_400_000);
    const mon = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][dt.getUTCMonth()];
    return `${String(dt.getUTCDate()).padStart(2, "0")}-${mon}-${dt.getUTCFullYear()}`;
  };
  const total = pages * rowsPerPage;
  const lastDay = Math.floor((total - 1) / 3);

  for (let p = 1; p <= pages; p++) {
    const page = pdf.addPage([595, 842]);
    const text = (s: string, x: number, y: number, f: PDFFont = font, size = 9) => page.drawText(s, { x, y, size, font: f });
    const right = (s: string, xr: number, y: number) => text(s, xr - font.widthOfTextAtSize(s, 9), y);
    let y = 800;
    if (p === 1) {
      text("ACME TEST BANK PLC", 40, y, bold, 14);
      y -= 20;
      text("Account Name: ADA TEST CUSTOMER", 40, y);
      y -= 14;
      text("Account Number: 0123456789", 40, y);
      y -= 14;
      text(`Statement Period: ${fmtDate(0)} to ${fmtDate(lastDay)}`, 40, y);
      y -= 14;
      text(`Opening Balance: ${naira(opening)}`, 40, y);
      y -= 24;
    }
    text("Date", COLS.date, y, bold);
    text("Narration", COLS.narration, y, bold);
    right("Debit", COLS.debitRight, y);
    right("Credit", COLS.creditRight, y);
    right("Balance", COLS.balanceRight, y);
    y -= 16;
    for (let r = 0; r < rowsPerPage; r++) {
      const i = (p - 1) * rowsPerPage + r;
      if (i % 3 === 0 && i > 0) day++;
      const isCredit = i % 4 === 0;
      // Credits are larger so the balance stays positive over hundreds of rows.
      const amount = (50_000 + ((i * 7919) % 400_000)) * (isCredit ? 3 : 1); // kobo
      balance += isCredit ? amount : -amount;
      text(fmtDate(day), COLS.date, y);
      text(isCredit ? `TRANSFER FROM PAYER ${i + 1}` : `POS PURCHASE SHOP ${i + 1}`, COLS.narration, y);
      right(isCredit ? "0.00" : naira(amount), COLS.debitRight, y);
      right(isCredit ? naira(amount) : "0.00", COLS.creditRight, y);
      right(naira(balance), COLS.balanceRight, y);
      y -= 14;
    }
    text(`Page ${p} of ${pages}`, 270, 30);
  }
  return pdf.save();
}
