/**
 * A small bank-style statement made with pdf-lib for the integrity tests: the genuine original,
 * and the same generator with one row changed or added (the "typed in" variants), so each doctored
 * copy differs from its original only by the edit under test.
 */
import { PDFDocument, StandardFonts } from "pdf-lib";

export interface Row {
  date: string; // DD/MM/YYYY
  narration: string;
  debit: bigint; // kobo
  credit: bigint;
}

export interface StatementOptions {
  rows?: Row[];
  /** Overrides the balance printed on row `index` (kobo), leaving everything else as computed. */
  balanceOverride?: { index: number; balance: bigint };
  /** Overrides the credit printed on row `index` while the printed totals stay those of the original rows. */
  creditOverride?: { index: number; credit: bigint };
  pages?: number;
  producer?: string;
  creationDate?: Date;
  modificationDate?: Date;
  /**
   * Right-aligns figures by an average glyph width (points per character) instead of their real
   * width, as some report engines do: each figure's right edge then lands off the column's edge by
   * an amount that depends on its length and punctuation (the bank's own rendering, not an edit).
   */
  estimatedCharWidth?: number;
}

export const OPENING = 250_000_00n;
export const PERIOD = { start: "01/03/2026", end: "31/03/2026" };
export const CREATED = new Date("2026-04-01T09:00:00Z");

export const ROWS: Row[] = [
  { date: "02/03/2026", narration: "NIP TRANSFER FROM ADEBAYO OLUWASEUN", debit: 0n, credit: 150_000_00n },
  { date: "04/03/2026", narration: "POS PURCHASE SHOPRITE IKEJA", debit: 12_450_50n, credit: 0n },
  { date: "07/03/2026", narration: "AIRTIME PURCHASE MTN", debit: 2_000_00n, credit: 0n },
  { date: "10/03/2026", narration: "SALARY CREDIT ACME NIGERIA LTD", debit: 0n, credit: 420_000_00n },
  { date: "12/03/2026", narration: "USSD TRANSFER TO CHUKWUEMEKA OBI", debit: 75_000_00n, credit: 0n },
  { date: "15/03/2026", narration: "SMS ALERT CHARGES", debit: 120_00n, credit: 0n },
  { date: "18/03/2026", narration: "POS PURCHASE JUMIA LAGOS", debit: 33_999_99n, credit: 0n },
  { date: "21/03/2026", narration: "NIP TRANSFER FROM IFEOMA NWOSU", debit: 0n, credit: 60_000_00n },
  { date: "25/03/2026", narration: "STAMP DUTY", debit: 50_00n, credit: 0n },
  { date: "28/03/2026", narration: "ELECTRICITY TOKEN IKEDC", debit: 15_000_00n, credit: 0n },
];

export const fmt = (kobo: bigint): string => {
  const neg = kobo < 0n;
  const v = neg ? -kobo : kobo;
  const naira = (v / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${neg ? "-" : ""}${naira}.${(v % 100n).toString().padStart(2, "0")}`;
};

/** Row positions on the page (pdf-lib's y-up points), so edits can be placed over a figure. */
export const LAYOUT = { firstRowY: 640, rowStep: 18, debitRight: 400, creditRight: 470, balanceRight: 555, size: 8 };

export async function statement(opts: StatementOptions = {}): Promise<Uint8Array> {
  const rows = opts.rows ?? ROWS;
  const pages = opts.pages ?? 1;
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const perPage = Math.ceil(rows.length / pages);
  let balance = OPENING;
  let debits = 0n;
  let credits = 0n;
  for (const r of ROWS.slice(0, rows.length)) {
    debits += r.debit;
    credits += r.credit;
  }
  // Printed totals are the original rows' (opts.rows may add a row the totals then do not include).
  if (opts.rows) {
    debits = rows.reduce((n, r) => n + r.debit, 0n);
    credits = rows.reduce((n, r) => n + r.credit, 0n);
  }
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    const { size } = LAYOUT;
    const width = (s: string) => (opts.estimatedCharWidth ? s.length * opts.estimatedCharWidth : font.widthOfTextAtSize(s, size));
    const right = (s: string, x: number, y: number) => page.drawText(s, { x: x - width(s), y, size, font });
    page.drawText("ODUDUWA MICROFINANCE BANK - STATEMENT OF ACCOUNT", { x: 40, y: 790, size: 12, font: bold });
    page.drawText("Account Name: ADAEZE OKONKWO", { x: 40, y: 770, size, font });
    page.drawText("Account Number: 0123456789", { x: 40, y: 758, size, font });
    page.drawText(`Period: ${PERIOD.start} to ${PERIOD.end}`, { x: 40, y: 746, size, font });
    if (p === 0) page.drawText(`Opening Balance: ${fmt(OPENING)}`, { x: 40, y: 734, size, font });
    const headY = LAYOUT.firstRowY + LAYOUT.rowStep;
    page.drawText("Date", { x: 40, y: headY, size, font: bold });
    page.drawText("Narration", { x: 100, y: headY, size, font: bold });
    for (const [label, x] of [["Debit", LAYOUT.debitRight], ["Credit", LAYOUT.creditRight], ["Balance", LAYOUT.balanceRight]] as const) {
      page.drawText(label, { x: x - bold.widthOfTextAtSize(label, size), y: headY, size, font: bold });
    }
    let y = LAYOUT.firstRowY;
    for (let i = p * perPage; i < Math.min(rows.length, (p + 1) * perPage); i++) {
      const r = rows[i]!;
      const credit = opts.creditOverride?.index === i ? opts.creditOverride.credit : r.credit;
      balance += credit - r.debit;
      const shown = opts.balanceOverride?.index === i ? opts.balanceOverride.balance : balance;
      page.drawText(r.date, { x: 40, y, size, font });
      page.drawText(r.narration, { x: 100, y, size, font });
      if (r.debit) right(fmt(r.debit), LAYOUT.debitRight, y);
      if (credit) right(fmt(credit), LAYOUT.creditRight, y);
      right(fmt(shown), LAYOUT.balanceRight, y);
      y -= LAYOUT.rowStep;
    }
    if (p === pages - 1) {
      y -= 8;
      page.drawText("Total", { x: 100, y, size, font: bold });
      right(fmt(debits), LAYOUT.debitRight, y);
      right(fmt(credits), LAYOUT.creditRight, y);
      page.drawText(`Closing Balance: ${fmt(OPENING + credits - debits)}`, { x: 40, y: y - 20, size, font });
    }
    page.drawText(`Page ${p + 1} of ${pages}`, { x: 500, y: 30, size: 7, font });
  }
  doc.setProducer(opts.producer ?? "Oduduwa Core Banking Statement Service");
  doc.setCreator("Oduduwa MFB");
  doc.setCreationDate(opts.creationDate ?? CREATED);
  doc.setModificationDate(opts.modificationDate ?? opts.creationDate ?? CREATED);
  return doc.save({ useObjectStreams: false });
}

/** y (pdf-lib, baseline) of row `index` on its page. */
export const rowY = (index: number) => LAYOUT.firstRowY - index * LAYOUT.rowStep;
