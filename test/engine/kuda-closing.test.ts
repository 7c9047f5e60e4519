/**
 * Class 4 of issue 24: Kuda's first page prints the whole customer's closing balance (Spend plus
 * Save pockets) before each pocket's own summary. A section's closing balance is the labelled figure
 * its rows end on; the first page's is reported in the notes, never used as the section's, and is
 * an assumption unless the sections' own figures add up to it.
 */
import { describe, expect, test } from "bun:test";
import { assembleStatement } from "../../src/engine/index.ts";
import { page, pdfDoc } from "./layout-helpers.ts";

type Row = [number, ...([number, string] | { r: number; t: string })[]];
const heading = (y: number): Row => [y, [28, "Date/Time"], { r: 200, t: "Money In" }, { r: 280, t: "Money Out" }, [300, "Description"], { r: 560, t: "Balance" }];

/** The whole-customer summary (Spend 11,500.00 + Save 20,000.00), then the Spend pocket's own. */
function kuda(spendClosing: string, wholeClosing = "₦31,500.00") {
  return pdfDoc(
    page(1, [
      [30, [28, "Statement of Account"]],
      [50, [28, "Account Holder"], [120, "ADA OBI"]],
      [62, [28, "Account Number"], [120, "2001234567"]],
      [74, [28, "Statement Period"], [120, "01/03/24 - 31/03/24"]],
      [50, [340, "Opening Balance"], { r: 560, t: "₦30,000.00" }],
      [62, [340, "Closing Balance"], { r: 560, t: wholeClosing }],
      [110, [28, "Spend Account"]],
      [122, [28, "Opening Balance"], { r: 200, t: "₦10,000.00" }],
      [134, [28, "Closing Balance"], { r: 200, t: spendClosing }],
      heading(160),
      [172, [28, "01/03/24 09:00:00"], { r: 200, t: "₦5,000.00" }, [300, "TRANSFER FROM OBI"], { r: 560, t: "₦15,000.00" }],
      [184, [28, "02/03/24 10:00:00"], { r: 280, t: "₦3,500.00" }, [300, "POS PURCHASE"], { r: 560, t: "₦11,500.00" }],
      [250, [28, "Save Account"]],
      [262, [28, "Account Number"], [120, "3001234567"]],
      [274, [28, "Opening Balance"], { r: 200, t: "₦20,000.00" }],
      [286, [28, "Closing Balance"], { r: 200, t: "₦20,000.00" }],
      heading(310),
      [322, [28, "05/03/24 09:00:00"], { r: 200, t: "₦1,000.00" }, [300, "AUTO SAVE"], { r: 560, t: "₦21,000.00" }],
      [334, [28, "06/03/24 10:00:00"], { r: 280, t: "₦1,000.00" }, [300, "WITHDRAWAL"], { r: 560, t: "₦20,000.00" }],
    ]),
  );
}

describe("a first page that sums every pocket", () => {
  test("the Spend section's closing balance is its own summary's, the one its rows end on", () => {
    const r = assembleStatement(kuda("₦11,500.00"));
    expect(r.accounts.length).toBe(2);
    expect(r.metadata.opening_balance).toBe("10000.00");
    expect(r.metadata.closing_balance).toBe("11500.00");
    expect(r.checks.closing_balance_match).toBe(true);
    expect(r.row_wise_reconcilable).toBe(true);
    expect(r.checks.notes.join(" ")).toContain("31500.00");
    expect(r.accounts[1]!.metadata.closing_balance).toBe("20000.00");
    // The first page's figures are the two sections' sums (30,000 = 10,000 + 20,000; 31,500 =
    // 11,500 + 20,000): printed figures that agree, so nothing is left assumed.
    expect(r.checks.notes.join(" ")).toContain("is the sum of the 2 sections' closing balances");
    expect(r.checks.assumed).toEqual([]);
    expect(r.checks.verdict).toBe("verified");
  });

  test("a first-page figure the sections do not add up to stays an assumption: partial", () => {
    const r = assembleStatement(kuda("₦11,500.00", "₦31,600.00"));
    expect(r.metadata.closing_balance).toBe("11500.00");
    expect(r.row_wise_reconcilable).toBe(true);
    expect(r.checks.assumed.join(" ")).toContain("31600.00");
    expect(r.checks.verdict).toBe("partial");
  });

  test("when no printed closing agrees with the rows, none is taken: the break is reported", () => {
    const r = assembleStatement(kuda("₦11,400.00"));
    expect(r.checks.closing_balance_match).toBe(false);
    expect(r.row_wise_reconcilable).toBe(false);
    expect(r.checks.verdict).toBe("unverified");
  });
});
