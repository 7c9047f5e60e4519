/** Account sections (src/engine/sections/split.ts): where one account's part of a document ends and the next begins. */
import { describe, expect, test } from "bun:test";
import { assembleStatement, documentLines } from "../../src/engine/assemble.ts";
import { splitSections } from "../../src/engine/sections/split.ts";
import { type Piece, page, pdfDoc } from "./layout-helpers.ts";

const head = (y: number): [number, ...Piece[]] => [y, [40, "Date"], [110, "Narration"], { r: 470, t: "Debit" }, { r: 500, t: "Credit" }, { r: 540, t: "Balance" }];
const credit = (y: number, date: string, text: string, amount: string, balance: string): [number, ...Piece[]] => [y, [40, date], [110, text], { r: 500, t: amount }, { r: 540, t: balance }];
const debit = (y: number, date: string, text: string, amount: string, balance: string): [number, ...Piece[]] => [y, [40, date], [110, text], { r: 470, t: amount }, { r: 540, t: balance }];

describe("splitSections", () => {
  test("same account number, each section with its own summary box: two sections, headings with their own table", () => {
    const doc = pdfDoc(
      page(1, [
        [30, [40, "Account Name: ADA OKAFOR"]],
        [42, [40, "Account Number: 0123456789"]],
        [60, [40, "Wallet"]],
        [72, [40, "Opening Balance: 100.00"], [300, "Closing Balance: 1,050.00"]],
        head(90),
        credit(104, "02/01/2024", "SALARY", "1,000.00", "1,100.00"),
        debit(116, "03/01/2024", "POS", "50.00", "1,050.00"),
        [128, [110, "SHOPRITE IKEJA"]],
        [200, [40, "Savings"]],
        [212, [40, "Opening Balance: 5,000.00"], [300, "Closing Balance: 5,005.00"]],
        head(230),
        credit(244, "02/01/2024", "INTEREST", "5.00", "5,005.00"),
      ]),
    );
    const sections = splitSections(documentLines(doc));
    expect(sections).toHaveLength(2);
    // The wrapped narration under the last wallet row stays with the wallet.
    expect(sections[0]!.map((l) => l.text)).toContain("SHOPRITE IKEJA");
    expect(sections[1]![0]!.text).toBe("Savings");
    const out = assembleStatement(doc);
    expect(out.accounts.map((a) => [a.metadata.opening_balance, a.metadata.closing_balance, a.transactions.length, a.row_wise_reconcilable])).toEqual([
      ["100.00", "1050.00", 2, true],
      ["5000.00", "5005.00", 1, true],
    ]);
    expect(out.transactions[1]!.narration).toBe("POS SHOPRITE IKEJA");
    expect(out.accounts[1]!.metadata.account_holder).toBe("ADA OKAFOR");
    expect(out.accounts[0]).toEqual({ metadata: out.metadata, totals: out.totals, row_wise_reconcilable: out.row_wise_reconcilable, checks: out.checks, transactions: out.transactions });
  });

  test("a header repeated on every page with the same letterhead and summary is one section", () => {
    const letterhead = (): [number, ...Piece[]][] => [[30, [40, "Account Number: 0123456789"]], [42, [40, "Opening Balance: 100.00"], [300, "Closing Balance: 1,050.00"]]];
    const doc = pdfDoc(
      page(1, [...letterhead(), head(80), credit(100, "02/01/2024", "SALARY", "1,000.00", "1,100.00")]),
      page(2, [...letterhead(), head(80), debit(100, "03/01/2024", "POS", "50.00", "1,050.00")]),
    );
    expect(splitSections(documentLines(doc))).toHaveLength(1);
    const out = assembleStatement(doc);
    expect(out.accounts).toHaveLength(1);
    expect(out.transactions).toHaveLength(2);
    expect(out.row_wise_reconcilable).toBe(true);
  });

  test("page headers printing each page's own figures: the chain from the page before keeps one section", () => {
    const doc = pdfDoc(
      page(1, [[30, [40, "Account Number: 0123456789"]], [42, [40, "Opening Balance: 100.00"], [300, "Closing Balance: 1,100.00"]], head(80), credit(100, "02/01/2024", "SALARY", "1,000.00", "1,100.00")]),
      page(2, [[30, [40, "Account Number: 0123456789"]], [42, [40, "Opening Balance: 1,100.00"], [300, "Closing Balance: 1,050.00"]], head(80), debit(100, "03/01/2024", "POS", "50.00", "1,050.00")]),
    );
    expect(splitSections(documentLines(doc))).toHaveLength(1);
    expect(assembleStatement(doc).transactions).toHaveLength(2);
  });

  test("a summary of the account printed after its table is not another account", () => {
    const doc = pdfDoc(
      page(1, [
        [30, [40, "Account Number: 0123456789"]],
        head(80),
        credit(100, "02/01/2024", "SALARY", "1,000.00", "1,100.00"),
        [160, [40, "Account Summary"]],
        [172, [40, "Opening Balance: 100.00"]],
        [184, [40, "Closing Balance: 1,100.00"]],
        [196, [40, "Total Credit: 1,000.00"]],
      ]),
    );
    expect(splitSections(documentLines(doc))).toHaveLength(1);
  });

  test("a titled savings block with nothing moved and no table is an empty section", () => {
    const doc = pdfDoc(
      page(1, [
        [30, [40, "Account Number: 0123456789"]],
        [42, [40, "Opening Balance: 100.00"], [300, "Closing Balance: 1,100.00"]],
        head(80),
        credit(100, "02/01/2024", "SALARY", "1,000.00", "1,100.00"),
        [200, [40, "Savings Account"]],
        [212, [40, "Opening Balance: 250.00"], [300, "Closing Balance: 250.00"]],
        [224, [40, "Total Debit: 0.00"], [300, "Total Credit: 0.00"]],
        [250, [40, "No records"]],
      ]),
    );
    const out = assembleStatement(doc);
    expect(out.accounts).toHaveLength(2);
    expect(out.accounts[1]!.transactions).toEqual([]);
    expect([out.accounts[1]!.metadata.opening_balance, out.accounts[1]!.metadata.closing_balance]).toEqual(["250.00", "250.00"]);
    expect(out.accounts[1]!.row_wise_reconcilable).toBe(true);
    expect(out.transactions).toHaveLength(1);
  });
});

describe("debit and credit told apart by the chain", () => {
  test("a table without headings or printed opening, columns swapped: the whole-table reading wins over row-by-row moves", () => {
    const doc = pdfDoc(
      page(1, [
        [112, [20, "01/04/2024"], [100, "SALARY APRIL"], { r: 400, t: "500.00" }, { r: 560, t: "1,500.00" }],
        [124, [20, "02/04/2024"], [100, "POS PURCHASE"], { r: 470, t: "200.00" }, { r: 560, t: "1,300.00" }],
        [136, [20, "03/04/2024"], [100, "ATM WITHDRAWAL"], { r: 470, t: "100.00" }, { r: 560, t: "1,200.00" }],
        [148, [20, "04/04/2024"], [100, "TRANSFER IN"], { r: 400, t: "50.00" }, { r: 560, t: "1,250.00" }],
      ]),
    );
    const out = assembleStatement(doc);
    expect(out.transactions.map((t) => [t.debit, t.credit])).toEqual([["0.00", "500.00"], ["200.00", "0.00"], ["100.00", "0.00"], ["0.00", "50.00"]]);
    expect(out.metadata.opening_balance).toBe("1000.00");
    expect(out.row_wise_reconcilable).toBe(true);
  });
});

describe("the table's own B/F and C/F rows", () => {
  test("win over the header's labels when both are printed, with a note when they differ", () => {
    const doc = pdfDoc(
      page(1, [
        [30, [40, "Account Number: 0123456789"]],
        [42, [40, "Opening Balance: 1,000.00"], [300, "Closing Balance: 1,900.00"]],
        head(80),
        [100, [110, "Balance B/F"], { r: 540, t: "1,100.00" }],
        credit(112, "02/01/2024", "SALARY", "1,000.00", "2,100.00"),
        debit(124, "03/01/2024", "POS", "100.00", "2,000.00"),
        [136, [110, "Balance C/F"], { r: 540, t: "2,000.00" }],
      ]),
    );
    const out = assembleStatement(doc);
    expect([out.metadata.opening_balance, out.metadata.closing_balance]).toEqual(["1100.00", "2000.00"]);
    expect(out.row_wise_reconcilable).toBe(true);
    const notes = out.checks.notes.join(" ");
    expect(notes).toContain("table's own opening balance 1100.00");
    expect(notes).toContain("table's own closing balance 2000.00");
  });
});

test("every section's full account number is masked in every section's rows", () => {
  const doc = pdfDoc(
    page(1, [
      [30, [40, "Account Number: 0123456789"]],
      head(80),
      debit(100, "02/01/2024", "AUTO-SAVE TO 9876543210", "100.00", "900.00"),
      [200, [40, "Savings Account"]],
      [212, [40, "Account Number: 9876543210"]],
      head(240),
      credit(260, "02/01/2024", "AUTO-SAVE FROM 0123456789", "100.00", "5,100.00"),
    ]),
  );
  const out = assembleStatement(doc);
  expect(out.accounts).toHaveLength(2);
  expect(out.transactions[0]!.narration).toBe("AUTO-SAVE TO ******3210");
  expect(out.accounts[1]!.transactions[0]!.narration).toBe("AUTO-SAVE FROM ******6789");
  const json = JSON.stringify(out);
  expect(json).not.toContain("9876543210");
  expect(json).not.toContain("0123456789");
});
