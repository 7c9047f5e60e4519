/**
 * Sections read together (src/engine/sections/combined.ts, split.ts): a summary box's label row is
 * not a table, a box printing "N--" balances opens an empty section, header totals that cover
 * every section are checked against their sum, and an auto-draw links two sections' breaks.
 */
import { describe, expect, test } from "bun:test";
import { assembleStatement } from "../../src/engine/assemble.ts";
import { type Piece, page, pdfDoc } from "./layout-helpers.ts";

type L = [number, ...Piece[]];
const head = (y: number): L => [y, [40, "Trans. Time"], [130, "Description"], { r: 420, t: "Debit/Credit(₦)" }, { r: 500, t: "Balance(₦)" }];
const row = (y: number, time: string, text: string, amount: string, balance: string): L => [y, [40, time], [130, text], { r: 420, t: amount }, { r: 500, t: balance }];
/** A summary box: a title, a row of labels (dates and balances, no movement) and their values. */
const summary = (y: number, title: string, opening: string, closing: string): L[] => [
  [y, [40, title]],
  [y + 14, [40, "Opening Balance"], [140, "Closing Balance"], [240, "Start Date"], [340, "End Date"]],
  [y + 24, [40, opening], [140, closing], [240, "01 May 2025"], [340, "31 May 2025"]],
];
const card = (debit: string, credit: string, debits: string, credits: string): L[] => [
  [20, [40, "Account Name"], [240, "Total Debit"], [340, "Total Credit"]],
  [30, [40, "ADA OKAFOR"], [240, debit], [340, credit]],
  [42, [240, "Debit Count"], [340, "Credit Count"]],
  [52, [240, debits], [340, credits]],
];

/** Wallet 0 -> 500.34 -> pays 520.34 (prints 0.00); OWealth 1,000.00 prints the same payment at 980.00. */
function autoDraw(walletDebit = "-520.34", owealthBalance = "980.00", cardFigures = card("1,040.68", "500.34", "2", "1")) {
  return pdfDoc(
    page(1, [
      ...cardFigures,
      ...summary(70, "Summary - Wallet Balance", "₦0.00", "₦0.00"),
      head(120),
      row(134, "2025 May 11 10:00:00", "Transfer from ADA", "+500.34", "500.34"),
      row(148, "2025 May 11 13:11:34", "Transfer to EMEKA", walletDebit, "0.00"),
      ...summary(200, "Summary - OWealth Balance", "₦1,000.00", `₦${owealthBalance}`),
      head(250),
      row(264, "2025 May 11 13:11:34", "Transfer to EMEKA", "-520.34", owealthBalance),
    ]),
  );
}

describe("sections read together", () => {
  test("an auto-draw: both sections reconcile through their link; the card's totals are the statement's", () => {
    const r = assembleStatement(autoDraw());
    expect(r.accounts.map((a) => [a.transactions.length, a.row_wise_reconcilable, a.checks.row_chain])).toEqual([
      [2, true, true],
      [1, true, true],
    ]);
    expect(r.accounts[0]!.checks.cross_section_links).toEqual([{ row: 1, other_section: 1, other_row: 0, amount: "20.00" }]);
    expect(r.accounts[1]!.checks.cross_section_links).toEqual([{ row: 0, other_section: 0, other_row: 1, amount: "500.34" }]);
    expect(r.checks).toMatchObject({ totals_match: true, count_match: true, statement_totals_match: true });
    // The printed numbers stand.
    expect(r.transactions[1]).toMatchObject({ debit: "520.34", balance: "0.00" });
  });

  test("a savings balance that falls by one kobo more than the shortfall: no link, both sections stay broken", () => {
    const r = assembleStatement(autoDraw("-520.34", "979.99"));
    expect(r.accounts.map((a) => [a.row_wise_reconcilable, a.checks.row_chain, a.checks.cross_section_links])).toEqual([
      [false, false, undefined],
      [false, false, undefined],
    ]);
  });

  test("card totals that agree neither with the first section nor with all sections stay a disagreement", () => {
    const r = assembleStatement(autoDraw(undefined, undefined, card("1,040.68", "900.00", "2", "1")));
    expect(r.checks.totals_match).toBe(false);
    expect(r.checks.statement_totals_match).toBeUndefined();
    expect(r.row_wise_reconcilable).toBe(false);
  });

  test("a summary box printing N-- and 'No transaction records' is an empty section, never a row", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          ...summary(70, "Summary - Wallet Balance", "₦0.00", "₦500.34"),
          head(120),
          row(134, "2025 May 11 10:00:00", "Transfer from ADA", "+500.34", "500.34"),
          ...summary(200, "Summary - OWealth Balance", "₦--", "₦--"),
          head(250),
          [270, [200, "No transaction records"]],
        ]),
      ),
    );
    expect(r.accounts.map((a) => a.transactions.length)).toEqual([1, 0]);
    // The summary's values line (amounts and dates) was not read as a row of the wallet.
    expect(r.transactions.map((t) => t.narration)).toEqual(["Transfer from ADA"]);
    expect(r.accounts[1]!.checks.assumed.length).toBeGreaterThan(0);
  });
});
