/**
 * Layout and metadata cases found with the producer corpus (test/engine/producers/), pinned
 * with small synthetic pages so each rule is tested on its own.
 */
import { describe, expect, test } from "bun:test";
import { assembleStatement } from "../../src/engine/assemble.ts";
import { pageLines } from "../../src/engine/layout/lines.ts";
import { stitchBrokenDates } from "../../src/engine/layout/stitch.ts";
import { extractHeaderFacts } from "../../src/engine/metadata/index.ts";
import { type PrintedFigures, reconcile } from "../../src/engine/reconcile.ts";
import { page, pdfDoc } from "./layout-helpers.ts";

const none: PrintedFigures = { opening: null, closing: null, totalDebit: null, totalCredit: null, debitCount: null, creditCount: null, creditTotalMayIncludeOpening: false };

describe("dates broken mid-number", () => {
  test("a word processor's wrap (`01/10/202` over `4`) is put back on the first line", () => {
    const lines = stitchBrokenDates(pageLines(page(1, [[100, [40, "01/10/202"]], [105, [90, "COT CHARGES"], { r: 400, t: "50.00" }], [110, [40, "4"]]])));
    expect(lines[0]!.cells.map((c) => [c.kind, c.text])).toEqual([["date", "01/10/2024"]]);
    expect(lines[2]!.cells).toEqual([]);
    expect(lines[0]!.bottom).toBe(lines[2]!.y);
  });

  test("a four-digit year cut after its century (`02/01/20` over `26`) is joined, though the head reads as a date", () => {
    const lines = stitchBrokenDates(pageLines(page(1, [[100, [40, "02/01/20"], [90, "TRANSFER TO ADA"], { r: 400, t: "50.00" }], [110, [40, "26"], [90, "OKAFOR"]], [120, [40, "20:12:02"]]])));
    // The time under the year is the row's time, joined with a space.
    expect(lines[0]!.cells[0]).toMatchObject({ kind: "date", text: "02/01/2026 20:12:02" });
    expect(lines[1]!.cells.map((c) => c.text)).toEqual(["OKAFOR"]);
  });

  test("a two-digit-year date over a time, text or a longer number is left as it is", () => {
    const lines = stitchBrokenDates(pageLines(page(1, [[100, [40, "02/01/20"]], [110, [40, "20:12:02"]], [130, [40, "03/01/20"]], [140, [40, "SMS"]], [160, [40, "04/01/20"]], [170, [40, "2026"]]])));
    expect(lines.map((l) => l.text)).toEqual(["02/01/20", "20:12:02", "03/01/20", "SMS", "04/01/20", "2026"]);
  });

  test("a month-first date wrapped after its month (`Jan` over `03,` over `2026`) is joined; a month name over text is not", () => {
    const lines = stitchBrokenDates(pageLines(page(1, [[100, [40, "Jan"], [90, "POS PURCHASE"]], [110, [40, "03,"], [90, "SHOPRITE"], { r: 400, t: "50.00" }], [120, [40, "2026"]], [140, [40, "May"]], [150, [40, "SALARY"]]])));
    expect(lines[0]!.cells[0]).toMatchObject({ kind: "date", text: "Jan 03, 2026" });
    expect(lines[1]!.cells.map((c) => c.text)).toEqual(["SHOPRITE", "50.00"]);
    expect(lines.slice(3).map((l) => l.text)).toEqual(["May", "SALARY"]);
    // Only a month's name heads such a date, not a word that starts like one.
    const words = stitchBrokenDates(pageLines(page(1, [[100, [40, "Decline"]], [110, [40, "03,"]], [120, [40, "2026"]], [140, [40, "Sept."]], [150, [40, "4,"]], [160, [40, "2026"]]])));
    expect(words.map((l) => l.text)).toEqual(["Decline", "03,", "2026", "Sept. 4, 2026", "", ""]);
  });

  test("a piece at another x, or text that makes no date, is left alone", () => {
    const lines = stitchBrokenDates(pageLines(page(1, [[100, [40, "01/10/202"]], [110, [90, "4"]], [120, [40, "12"]], [130, [40, "MONTHS"]]])));
    expect(lines.map((l) => l.text)).toEqual(["01/10/202", "4", "12", "MONTHS"]);
  });

  test("a statement whose every date is broken and whose amounts sit between the halves parses", () => {
    const rows: [number, ...([number, string] | { r: number; t: string })[]][] = [[80, [40, "Date"], [90, "Narration"], { r: 400, t: "Debit" }, { r: 470, t: "Credit" }, { r: 540, t: "Balance" }]];
    let y = 100;
    const data: [string, string, string, string, string][] = [
      ["02/01/202", "OPENING TRANSFER", "", "1,000.00", "1,000.00"],
      ["03/01/202", "POS PURCHASE", "200.00", "", "800.00"],
      ["05/01/202", "AIRTIME", "50.00", "", "750.00"],
    ];
    for (const [d, n, dr, cr, bal] of data) {
      rows.push([y, [40, d]]);
      rows.push([y + 5, [90, n], ...(dr ? [{ r: 400, t: dr }] : []), ...(cr ? [{ r: 470, t: cr }] : []), { r: 540, t: bal }]);
      rows.push([y + 10, [40, "4"]]);
      y += 30;
    }
    const out = assembleStatement(pdfDoc(page(1, rows)));
    expect(out.transactions.map((t) => [t.date.slice(0, 10), t.narration, t.debit, t.credit, t.balance])).toEqual([
      ["2024-01-02", "OPENING TRANSFER", "0.00", "1000.00", "1000.00"],
      ["2024-01-03", "POS PURCHASE", "200.00", "0.00", "800.00"],
      ["2024-01-05", "AIRTIME", "50.00", "0.00", "750.00"],
    ]);
  });
});

describe("amounts printed above their date", () => {
  test("a bottom-aligned date cell under a wrapped narration dates the amounts above it", () => {
    const out = assembleStatement(
      pdfDoc(
        page(1, [
          [80, [40, "Date"], [110, "Narration"], { r: 400, t: "Debit" }, { r: 470, t: "Credit" }, { r: 540, t: "Balance" }],
          [100, [40, "02/01/2024"], [110, "OPENING"], { r: 470, t: "1,000.00" }, { r: 540, t: "1,000.00" }],
          [120, [110, "POS PURCHASE AT"], { r: 400, t: "200.00" }, { r: 540, t: "800.00" }],
          [130, [110, "SHOPRITE"]],
          [140, [40, "03/01/2024"], [110, "LEKKI"]],
          [160, [110, "TRANSFER TO"], { r: 400, t: "50.00" }, { r: 540, t: "750.00" }],
          [170, [40, "05/01/2024"], [110, "ADA"]],
        ]),
      ),
    );
    expect(out.transactions.map((t) => [t.date.slice(0, 10), t.narration, t.debit, t.balance])).toEqual([
      ["2024-01-02", "OPENING", "0.00", "1000.00"],
      ["2024-01-03", "POS PURCHASE AT SHOPRITE LEKKI", "200.00", "800.00"],
      ["2024-01-05", "TRANSFER TO ADA", "50.00", "750.00"],
    ]);
    expect(out.row_wise_reconcilable).toBe(true);
  });
});

describe("table headers", () => {
  test("a one-line label centred between two-line labels makes a three-line header", () => {
    const out = assembleStatement(
      pdfDoc(
        page(1, [
          [80, [40, "Posting"], { r: 470, t: "Amount" }, { r: 540, t: "Balance" }],
          [85, [110, "Narration"]],
          [90, [40, "Date"], { r: 470, t: "(NGN)" }, { r: 540, t: "(NGN)" }],
          [110, [40, "02/01/2024"], [110, "SALARY"], { r: 470, t: "1,000.00" }, { r: 540, t: "1,000.00" }],
          [125, [40, "03/01/2024"], [110, "POS"], { r: 470, t: "-200.00" }, { r: 540, t: "800.00" }],
        ]),
      ),
    );
    expect(out.transactions.map((t) => [t.narration, t.debit, t.credit])).toEqual([
      ["SALARY", "0.00", "1000.00"],
      ["POS", "200.00", "0.00"],
    ]);
  });

  test("the one unrecognised heading of a table without a narration heading is the narration", () => {
    const out = assembleStatement(
      pdfDoc(
        page(1, [
          [80, [40, "Date/Time"], [110, "Transaction"], { r: 470, t: "Amount" }, { r: 540, t: "Balance" }],
          [100, [40, "02/01/2024"], [110, "SALARY JANUARY"], { r: 470, t: "1,000.00" }, { r: 540, t: "1,000.00" }],
        ]),
      ),
    );
    expect(out.transactions[0]!.narration).toBe("SALARY JANUARY");
  });
});

describe("account holder", () => {
  test("a label or a title is never taken as the holder's name", () => {
    const facts = extractHeaderFacts(pageLines(page(1, [[50, [40, "Account Name:"], [150, "Account Type:"]], [60, [40, "Customer Name:"], [150, "Account Statement"]]])));
    expect(facts.holder).toBeNull();
  });

  test("a period printed under its label in a stacked summary keeps both dates", () => {
    const facts = extractHeaderFacts(pageLines(page(1, [[50, [40, "Account Name"], [200, "Statement Period"]], [62, [40, "ADA OKAFOR"], [200, "01 Jul 2024"], [250, "to"], [265, "31 Jul 2024"]]])));
    expect(facts.holder).toBe("ADA OKAFOR");
    expect(facts.period?.map((d) => `${d.year}-${d.month}-${d.day}`)).toEqual(["2024-7-1", "2024-7-31"]);
  });
});

describe("balances from an assumed zero", () => {
  const r = (sortKey: number, debit: bigint, credit: bigint) => ({ sortKey, debit, credit, balance: null, unsided: null });

  test("no balance column and no opening balance: the chain is not called reconciled", () => {
    const out = reconcile([r(1, 0n, 500n), r(2, 200n, 0n)], none);
    expect(out.checks.opening_balance_source).toBe("assumed_zero");
    expect(out.rowWiseReconcilable).toBe(false);
    expect(out.checks.notes.join(" ")).toContain("assumed 0.00");
  });

  test("a printed closing balance that agrees vouches for it", () => {
    expect(reconcile([r(1, 0n, 500n), r(2, 200n, 0n)], { ...none, closing: 300n }).rowWiseReconcilable).toBe(true);
  });
});

describe("runs and page breaks", () => {
  test("a reference run together with the narration under a far-off centred heading is split", () => {
    const out = assembleStatement(
      pdfDoc(
        page(1, [
          [80, [40, "Date"], [110, "Reference"], [260, "Description"], { r: 470, t: "Credit" }, { r: 540, t: "Balance" }],
          [100, [40, "02/01/2024"], [100, "FT2401021000 SALARY PAYMENT"], { r: 470, t: "1,000.00" }, { r: 540, t: "1,000.00" }],
          [115, [40, "03/01/2024"], [100, "FT2401031037 TRANSFER IN"], { r: 470, t: "5.00" }, { r: 540, t: "1,005.00" }],
        ]),
      ),
    );
    expect(out.transactions.map((t) => [t.reference, t.narration])).toEqual([
      ["FT2401021000", "SALARY PAYMENT"],
      ["FT2401031037", "TRANSFER IN"],
    ]);
  });

  test("on a page without a repeated header, a row's tail at the top continues it; a floating title does not", () => {
    const head: [number, ...([number, string] | { r: number; t: string })[]] = [80, [40, "Date"], [110, "Narration"], { r: 470, t: "Debit" }, { r: 540, t: "Balance" }];
    const out = assembleStatement(
      pdfDoc(
        page(1, [head, [100, [40, "02/01/2024"], [110, "SALARY"], { r: 470, t: "1.00" }, { r: 540, t: "999.00" }], [800, [40, "03/01/2024"], [110, "NIP TRANSFER TO"], { r: 470, t: "2.00" }, { r: 540, t: "997.00" }]]),
        page(2, [[20, [110, "ADA OKAFOR"]], [33, [40, "04/01/2024"], [110, "POS"], { r: 470, t: "3.00" }, { r: 540, t: "994.00" }]]),
        page(3, [[20, [280, "Statement"]], [90, [40, "05/01/2024"], [110, "ATM"], { r: 470, t: "4.00" }, { r: 540, t: "990.00" }]]),
      ),
    );
    expect(out.transactions.map((t) => t.narration)).toEqual(["SALARY", "NIP TRANSFER TO ADA OKAFOR", "POS", "ATM"]);
  });
});

describe("summary boxes", () => {
  test("a label and a right-aligned period both wrapped in a narrow box cell are read whole", () => {
    const lines = stitchBrokenDates(
      pageLines(
        page(1, [
          [100, [300, "Statement"], { r: 560, t: "01 Oct 2024 to 31 Oct" }],
          [110, [300, "Period"], { r: 560, t: "2024" }],
        ]),
      ),
    );
    const facts = extractHeaderFacts(lines);
    expect(facts.period?.map((d) => `${d.year}-${d.month}-${d.day}`)).toEqual(["2024-10-1", "2024-10-31"]);
  });
});

describe("a second account in the same PDF", () => {
  test("each account's ledger is read on its own; the top level is the first, accounts lists both", () => {
    const head = (y: number): [number, ...([number, string] | { r: number; t: string })[]] => [y, [40, "Date"], [110, "Narration"], { r: 470, t: "Debit" }, { r: 500, t: "Credit" }, { r: 540, t: "Balance" }];
    const out = assembleStatement(
      pdfDoc(
        page(1, [
          [30, [40, "Account Name: ADA OKAFOR"]],
          [42, [40, "Account Number: 0123456789"]],
          head(80),
          [100, [40, "02/01/2024"], [110, "SALARY"], { r: 500, t: "1,000.00" }, { r: 540, t: "1,000.00" }],
          [115, [40, "03/01/2024"], [110, "POS"], { r: 470, t: "200.00" }, { r: 540, t: "800.00" }],
          [200, [40, "Savings Account"]],
          [212, [40, "Account Number: 9876543210"]],
          head(240),
          [260, [40, "02/01/2024"], [110, "INTEREST"], { r: 500, t: "5.00" }, { r: 540, t: "5,005.00" }],
        ]),
        page(2, [[30, [40, "Account Number: 0123456789"]], head(80), [100, [40, "04/01/2024"], [110, "ATM"], { r: 470, t: "1.00" }, { r: 540, t: "5,004.00" }]]),
      ),
    );
    expect(out.transactions.map((t) => t.narration)).toEqual(["SALARY", "POS"]);
    expect(out.row_wise_reconcilable).toBe(true);
    expect(out.accounts).toHaveLength(2);
    // The page-2 letterhead repeats the first account's number above the savings rows.
    expect(out.accounts[1]!.transactions.map((t) => t.narration)).toEqual(["INTEREST", "ATM"]);
    expect(out.accounts[1]!.metadata.account_number_masked).toBe("******3210");
    expect(out.accounts[1]!.row_wise_reconcilable).toBe(true);
    expect(JSON.stringify(out)).not.toContain("9876543210");
  });

  test("the same account number repeated above every page's header is not another account", () => {
    const head = (y: number): [number, ...([number, string] | { r: number; t: string })[]] => [y, [40, "Date"], [110, "Narration"], { r: 470, t: "Debit" }, { r: 500, t: "Credit" }, { r: 540, t: "Balance" }];
    const out = assembleStatement(
      pdfDoc(
        page(1, [[42, [40, "Account Number: 0123456789"]], head(80), [100, [40, "02/01/2024"], [110, "SALARY"], { r: 500, t: "1,000.00" }, { r: 540, t: "1,000.00" }]]),
        page(2, [[42, [40, "Account Number: 0123456789"]], head(80), [100, [40, "03/01/2024"], [110, "POS"], { r: 470, t: "200.00" }, { r: 540, t: "800.00" }]]),
      ),
    );
    expect(out.transactions.map((t) => t.narration)).toEqual(["SALARY", "POS"]);
  });
});
