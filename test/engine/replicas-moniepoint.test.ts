/**
 * Class 2 of issue 24: Moniepoint's wide PDF (19 columns, ISO timestamps over four lines, rows
 * centred vertically and cut by page ends) and detailed XLSX. The replicas parse exactly against
 * their truth files, and each rule they needed holds on small synthetic pages with its negative case:
 * - the Settlement Debit/Credit are the movement; a Transaction Amount with figures of its own is not;
 *   an "Amount" group heading over Debit and Credit stays a group heading;
 * - a cell's lines come back top to bottom, a "/" that starts a wrapped line joins its token;
 * - the account number glued inside a reference stays as printed; standing alone it is masked.
 */
import { describe, expect, test } from "bun:test";
import JSZip from "jszip";
import { assembleStatement } from "../../src/engine/index.ts";
import { accountScrubber } from "../../src/engine/metadata/account-number.ts";
import { loadReplica, loadTruth, parseReplica, replicaDifferences } from "../helpers/replica-truth.ts";
import { page, pdfDoc, sheetDoc } from "./layout-helpers.ts";

describe("Moniepoint replicas parse exactly", () => {
  for (const name of ["moniepoint_business.pdf", "moniepoint_personal.pdf", "moniepoint_personal-detailed.xlsx"]) {
    test(name, async () => {
      const truth = loadTruth(name);
      const r = await parseReplica(name);
      expect(replicaDifferences(r, truth)).toEqual([]);
      expect(r.metadata.bank).toBe("moniepoint");
      expect(r.row_wise_reconcilable).toBe(true);
      expect(r.checks).toMatchObject({ row_chain: true, totals_match: true, closing_balance_match: true, opening_balance_source: "statement" });
      // Balance Before is printed on every row and the header prints opening, closing and totals: nothing assumed.
      expect(r.checks.verdict).toBe("verified");
      expect(r.checks.assumed).toEqual([]);
    });
  }
});

test("the detailed XLSX is read although its styles.xml says vertical=\"Top\" (not a value the schema allows)", async () => {
  const styles = await (await JSZip.loadAsync(loadReplica("moniepoint_personal-detailed.xlsx"))).file("xl/styles.xml")!.async("string");
  expect(styles).toContain('vertical="Top"');
  expect((await parseReplica("moniepoint_personal-detailed.xlsx")).transactions.length).toBe(loadTruth("moniepoint_personal-detailed.xlsx").sections[0]!.transactions.length);
});

type Row = [number, ...([number, string] | { r: number; t: string })[]];
const WIDE = 900;

describe("settlement columns beside a transaction amount", () => {
  const heading: Row = [100, [20, "Date"], [120, "Narration"], { r: 400, t: "Transaction Amount" }, { r: 500, t: "Settlement Debit" }, { r: 600, t: "Settlement Credit" }, { r: 680, t: "Charge" }, { r: 760, t: "Balance" }];
  const rows: Row[] = [
    [112, [20, "2025-09-01T06:21:09"], [120, "TRANSFER TO ADA"], { r: 400, t: "2,000.00" }, { r: 500, t: "2,010.00" }, { r: 600, t: "0.00" }, { r: 680, t: "10.00" }, { r: 760, t: "7,990.00" }],
    [124, [20, "2025-09-02T08:00:00"], [120, "TRANSFER FROM OBI"], { r: 400, t: "500.00" }, { r: 500, t: "0.00" }, { r: 600, t: "500.00" }, { r: 760, t: "8,490.00" }],
    [136, [20, "2025-09-03T09:00:00"], [120, "AIRTIME"], { r: 400, t: "100.00" }, { r: 500, t: "100.00" }, { r: 600, t: "0.00" }, { r: 760, t: "8,390.00" }],
  ];

  // The charge is printed on one row only, so the figures' groups (4) do not match the amount columns (5):
  // the settlement columns are still the movement because each side stands over figures of its own.
  test("the settlement debit (with the charge) is the movement, not the transaction amount", () => {
    const r = assembleStatement(pdfDoc(page(1, [[60, [20, "Opening Balance"], { r: 200, t: "10,000.00" }], heading, ...rows], WIDE)));
    expect(r.transactions.map((t) => [t.debit, t.credit])).toEqual([["2010.00", "0.00"], ["0.00", "500.00"], ["100.00", "0.00"]]);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("an 'Amount' group heading over Debit and Credit (no figures of its own) leaves the amounts where they are", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [90, [300, "Amount (NGN)"]],
          [100, [20, "Date"], [90, "Description"], { r: 340, t: "Debit" }, { r: 420, t: "Credit" }, { r: 520, t: "Balance" }],
          [112, [20, "01 May 2024"], [90, "POS PURCHASE"], { r: 340, t: "50.00" }, { r: 520, t: "950.00" }],
          [124, [20, "02 May 2024"], [90, "TRANSFER IN"], { r: 420, t: "200.00" }, { r: 520, t: "1,150.00" }],
          [136, [20, "03 May 2024"], [90, "SMS ALERT"], { r: 340, t: "4.00" }, { r: 520, t: "1,146.00" }],
        ]),
      ),
    );
    expect(r.transactions.map((t) => [t.debit, t.credit])).toEqual([["50.00", "0.00"], ["0.00", "200.00"], ["4.00", "0.00"]]);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("in a sheet, a Transaction Amount cell of its own beside the settlement cells is not the movement", () => {
    const r = assembleStatement(
      sheetDoc([
        ["Date", "Narration", "Transaction Amount (NGN)", "Settlement Debit (NGN)", "Settlement Credit (NGN)", "Balance Before (NGN)", "Balance After (NGN)"],
        ["2025-11-20T09:50:21", "TRANSFER TO EFOSA", "1200", "1210", "0", "34498.6", "33288.6"],
        ["2025-11-21T06:20:47", "Transfer from DAMILOLA", "5801", "0", "5801", "33288.6", "39089.6"],
      ]),
    );
    expect(r.transactions.map((t) => [t.debit, t.credit])).toEqual([["1210.00", "0.00"], ["0.00", "5801.00"]]);
    expect(r.checks.verdict).toBe("verified");
  });
});

describe("a vertically centred row: the cell's lines top to bottom", () => {
  // The date is the row's top line; the narration's first line lies between it and the amount line.
  const doc = () =>
    pdfDoc(
      page(1, [
        [100, [20, "Date"], [130, "Narration"], { r: 400, t: "Debit" }, { r: 460, t: "Credit" }, { r: 540, t: "Balance" }],
        [130, [20, "2025-09-01"]],
        [137, [130, "TRANSFER TO ZION BUILDING"]],
        [150, [130, "MATERIALS OPay *****13837"], { r: 400, t: "2,010.00" }, { r: 460, t: "0.00" }, { r: 540, t: "7,990.00" }],
        [163, [130, "/TRF|2MPT2kkku|1976305972685"]],
        [230, [20, "2025-09-02"]],
        [237, [130, "AIRTIME TO 08123028995"]],
        [250, [130, "AIRTEL"], { r: 400, t: "100.00" }, { r: 460, t: "0.00" }, { r: 540, t: "7,890.00" }],
        [263, [130, "/ATP|2MPTP9dDI|19791053937"]],
        [330, [20, "2025-09-03"]],
        [337, [130, "Transfer from ADA"]],
        [350, [130, "OBI"], { r: 400, t: "0.00" }, { r: 460, t: "500.00" }, { r: 540, t: "8,390.00" }],
        [363, [130, "SALARY"]],
      ]),
    );

  test("pieces above the amount line come first; a wrapped '/' part joins its token", () => {
    const r = assembleStatement(doc());
    expect(r.transactions.map((t) => t.narration)).toEqual([
      "TRANSFER TO ZION BUILDING MATERIALS OPay *****13837/TRF|2MPT2kkku|1976305972685",
      "AIRTIME TO 08123028995 AIRTEL/ATP|2MPTP9dDI|19791053937",
      "Transfer from ADA OBI SALARY",
    ]);
  });
});

describe("the account number inside a reference", () => {
  const scrub = accountScrubber("5453935048");
  test("glued into a longer identifier it stays as printed", () => {
    expect(scrub("MCJS|INTR|PB_SAV_ACCT_INTEREST|2025-08|5453935048_CREDIT_1", "reference")).toBe("MCJS|INTR|PB_SAV_ACCT_INTEREST|2025-08|5453935048_CREDIT_1");
  });
  test("standing alone in a reference, and anywhere in a narration, it is masked", () => {
    expect(scrub("5453935048", "reference")).toBe("******5048");
    expect(scrub("TRF 5453935048 OUT", "reference")).toBe("TRF ******5048 OUT");
    expect(scrub("INTEREST|5453935048_CREDIT")).toBe("INTEREST|******5048_CREDIT");
  });
});
