/**
 * Class 5 of issue 24: GTBank's customer statement prints an "Originating Branch" column right
 * before "Remarks", so close that each row's branch and narration come out as one run of text
 * ("E-CHANNELS SALARY ..."). A column that is neither narration, reference, date nor amount stays
 * out of the narration: the runs are parted where the narration column's words start on every row.
 * (Words of templated narrations that line up on a short page are not taken for an edge: the wild
 * corpus's signed-amount-centred-pdfkit, whose last page has four rows, holds that.)
 */
import { describe, expect, test } from "bun:test";
import { assembleStatement } from "../../src/engine/index.ts";
import { page, pdfDoc } from "./layout-helpers.ts";

type Piece = [number, string] | { r: number; t: string };
type Row = [number, ...Piece[]];

// "Originating Branch" is wider than the branch values under it: the remarks start under its end.
const heading: Row = [100, [20, "Trans. Date"], [80, "Value Date"], [140, "Reference"], { r: 300, t: "Debits" }, { r: 370, t: "Credits" }, { r: 450, t: "Balance" }, [462, "Originating Branch"], [550, "Remarks"]];
const branch = "E-CHANNELS";
// Branch at 462 (ends 506), remarks at 509: closer than a word gap, so each row is one run.
const row = (y: number, date: string, ref: string, amount: Row[1], balance: string, remarks: string, where = branch): Row => [y, [20, date], [80, date], [140, ref], amount, { r: 450, t: balance }, [462, where], [462 + where.length * 4.4 + 3, remarks]];
const rows: Row[] = [
  row(112, "02-Jan-2025", "FT2500211", { r: 300, t: "1,000.00" }, "9,000.00", "AIRTIME MTN 08031234567"),
  row(124, "03-Jan-2025", "FT2500311", { r: 370, t: "5,000.00" }, "14,000.00", "SALARY JAN 2025 ACME LTD"),
  row(136, "04-Jan-2025", "FT2500411", { r: 300, t: "50.00" }, "13,950.00", "SMS ALERT CHARGES"),
  row(148, "05-Jan-2025", "FT2500511", { r: 300, t: "2,000.00" }, "11,950.00", "POS PURCHASE SHOPRITE"),
  row(160, "06-Jan-2025", "FT2500611", { r: 370, t: "3,000.00" }, "14,950.00", "TRANSFER FROM OBI"),
  row(172, "07-Jan-2025", "FT2500711", { r: 300, t: "950.00" }, "14,000.00", "DSTV SUBSCRIPTION"),
];
const narrations = ["AIRTIME MTN 08031234567", "SALARY JAN 2025 ACME LTD", "SMS ALERT CHARGES", "POS PURCHASE SHOPRITE", "TRANSFER FROM OBI", "DSTV SUBSCRIPTION"];

describe("a column glued to the narration", () => {
  test("the branch stays out of every narration", () => {
    const r = assembleStatement(pdfDoc(page(1, [[60, [20, "CUSTOMER STATEMENT"]], [72, [20, "Opening Balance"], { r: 200, t: "10,000.00" }], heading, ...rows], 800)));
    expect(r.metadata.bank).toBe("gtbank");
    expect(r.transactions.map((t) => t.narration)).toEqual(narrations);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("words of free text that do not line up are never taken for a column edge", () => {
    // Remarks printed apart from the branch (no glue), with varied wording: nothing moves.
    const apart = rows.map((x): Row => [x[0], ...(x.slice(1, 7) as Piece[]), [560, (x[7] as [number, string])[1]]]);
    const r = assembleStatement(pdfDoc(page(1, [[72, [20, "Opening Balance"], { r: 200, t: "10,000.00" }], heading, ...apart], 800)));
    expect(r.transactions.map((t) => t.narration)).toEqual(narrations);
  });

  test("second words that line up inside one column (NIP TRANSFER, POS PURCHASE) are not the next column's edge", () => {
    // Narration then Reference, a few long narrations running into the reference as one run.
    const head: Row = [100, [20, "Date"], [80, "Narration"], [300, "Reference"], { r: 420, t: "Debit" }, { r: 480, t: "Credit" }, { r: 560, t: "Balance" }];
    const texts = ["NIP TRANSFER TO ADA OBI", "POS PURCHASE SHOPRITE LEKKI", "NIP TRANSFER FROM BOLA ADE VIA ACCESS BANK REF 1234567", "POS PURCHASE SPAR", "NIP TRANSFER TO MUSA ALI", "NIP TRANSFER FROM KEMI OKAFOR VIA GTBANK REF 7654321"];
    let balance = 10_000;
    const lines: Row[] = texts.map((text, i) => {
      balance -= 100;
      // A long narration ends right where its reference begins: one run of text.
      const glued = text.length > 40;
      const ref: Piece = glued ? [80 + text.length * 4.4 + 2, `FT00${i}`] : [300, `FT00${i}`];
      return [112 + i * 12, [20, `0${i + 1}/02/2025`], [80, text], ref, { r: 420, t: "100.00" }, { r: 560, t: `${balance.toLocaleString("en-US")}.00` }];
    });
    const r = assembleStatement(pdfDoc(page(1, [[72, [20, "Opening Balance"], { r: 200, t: "10,000.00" }], head, ...lines], 800)));
    expect(r.transactions.map((t) => t.narration)).toEqual(texts);
    expect(r.transactions.map((t) => t.reference)).toEqual(texts.map((_, i) => `FT00${i}`));
  });
});
