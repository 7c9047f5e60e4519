/**
 * A date printed once for a run of rows, centred beside them (src/engine/layout/centred-dates.ts):
 * a date cell merged down over the day's rows. The wild corpus has the same on real producers'
 * PDFs (itext-merged-day-cells, chromium-rowspan-day-cells); these pin the rule and its guard.
 */
import { describe, expect, test } from "bun:test";
import { assembleStatement } from "../../src/engine/assemble.ts";
import type { Piece } from "./layout-helpers.ts";
import { page, pdfDoc } from "./layout-helpers.ts";

const HEADINGS: [number, ...Piece[]] = [100, [20, "Date"], [90, "Narration"], [300, "Debit"], [370, "Credit"], [440, "Balance"]];
const FACTS: [number, ...Piece[]][] = [
  [40, [20, "Account Name: ADA OBI"]],
  [52, [20, "Account Number: 0123456789"]],
  [64, [20, "Opening Balance: 10,000.00"]],
];

/** A row: narration, debit or credit (kobo-free naira), balance after it. */
const row = (y: number, narration: string, debit: string, credit: string, balance: string, date?: string): [number, ...Piece[]] => [
  y,
  ...(date ? [[20, date] as Piece] : []),
  [90, narration],
  ...(debit ? [{ r: 340, t: debit } as Piece] : []),
  ...(credit ? [{ r: 410, t: credit } as Piece] : []),
  { r: 480, t: balance },
];

const datesOf = (lines: [number, ...Piece[]][]) => assembleStatement(pdfDoc(page(1, [...FACTS, HEADINGS, ...lines]))).transactions.map((t) => [t.narration, t.date.slice(0, 10)]);

describe("dates centred on their runs of rows", () => {
  test("each run's rows take the date centred beside them: between two rows, on a middle row, on a lone row", () => {
    expect(
      datesOf([
        // 02 Jan: two rows, the date between them (also above the table's first date: the first row).
        row(120, "TRANSFER FROM TUNDE", "", "5,000.00", "15,000.00"),
        [126, [20, "02 Jan 2026"]],
        row(132, "POS SPAR LEKKI", "1,000.00", "", "14,000.00"),
        // 03 Jan: one row, the date on its line.
        row(144, "AIRTIME MTN", "500.00", "", "13,500.00", "03 Jan 2026"),
        // 04 Jan: three rows, the date on the middle one.
        row(156, "TRANSFER TO ADA", "2,000.00", "", "11,500.00"),
        row(168, "DSTV PAYMENT", "1,500.00", "", "10,000.00", "04 Jan 2026"),
        row(180, "TRANSFER FROM BOLA", "", "3,000.00", "13,000.00"),
        // 05 Jan: two rows, the date between them.
        row(192, "POS SHOPRITE", "700.00", "", "12,300.00"),
        [198, [20, "05 Jan 2026"]],
        row(204, "SMS ALERT CHARGES", "300.00", "", "12,000.00"),
      ]),
    ).toEqual([
      ["TRANSFER FROM TUNDE", "2026-01-02"],
      ["POS SPAR LEKKI", "2026-01-02"],
      ["AIRTIME MTN", "2026-01-03"],
      ["TRANSFER TO ADA", "2026-01-04"],
      ["DSTV PAYMENT", "2026-01-04"],
      ["TRANSFER FROM BOLA", "2026-01-04"],
      ["POS SHOPRITE", "2026-01-05"],
      ["SMS ALERT CHARGES", "2026-01-05"],
    ]);
  });

  test("a run the page breaks cut takes its date on every page it reaches, a page with no date of its own included", () => {
    const pages = [
      page(1, [
        ...FACTS,
        HEADINGS,
        row(120, "TRANSFER FROM TUNDE", "", "5,000.00", "15,000.00"),
        [126, [20, "02 Jan 2026"]],
        row(132, "POS SPAR LEKKI", "1,000.00", "", "14,000.00"),
        // 03 Jan's run starts here, its date on the part of its cell this page holds.
        row(144, "AIRTIME MTN", "500.00", "", "13,500.00", "03 Jan 2026"),
        row(156, "TRANSFER TO ADA", "2,000.00", "", "11,500.00"),
      ]),
      page(2, [HEADINGS, row(120, "DSTV PAYMENT", "1,500.00", "", "10,000.00"), row(132, "TRANSFER FROM BOLA", "", "3,000.00", "13,000.00")]),
      page(3, [
        HEADINGS,
        row(120, "POS SHOPRITE", "700.00", "", "12,300.00"),
        // 04 Jan: two rows, the date between them.
        row(132, "SMS ALERT CHARGES", "300.00", "", "12,000.00"),
        [138, [20, "04 Jan 2026"]],
        row(144, "TRANSFER FROM KEMI", "", "1,000.00", "13,000.00"),
      ]),
    ];
    const r = assembleStatement(pdfDoc(...pages));
    expect(r.transactions.map((t) => [t.narration, t.date.slice(0, 10)])).toEqual([
      ["TRANSFER FROM TUNDE", "2026-01-02"],
      ["POS SPAR LEKKI", "2026-01-02"],
      ["AIRTIME MTN", "2026-01-03"],
      ["TRANSFER TO ADA", "2026-01-03"],
      ["DSTV PAYMENT", "2026-01-03"],
      ["TRANSFER FROM BOLA", "2026-01-03"],
      ["POS SHOPRITE", "2026-01-03"],
      ["SMS ALERT CHARGES", "2026-01-04"],
      ["TRANSFER FROM KEMI", "2026-01-04"],
    ]);
  });

  test("dates printed on the first row of their day keep heading the rows under them, though the rows would also fit runs centred on them", () => {
    expect(
      datesOf([
        row(120, "TRANSFER FROM TUNDE", "", "5,000.00", "15,000.00", "02 Jan 2026"),
        row(132, "POS SPAR LEKKI", "1,000.00", "", "14,000.00"),
        row(144, "AIRTIME MTN", "500.00", "", "13,500.00"),
        row(156, "TRANSFER TO ADA", "2,000.00", "", "11,500.00", "03 Jan 2026"),
        row(168, "DSTV PAYMENT", "1,500.00", "", "10,000.00"),
        row(180, "TRANSFER FROM BOLA", "", "3,000.00", "13,000.00"),
      ]),
    ).toEqual([
      ["TRANSFER FROM TUNDE", "2026-01-02"],
      ["POS SPAR LEKKI", "2026-01-02"],
      ["AIRTIME MTN", "2026-01-02"],
      ["TRANSFER TO ADA", "2026-01-03"],
      ["DSTV PAYMENT", "2026-01-03"],
      ["TRANSFER FROM BOLA", "2026-01-03"],
    ]);
  });

  test("a line of figures right under the headings that no date claims stays what it was: the table's opening line, no transaction", () => {
    // No opening balance in the header: the table's line of figures above its first row gives it.
    const r = assembleStatement(
      pdfDoc(page(1, [...FACTS.slice(0, 2), HEADINGS, row(120, "", "", "5,000.00", "15,000.00"), row(140, "POS SPAR LEKKI", "1,000.00", "", "14,000.00", "02 Jan 2026"), row(152, "AIRTIME MTN", "500.00", "", "13,500.00", "03 Jan 2026")])),
    );
    expect(r.transactions.map((t) => t.narration)).toEqual(["POS SPAR LEKKI", "AIRTIME MTN"]);
    expect([r.metadata.opening_balance, r.checks.opening_balance_source, r.row_wise_reconcilable]).toEqual(["15000.00", "statement", true]);
  });
});
