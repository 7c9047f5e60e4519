/**
 * Tables keyed by time (src/engine/layout/day-headings.ts): rows print a time and no date, each
 * day's date heads its rows on a line of its own, as app histories group a day's transactions.
 * The wild corpus has the same on real producers' PDFs (itext-day-group-headings,
 * chromium-day-headings-12h-time); these pin each rule on its own.
 */
import { describe, expect, test } from "bun:test";
import { assembleStatement } from "../../src/engine/assemble.ts";
import type { Piece } from "./layout-helpers.ts";
import { page, pdfDoc } from "./layout-helpers.ts";

const HEADINGS: [number, ...Piece[]] = [100, [20, "Time"], [90, "Description"], [330, "Amount"], [430, "Balance"]];
const FACTS: [number, ...Piece[]][] = [
  [40, [20, "Account Name: ADA OBI"]],
  [52, [20, "Account Number: 0123456789"]],
  [64, [20, "Opening Balance: 10,000.00"]],
];
const brief = (r: ReturnType<typeof assembleStatement>) => r.transactions.map((t) => [t.date, t.narration, t.debit, t.credit, t.balance]);

describe("a table keyed by time, its days on heading lines", () => {
  test("each row takes the date of the heading above it, across a page break, and no heading is a row's text", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          ...FACTS,
          HEADINGS,
          [118, [20, "Friday, 02 Jan 2026"]],
          [132, [20, "09:15:02"], [90, "TRANSFER FROM TUNDE BAKARE"], { r: 380, t: "+5,000.00" }, { r: 480, t: "15,000.00" }],
          [146, [20, "17:40:10"], [90, "POS PURCHASE SPAR LEKKI"], { r: 380, t: "-1,200.00" }, { r: 480, t: "13,800.00" }],
          [160, [20, "Saturday, 03 Jan 2026"]],
          [174, [20, "08:01:00"], [90, "AIRTIME MTN"], { r: 380, t: "-500.00" }, { r: 480, t: "13,300.00" }],
        ]),
        page(2, [HEADINGS, [118, [20, "11:20:45"], [90, "TRANSFER TO ADA OBI"], { r: 380, t: "-2,000.00" }, { r: 480, t: "11,300.00" }], [132, [20, "Monday, 05 Jan 2026"]], [146, [20, "10:00:00"], [90, "SALARY JAN"], { r: 380, t: "+50,000.00" }, { r: 480, t: "61,300.00" }]]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2026-01-02T09:15:02+01:00", "TRANSFER FROM TUNDE BAKARE", "0.00", "5000.00", "15000.00"],
      ["2026-01-02T17:40:10+01:00", "POS PURCHASE SPAR LEKKI", "1200.00", "0.00", "13800.00"],
      ["2026-01-03T08:01:00+01:00", "AIRTIME MTN", "500.00", "0.00", "13300.00"],
      // Page 2 starts with the day of the last heading on page 1.
      ["2026-01-03T11:20:45+01:00", "TRANSFER TO ADA OBI", "2000.00", "0.00", "11300.00"],
      ["2026-01-05T10:00:00+01:00", "SALARY JAN", "0.00", "50000.00", "61300.00"],
    ]);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("a heading with the day's totals beside it is still the day's heading, its figures no row", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          ...FACTS,
          HEADINGS,
          [118, [20, "Friday, 02 Jan 2026"], { r: 380, t: "+3,800.00" }],
          [132, [20, "09:15:02"], [90, "TRANSFER FROM TUNDE BAKARE"], { r: 380, t: "+5,000.00" }, { r: 480, t: "15,000.00" }],
          [146, [20, "17:40:10"], [90, "POS PURCHASE SPAR LEKKI"], { r: 380, t: "-1,200.00" }, { r: 480, t: "13,800.00" }],
          [160, [20, "Saturday, 03 Jan 2026"], { r: 380, t: "-500.00" }],
          [174, [20, "08:01:00"], [90, "AIRTIME MTN"], { r: 380, t: "-500.00" }, { r: 480, t: "13,300.00" }],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2026-01-02T09:15:02+01:00", "TRANSFER FROM TUNDE BAKARE", "0.00", "5000.00", "15000.00"],
      ["2026-01-02T17:40:10+01:00", "POS PURCHASE SPAR LEKKI", "1200.00", "0.00", "13800.00"],
      ["2026-01-03T08:01:00+01:00", "AIRTIME MTN", "500.00", "0.00", "13300.00"],
    ]);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("a 12-hour time wrapped in its narrow cell keeps its meridiem, and a plus sign wrapped above the figure signs it", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          ...FACTS,
          HEADINGS,
          [118, [20, "Monday, January 5, 2026"]],
          // The time and the amount each wrapped to two lines, the narration and balance centred between.
          [132, [20, "10:05"], { r: 345, t: "+" }],
          [139, [90, "TRANSFER FROM CHIOMA EZE"], { r: 480, t: "15,000.00" }],
          [146, [20, "PM"], { r: 380, t: "5,000.00" }],
          [160, [20, "11:40 PM"], [90, "POS PURCHASE SPAR"], { r: 380, t: "-1,000.00" }, { r: 480, t: "14,000.00" }],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2026-01-05T22:05:00+01:00", "TRANSFER FROM CHIOMA EZE", "0.00", "5000.00", "15000.00"],
      ["2026-01-05T23:40:00+01:00", "POS PURCHASE SPAR", "1000.00", "0.00", "14000.00"],
    ]);
  });

  test("a heading without its year takes it from the statement period, and its rows keep their times", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          ...FACTS,
          [76, [20, "Period: 01 Dec 2025 to 31 Jan 2026"]],
          HEADINGS,
          [118, [20, "Wed, 31 Dec"]],
          [132, [20, "21:15:02"], [90, "TRANSFER FROM TUNDE BAKARE"], { r: 380, t: "+5,000.00" }, { r: 480, t: "15,000.00" }],
          [146, [20, "Thu, 01 Jan"]],
          [160, [20, "08:01:00"], [90, "AIRTIME MTN"], { r: 380, t: "-500.00" }, { r: 480, t: "14,500.00" }],
        ]),
      ),
    );
    expect(r.transactions.map((t) => t.date)).toEqual(["2025-12-31T21:15:02+01:00", "2026-01-01T08:01:00+01:00"]);
  });

  test("rows printed before any day heading are not given a date", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          ...FACTS,
          HEADINGS,
          [118, [20, "09:15:02"], [90, "TRANSFER FROM TUNDE BAKARE"], { r: 380, t: "+5,000.00" }, { r: 480, t: "15,000.00" }],
          [132, [20, "Friday, 02 Jan 2026"]],
          [146, [20, "17:40:10"], [90, "POS PURCHASE SPAR LEKKI"], { r: 380, t: "-1,200.00" }, { r: 480, t: "13,800.00" }],
        ]),
      ),
    );
    // The undated row is no transaction: only the headed one is, and nothing says the table chains from 10,000.00.
    expect(brief(r)).toEqual([["2026-01-02T17:40:10+01:00", "POS PURCHASE SPAR LEKKI", "1200.00", "0.00", "13800.00"]]);
    expect(r.row_wise_reconcilable).toBe(false);
  });

  test("in a table with a date column, a date alone on a line is not a heading: every row keeps its own date", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          ...FACTS,
          [100, [20, "Date"], [80, "Time"], [140, "Description"], [330, "Amount"], [430, "Balance"]],
          [118, [20, "02/01/2026"], [80, "09:15"], [140, "TRANSFER FROM TUNDE BAKARE"], { r: 380, t: "+5,000.00" }, { r: 480, t: "15,000.00" }],
          [132, [20, "Friday, 09 Jan 2026"]],
          [146, [20, "04/01/2026"], [80, "17:40"], [140, "POS PURCHASE SPAR LEKKI"], { r: 380, t: "-1,200.00" }, { r: 480, t: "13,800.00" }],
        ]),
      ),
    );
    expect(r.transactions.map((t) => t.date)).toEqual(["2026-01-02T09:15:00+01:00", "2026-01-04T17:40:00+01:00"]);
  });
});
