import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractPdfPages, inspectDocument, parseStatement } from "../../src/engine/index.ts";
import type { Progress } from "../../src/engine/types.ts";
import { buildImageOnlyPdf, buildPdf, type Put, type SyntheticPage } from "./synthetic-pdf.ts";
import { rejection } from "../helpers/errors.ts";

const data = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, "data", name)));

describe("synthetic PDFs through pdfjs", () => {
  test("multi-page, repeated headers, wrapped narrations, NGN signs, DR/CR column, page footers", async () => {
    const header = (top: number) => ({
      top,
      puts: [{ x: 30, t: "Posting Date" }, { x: 110, t: "Transaction Details" }, { r: 390, t: "Amount" }, { x: 400, t: "Dr/Cr" }, { r: 560, t: "Balance" }] as Put[],
    });
    const rowsPerPage = 30;
    let balance = 100_000_00;
    const pages: SyntheticPage[] = [];
    const expected: { narration: string; debit: string; credit: string; balance: string }[] = [];
    let n = 0;
    for (let p = 0; p < 3; p++) {
      const lines: SyntheticPage["lines"] = [];
      if (p === 0) {
        lines.push({ top: 40, puts: [{ x: 30, t: "Keystone Bank" }] });
        lines.push({ top: 60, puts: [{ x: 30, t: "Account Name:" }, { x: 120, t: "CHIDI EZE" }] });
        lines.push({ top: 72, puts: [{ x: 30, t: "Account Number:" }, { x: 120, t: "1029384756" }] });
        lines.push({ top: 84, puts: [{ x: 30, t: "Opening Balance:" }, { x: 120, t: "NGN 100,000.00" }] });
      }
      let top = 110;
      lines.push(header(top));
      top += 14;
      for (let i = 0; i < rowsPerPage; i++, n++) {
        const isDebit = n % 3 !== 0;
        const amount = 1_000_00 + n * 137;
        balance += isDebit ? -amount : amount;
        const money = (k: number) => `NGN ${(k / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
        const day = String(1 + Math.floor(n / 4)).padStart(2, "0");
        const wrapped = n % 5 === 0;
        lines.push({ top, puts: [{ x: 30, t: `${day}-Jan-2024` }, { x: 110, t: wrapped ? "NIP TRANSFER TO ADA" : `POS ${n}` }, { r: 390, t: money(amount) }, { x: 400, t: isDebit ? "DR" : "CR" }, { r: 560, t: money(balance) }] });
        top += 11;
        if (wrapped) {
          lines.push({ top, puts: [{ x: 110, t: "OKAFOR GTBANK" }] });
          top += 11;
        }
        top += 4;
        expected.push({
          narration: wrapped ? "NIP TRANSFER TO ADA OKAFOR GTBANK" : `POS ${n}`,
          debit: isDebit ? (amount / 100).toFixed(2) : "0.00",
          credit: isDebit ? "0.00" : (amount / 100).toFixed(2),
          balance: (balance / 100).toFixed(2),
        });
      }
      lines.push({ top: 810, puts: [{ x: 260, t: `Page ${p + 1} of 3` }] });
      pages.push({ lines });
    }
    const progress: Progress[] = [];
    const r = await parseStatement(await buildPdf(pages), { onProgress: (p) => progress.push(p) });
    expect(r.transactions.map(({ narration, debit, credit, balance }) => ({ narration, debit, credit, balance }))).toEqual(expected);
    expect(r.metadata).toMatchObject({ bank: "keystone", account_holder: "CHIDI EZE", account_number_masked: "******4756", opening_balance: "100000.00" });
    expect(r.row_wise_reconcilable).toBe(true);
    expect(progress.filter((p) => p.stage === "extract")).toEqual([1, 2, 3].map((current) => ({ stage: "extract", current, total: 3 })));
  });

  test("a two-line header, value date before the date, no narration column", async () => {
    const bytes = await buildPdf([
      {
        lines: [
          { top: 100, puts: [{ x: 30, t: "Value" }, { x: 100, t: "Trans." }, { x: 170, t: "Cheque" }, { r: 330, t: "Withdrawals" }, { r: 420, t: "Lodgements" }, { r: 520, t: "Balance" }] },
          { top: 110, puts: [{ x: 30, t: "Date" }, { x: 100, t: "Date" }, { x: 170, t: "No" }] },
          { top: 126, puts: [{ x: 30, t: "04/03/2024" }, { x: 100, t: "03/03/2024" }, { x: 170, t: "000123" }, { r: 330, t: "2,500.00" }, { r: 520, t: "7,500.00" }] },
          { top: 140, puts: [{ x: 30, t: "15/03/2024" }, { x: 100, t: "14/03/2024" }, { r: 420, t: "1,000.00" }, { r: 520, t: "8,500.00" }] },
        ],
      },
    ]);
    const r = await parseStatement(bytes, {});
    expect(r.transactions.map((t) => [t.date, t.reference, t.debit, t.credit, t.balance])).toEqual([
      ["2024-03-03T00:00:00+01:00", "000123", "2500.00", "0.00", "7500.00"],
      ["2024-03-14T00:00:00+01:00", "", "0.00", "1000.00", "8500.00"],
    ]);
    expect(r.metadata.opening_balance).toBe("10000.00");
    expect(r.metadata.bank).toBe("unknown");
  });

  test("a diagonal watermark across the table is ignored", async () => {
    const bytes = await buildPdf([
      {
        lines: [
          { top: 100, puts: [{ x: 30, t: "Date" }, { x: 110, t: "Description" }, { r: 400, t: "Debit" }, { r: 470, t: "Credit" }, { r: 550, t: "Balance" }] },
          { top: 114, puts: [{ x: 30, t: "01/02/2024" }, { x: 110, t: "SMS ALERT" }, { r: 400, t: "4.00" }, { r: 550, t: "996.00" }] },
          { top: 126, puts: [{ x: 30, t: "02/02/2024" }, { x: 110, t: "POS PURCHASE" }, { r: 400, t: "96.00" }, { r: 550, t: "900.00" }] },
          { top: 138, puts: [{ x: 30, t: "03/02/2024" }, { x: 110, t: "REFUND" }, { r: 470, t: "100.00" }, { r: 550, t: "1,000.00" }] },
          { top: 100, puts: [{ x: 115, t: "CUSTOMER COPY", size: 44, rotate: 35 }] },
        ],
      },
    ]);
    const r = await parseStatement(bytes, {});
    expect(r.transactions.map((t) => [t.narration, t.debit, t.credit, t.balance])).toEqual([
      ["SMS ALERT", "4.00", "0.00", "996.00"],
      ["POS PURCHASE", "96.00", "0.00", "900.00"],
      ["REFUND", "0.00", "100.00", "1000.00"],
    ]);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("a PDF without any text is scanned_document", async () => {
    const e = await rejection(parseStatement(await buildImageOnlyPdf(), {}));
    expect(e.errorClass).toBe("scanned_document");
  });

  test("text but no statement table is layout_unrecognized", async () => {
    const bytes = await buildPdf([{ lines: [{ top: 100, puts: [{ x: 30, t: "Dear customer, your account is ready." }] }] }]);
    const e = await rejection(parseStatement(bytes, {}));
    expect(e.errorClass).toBe("layout_unrecognized");
  });
});

describe("encrypted PDFs", () => {
  const rows = (r: Awaited<ReturnType<typeof parseStatement>>) => r.transactions.map((t) => [t.narration, t.debit, t.credit, t.balance]);
  const want = [
    ["SALARY", "0.00", "10000.00", "10000.00"],
    ["AIRTIME", "500.00", "0.00", "9500.00"],
  ];
  test("owner-only encryption (empty user password) parses normally", async () => {
    expect(rows(await parseStatement(data("owner-only.pdf"), {}))).toEqual(want);
  });
  test("a user password opens it; none or a wrong one is encrypted_source saying which", async () => {
    expect(rows(await parseStatement(data("user-password.pdf"), { password: "user-secret" }))).toEqual(want);
    expect((await rejection(parseStatement(data("user-password.pdf"), {}))).message).toMatch(/needs a password/);
    const wrong = await rejection(parseStatement(data("user-password.pdf"), { password: "guess" }));
    expect(wrong.errorClass).toBe("encrypted_source");
    expect(wrong.message).toMatch(/wrong/);
  });
});

describe("inspectDocument and extractPdfPages", () => {
  test("page count, producer, and too_many_pages", async () => {
    const bytes = await buildPdf([{ lines: [] }, { lines: [] }, { lines: [] }], { producer: "Acme Writer" });
    const info = await inspectDocument(bytes, {});
    expect(info).toMatchObject({ kind: "pdf", pageCount: 3 });
    // Producer, then Creator (pdf-lib sets itself as the creator).
    expect(info.producer).toStartWith("Acme Writer / pdf-lib");
    const e = await rejection(inspectDocument(bytes, { maxPages: 2 }));
    expect(e.errorClass).toBe("too_many_pages");
  });
  test("a page range with per-page callbacks and top-left coordinates", async () => {
    const bytes = await buildPdf([{ lines: [{ top: 100, puts: [{ x: 50, t: "one" }] }] }, { lines: [{ top: 200, puts: [{ x: 60, t: "two" }] }] }, { lines: [] }]);
    const seen: number[] = [];
    const pages = await extractPdfPages(bytes, { first: 2, last: 3, onPage: (n) => seen.push(n) });
    expect(seen).toEqual([2, 3]);
    expect(pages.map((p) => p.number)).toEqual([2, 3]);
    const item = pages[0]!.items[0]!;
    expect(item.str).toBe("two");
    expect(item.x).toBeCloseTo(60, 0);
    // Top of the glyph box: baseline (200 + 0.8 em) minus the 8 pt size.
    expect(item.y).toBeCloseTo(200 + 6.4 - 8, 0);
  });
  test("a spreadsheet is a sheet document", async () => {
    const info = await inspectDocument(new Uint8Array(readFileSync(join(import.meta.dir, "../../fixtures/real/opay.xlsx"))), {});
    expect(info.kind).toBe("sheet");
  });
});
