import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from "pdf-lib";
import { formatKobo, groupThousands } from "../money.ts";

/**
 * A made-up bank statement built in memory with pdf-lib, for warming a parse worker's engine code
 * before it serves (src/jobs/warmup.ts): a header block, a table with its column header on every
 * page, dated rows with debits, credits and a chained running balance, and a page footer. Nothing
 * of it is written to disk. Amounts are integer kobo (BigInt) throughout.
 */
export interface WarmupStatementOptions {
  pages: number;
  rowsPerPage: number;
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const DESCRIPTIONS = ["NIP TRF FROM WARMUP SENDER", "POS WEB PURCHASE WARMUP STORE", "ATM WDL WARMUP BRANCH", "VAT ON TRANSFER FEE", "MOBILE TRF TO WARMUP PAYEE"];
/** Right edges of the amount columns and left edges of the others, in points. */
const X = { date: 36, value: 96, description: 156, debit: 410, credit: 480, balance: 560 };
const SIZE = 8;

const money = (kobo: bigint): string => groupThousands(formatKobo(kobo));

const dayText = (day: number): string => {
  const d = new Date(Date.UTC(2025, 0, 1) + day * 86_400_000);
  return `${String(d.getUTCDate()).padStart(2, "0")}-${MONTHS[d.getUTCMonth()]}-${String(d.getUTCFullYear()).slice(2)}`;
};

/** One row's amounts: every third a credit, sized so the balance stays positive. */
function rowAmount(i: number): { credit: boolean; kobo: bigint } {
  const credit = i % 3 === 0;
  const kobo = BigInt(((i * 104_729) % 900_000) + 1_000) * (credit ? 3n : 1n);
  return { credit, kobo };
}

export async function warmupStatementPdf({ pages, rowsPerPage }: WarmupStatementOptions): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setProducer("worker-warmup");
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const total = pages * rowsPerPage;
  const opening = 2_500_000_00n;
  let balance = opening;
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    const left = (s: string, x: number, y: number, f: PDFFont = font, size = SIZE) => page.drawText(s, { x, y, size, font: f });
    const right = (s: string, x: number, y: number, f: PDFFont = font) => left(s, x - f.widthOfTextAtSize(s, SIZE), y, f);
    let y = 806;
    if (p === 0) y = header(page, bold, font, { opening, lastDay: Math.floor(total / 4) });
    tableHeader(left, right, bold, y);
    y -= 16;
    for (let r = 0; r < rowsPerPage; r++) {
      const i = p * rowsPerPage + r;
      const { credit, kobo } = rowAmount(i);
      balance += credit ? kobo : -kobo;
      const day = Math.floor(i / 4);
      left(dayText(day), X.date, y);
      left(dayText(day), X.value, y);
      left(`${DESCRIPTIONS[i % DESCRIPTIONS.length]} ${1000 + i}`, X.description, y);
      right(credit ? "" : money(kobo), X.debit, y);
      right(credit ? money(kobo) : "", X.credit, y);
      right(money(balance), X.balance, y);
      y -= 13;
    }
    left(`Page ${p + 1} of ${pages}`, 270, 24);
  }
  return pdf.save();
}

function header(page: PDFPage, bold: PDFFont, font: PDFFont, { opening, lastDay }: { opening: bigint; lastDay: number }): number {
  const lines: [string, PDFFont, number][] = [
    ["WARMUP BANK PLC", bold, 13],
    ["Customer Statement", bold, 10],
    ["Account Name: WARMUP CUSTOMER", font, SIZE],
    ["Account Number: 1234567890", font, SIZE],
    [`Period: ${dayText(0)} to ${dayText(lastDay)}`, font, SIZE],
    [`Opening Balance: ${money(opening)}`, font, SIZE],
  ];
  let y = 806;
  for (const [text, f, size] of lines) {
    page.drawText(text, { x: 36, y, size, font: f });
    y -= size + 6;
  }
  return y - 10;
}

function tableHeader(left: (s: string, x: number, y: number, f?: PDFFont) => unknown, right: (s: string, x: number, y: number, f?: PDFFont) => unknown, bold: PDFFont, y: number): void {
  left("Trans Date", X.date, y, bold);
  left("Value Date", X.value, y, bold);
  left("Description", X.description, y, bold);
  right("Debit", X.debit, y, bold);
  right("Credit", X.credit, y, bold);
  right("Balance", X.balance, y, bold);
}
