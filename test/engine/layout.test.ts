import { describe, expect, test } from "bun:test";
import { assembleStatement } from "../../src/engine/assemble.ts";
import { AppError } from "../../src/errors.ts";
import { clusterIds } from "../../src/engine/layout/columns.ts";
import { headerColumns, labelRole } from "../../src/engine/layout/header.ts";
import { pageLines } from "../../src/engine/layout/lines.ts";
import { missingFactNotes } from "../../src/engine/metadata/index.ts";
import { page, pdfDoc, sheetDoc } from "./layout-helpers.ts";

const brief = (r: ReturnType<typeof assembleStatement>) => r.transactions.map((t) => [t.date.slice(0, 10), t.narration, t.debit, t.credit, t.balance, t.reference]);

describe("header vocabulary", () => {
  test.each([
    ["Trans. Date", "date"],
    ["Value Date", "value_date"],
    ["Narration", "narration"],
    ["Transaction Details", "narration"],
    ["Withdrawal(DR)", "debit"],
    ["Money Out (NGN)", "debit"],
    ["Payments", "debit"],
    ["Deposit(CR)", "credit"],
    ["Lodgements", "credit"],
    ["Money In", "credit"],
    ["In", "credit"],
    ["Out", "debit"],
    ["Balance After(₦)", "balance"],
    ["DR/CR", "drcr"],
    ["Amount", "amount"],
    ["Ref. Number", "reference"],
    ["Cheque No", "reference"],
    ["Channel", "other"],
    ["Time", "time"],
    ["Date/Time", "date"],
  ])("%s -> %s", (label, role) => expect(labelRole(label)).toBe(role as never));

  test("a header needs a date and an amount column", () => {
    const lines = pageLines(page(1, [[100, [20, "Date"], [100, "Description"], [300, "Debit"], [400, "Credit"], [500, "Balance"]], [120, [20, "Account Name"], [100, "Opening Balance"], [300, "Total Debit"]]]));
    expect(headerColumns(lines[0]!)?.map((c) => c.role)).toEqual(["date", "narration", "debit", "credit", "balance"]);
    expect(headerColumns(lines[1]!)).toBeNull();
  });
});

describe("currency signs apart from their figures", () => {
  test("accounting format: each figure's own sign at the cell's left edge is dropped; a currency column's code stays", () => {
    const [accounting, currencyColumn, single] = pageLines(
      page(1, [
        [120, [20, "02/01/2026"], [100, "TRANSFER"], [300, "₦"], { r: 380, t: "-" }, [400, "₦"], { r: 480, t: "13,581.63" }, [500, "₦"], { r: 580, t: "38,581.63" }],
        [140, [20, "03/01/2026"], [100, "TRANSFER"], [300, "NGN"], { r: 480, t: "500.00" }, { r: 580, t: "38,081.63" }],
        [160, [20, "Opening Balance"], [300, "₦"], { r: 480, t: "25,000.00" }],
      ]),
    );
    expect(accounting!.cells.map((c) => [c.text, c.kind])).toEqual([["02/01/2026", "date"], ["TRANSFER", "text"], ["-", "empty"], ["13,581.63", "money"], ["38,581.63", "money"]]);
    expect(currencyColumn!.cells.map((c) => c.text)).toEqual(["03/01/2026", "TRANSFER", "NGN", "500.00", "38,081.63"]);
    expect(single!.cells.map((c) => c.text)).toEqual(["Opening Balance", "₦", "25,000.00"]);
  });
});

describe("column inference", () => {
  test("numbers right-aligned far right of left-aligned labels (VALUE DATE between CREDIT and BALANCE)", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [100, [20, "DATE"], [90, "DESCRIPTION"], [250, "DEBIT"], [330, "CREDIT"], [410, "VALUE DATE"], [480, "BALANCE"]],
          [112, { r: 320, t: "0.00" }, { r: 400, t: "0.00" }, { r: 570, t: "1,000.00" }],
          [124, [20, "02/01/2024"], [90, "SALARY"], { r: 320, t: "0.00" }, { r: 400, t: "5,000.00" }, [410, "02/01/2024"], { r: 570, t: "6,000.00" }],
          [136, [20, "03/01/2024"], [90, "ATM"], { r: 320, t: "250.50" }, { r: 400, t: "0.00" }, [410, "03/01/2024"], { r: 570, t: "5,749.50" }],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2024-01-02", "SALARY", "0.00", "5000.00", "6000.00", ""],
      ["2024-01-03", "ATM", "250.50", "0.00", "5749.50", ""],
    ]);
    expect(r.metadata.opening_balance).toBe("1000.00");
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("columns in another order: balance first, date last", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [100, { r: 100, t: "Balance" }, { r: 180, t: "Credit" }, { r: 260, t: "Debit" }, [280, "Details"], [500, "Date"]],
          [112, { r: 100, t: "900.00" }, { r: 260, t: "100.00" }, [280, "POS PURCHASE"], [500, "2024-03-01"]],
          [124, { r: 100, t: "1,400.00" }, { r: 180, t: "500.00" }, [280, "TRANSFER IN"], [500, "2024-03-02"]],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2024-03-01", "POS PURCHASE", "100.00", "0.00", "900.00", ""],
      ["2024-03-02", "TRANSFER IN", "0.00", "500.00", "1400.00", ""],
    ]);
    expect(r.checks.opening_balance_source).toBe("derived");
    expect(r.metadata.opening_balance).toBe("1000.00");
  });

  test("an amount column with a DR/CR column", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [80, [20, "Opening Balance:"], [120, "2,000.00"]],
          [100, [20, "Date"], [100, "Narration"], { r: 380, t: "Amount" }, [400, "DR/CR"], { r: 560, t: "Balance" }],
          [112, [20, "05-Feb-2024"], [100, "AIRTIME"], { r: 380, t: "100.00" }, [400, "DR"], { r: 560, t: "1,900.00" }],
          [124, [20, "06-Feb-2024"], [100, "REFUND"], { r: 380, t: "40.00" }, [400, "CR"], { r: 560, t: "1,940.00" }],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2024-02-05", "AIRTIME", "100.00", "0.00", "1900.00", ""],
      ["2024-02-06", "REFUND", "0.00", "40.00", "1940.00", ""],
    ]);
    expect(r.checks.opening_balance_source).toBe("statement");
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("a signed single amount column, with currency signs and an overdrawn DR balance", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [100, [20, "Date"], [100, "Description"], { r: 380, t: "Amount" }, { r: 560, t: "Balance" }],
          [112, [20, "05/02/2024"], [100, "TRANSFER OUT"], { r: 380, t: "-₦1,500.00" }, { r: 560, t: "₦500.00 DR" }],
          [124, [20, "06/02/2024"], [100, "TRANSFER IN"], { r: 380, t: "₦2,000.00" }, { r: 560, t: "₦1,500.00" }],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2024-02-05", "TRANSFER OUT", "1500.00", "0.00", "-500.00", ""],
      ["2024-02-06", "TRANSFER IN", "0.00", "2000.00", "1500.00", ""],
    ]);
    expect(r.metadata.opening_balance).toBe("1000.00");
    expect(r.row_wise_reconcilable).toBe(true);
  });
});

describe("row assembly", () => {
  const header: [number, ...[number, string][]] = [100, [20, "Date"], [100, "Narration"], [300, "Reference"], [400, "Debit"], [460, "Credit"], [520, "Balance"]];
  test("wrapped narrations below the row, references joined without a space", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [112, [20, "01-Mar-2024"], [100, "NIP TRANSFER FROM JOHN"], [300, "000012345678"], [400, "--"], [460, "5,000.00"], [520, "5,000.00"]],
          [122, [100, "DOE ACCESS BANK"], [300, "901"]],
          [136, [20, "02-Mar-2024"], [100, "SMS ALERT"], [300, "FT1"], [400, "4.00"], [460, "--"], [520, "4,996.00"]],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2024-03-01", "NIP TRANSFER FROM JOHN DOE ACCESS BANK", "0.00", "5000.00", "5000.00", "000012345678901"],
      ["2024-03-02", "SMS ALERT", "4.00", "0.00", "4996.00", "FT1"],
    ]);
  });

  test("vertically centred cells: narration lines above and below the date line", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [100, [20, "Date"], [130, "Details"], [300, "Money In"], [400, "Money Out"]],
          [120, [20, "06/13/2026 08:53:35 PM"], [130, "CashBox Interest"], [300, "+3.79"]],
          [141, [130, "Send to"]],
          [145, [20, "06/13/2026 08:13:07 PM"], [400, "-1000.00"]],
          [149, [130, "JOHN DOE"]],
          [170, [20, "06/12/2026 08:11:11 PM"], [130, "Airtime"], [400, "-50.00"]],
        ]),
      ),
    );
    expect(r.checks.reversed).toBe(true);
    expect(brief(r)).toEqual([
      ["2026-06-12", "Airtime", "50.00", "0.00", "-50.00", ""],
      ["2026-06-13", "Send to JOHN DOE", "1000.00", "0.00", "-1050.00", ""],
      ["2026-06-13", "CashBox Interest", "0.00", "3.79", "-1046.21", ""],
    ]);
    expect(r.checks.balances_derived).toBe(true);
    // US order proven by 06/13; the time is kept, PM included.
    expect(r.transactions[1]!.date).toBe("2026-06-13T20:13:07+01:00");
  });

  test("repeated headers, page footers, B/F and C/F lines and a totals line are not transactions", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [112, [100, "Balance B/F"], [520, "1,000.00"]],
          [124, [20, "01-Mar-2024"], [100, "ONE"], [400, "100.00"], [520, "900.00"]],
          [136, [100, "Balance C/F"], [520, "900.00"]],
          [800, [280, "Page 1 of 2"]],
        ]),
        page(2, [
          header,
          [112, [100, "Balance B/F"], [520, "900.00"]],
          [124, [20, "02-Mar-2024"], [100, "TWO"], [460, "50.00"], [520, "950.00"]],
          [136, [100, "TOTAL"], [400, "100.00"], [460, "50.00"]],
          [148, [100, "Closing Balance"], [520, "950.00"]],
          [800, [280, "Page 2 of 2"]],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2024-03-01", "ONE", "100.00", "0.00", "900.00", ""],
      ["2024-03-02", "TWO", "0.00", "50.00", "950.00", ""],
    ]);
    expect(r.metadata.opening_balance).toBe("1000.00");
    expect(r.metadata.closing_balance).toBe("950.00");
    expect(r.checks).toMatchObject({ row_chain: true, totals_match: true, closing_balance_match: true });
  });

  test("monthly subtotals are not the printed totals; a labelled grand total after the rows is", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [112, [20, "30-Nov-2024"], [100, "ONE"], [400, "100.00"], [520, "900.00"]],
          [124, [100, "TOTAL FOR NOV-2024"], [400, "100.00"], [460, "0.00"]],
          [136, [20, "01-Dec-2024"], [100, "TWO"], [460, "50.00"], [520, "950.00"]],
          [148, [100, "TOTAL FOR DEC-2024"], [400, "0.00"], [460, "50.00"]],
          [160, [20, "TOTAL DEBITS:"], [90, "100.00"], [200, "TOTAL CREDITS:"], [280, "50.00"]],
        ]),
      ),
    );
    expect(r.transactions).toHaveLength(2);
    expect(r.checks.totals_match).toBe(true);
    expect(r.checks.notes.join(" ")).not.toContain("Undated lines");
  });

  test("a closing-balance line's one figure is the closing balance wherever it stands, never the totals (a spreadsheet prints it beside its label)", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [60, [20, "Opening Balance"], [120, "1,000.00"]],
          header,
          [112, [20, "01-Dec-2024"], [100, "ONE"], [400, "100.00"], [520, "900.00"]],
          [124, [20, "02-Dec-2024"], [100, "TWO"], [460, "50.00"], [520, "950.00"]],
          [140, [100, "TOTAL"], [400, "100.00"], [460, "50.00"]],
          // The figure stands under the debit column: it is still the balance.
          [152, [20, "Closing Balance"], [405, "950.00"]],
        ]),
      ),
    );
    expect(r.transactions).toHaveLength(2);
    expect(r.checks).toMatchObject({ totals_match: true, closing_balance_match: true, verdict: "verified" });
    expect(r.metadata.closing_balance).toBe("950.00");
  });

  test("a dated line without any amount is reported, not made a zero transaction", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [112, [20, "01-Mar-2024"], [100, "ONE"], [400, "100.00"], [520, "900.00"]],
          [124, [20, "02-Mar-2024"], [100, "ACCOUNT RECLASSIFIED"]],
          [136, [20, "03-Mar-2024"], [100, "TWO"], [460, "50.00"], [520, "950.00"]],
        ]),
      ),
    );
    expect(brief(r).map((t) => t[1])).toEqual(["ONE", "TWO"]);
    expect(r.row_wise_reconcilable).toBe(true);
    expect(r.checks.notes.join(" ")).toContain("ACCOUNT RECLASSIFIED");
  });

  test("a dated opening-balance row is the opening balance, not a transaction", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [112, [20, "01-Mar-2024"], [100, "OPENING BALANCE"], [400, "0.00"], [460, "0.00"], [520, "2,000.00"]],
          [124, [20, "02-Mar-2024"], [100, "ATM"], [400, "500.00"], [460, "0.00"], [520, "1,500.00"]],
        ]),
      ),
    );
    expect(r.transactions).toHaveLength(1);
    expect(r.metadata.opening_balance).toBe("2000.00");
    expect(r.checks.opening_balance_source).toBe("statement");
  });

  test("a broken chain is reported, never repaired", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [112, [20, "01-Mar-2024"], [100, "A"], [400, "100.00"], [520, "900.00"]],
          [124, [20, "02-Mar-2024"], [100, "B"], [400, "100.00"], [520, "850.00"]],
        ]),
      ),
    );
    expect(r.row_wise_reconcilable).toBe(false);
    expect(r.checks.first_break_index).toBe(1);
    expect(r.transactions[1]!.balance).toBe("850.00");
  });
});

describe("harder layouts", () => {
  const header: [number, ...[number, string][]] = [100, [20, "Date"], [100, "Narration"], [400, "Debit"], [460, "Credit"], [520, "Balance"]];
  test("a date printed once per day: following rows inherit it when their balance follows", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [112, [20, "01 May 2024"], [100, "SALARY"], [460, "1,000.00"], [520, "1,000.00"]],
          [124, [100, "AIRTIME"], [400, "100.00"], [520, "900.00"]],
          [136, [100, "POS @ TOTAL ENERGIES"], [400, "4.00"], [520, "896.00"]],
          [148, [20, "02 May 2024"], [100, "ATM"], [400, "96.00"], [520, "800.00"]],
          [160, [100, "TOTAL"], [400, "200.00"], [460, "1,000.00"]],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2024-05-01", "SALARY", "0.00", "1000.00", "1000.00", ""],
      ["2024-05-01", "AIRTIME", "100.00", "0.00", "900.00", ""],
      ["2024-05-01", "POS @ TOTAL ENERGIES", "4.00", "0.00", "896.00", ""],
      ["2024-05-02", "ATM", "96.00", "0.00", "800.00", ""],
    ]);
    expect(r.checks.totals_match).toBe(true);
  });

  test("the same, listed newest first", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [112, [20, "02 May 2024"], [100, "ATM"], [400, "96.00"], [520, "800.00"]],
          [124, [20, "01 May 2024"], [100, "SMS"], [400, "4.00"], [520, "896.00"]],
          [136, [100, "AIRTIME"], [400, "100.00"], [520, "900.00"]],
          [148, [100, "SALARY"], [460, "1,000.00"], [520, "1,000.00"]],
        ]),
      ),
    );
    expect(r.checks.reversed).toBe(true);
    expect(brief(r).map((t) => t[1])).toEqual(["SALARY", "AIRTIME", "SMS", "ATM"]);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("no column headings: columns from the body, debit and credit told apart by the balance", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [40, [20, "Opening Balance"], [120, "1,000.00"]],
          // Credit column left of the debit column: the balance arithmetic decides.
          [112, [20, "01/04/2024"], [100, "SALARY APRIL"], { r: 400, t: "500.00" }, { r: 560, t: "1,500.00" }],
          [124, [20, "02/04/2024"], [100, "POS PURCHASE"], { r: 470, t: "200.00" }, { r: 560, t: "1,300.00" }],
          [136, [20, "03/04/2024"], [100, "ATM WITHDRAWAL"], { r: 470, t: "100.00" }, { r: 560, t: "1,200.00" }],
          [148, [20, "04/04/2024"], [100, "TRANSFER IN"], { r: 400, t: "50.00" }, { r: 560, t: "1,250.00" }],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2024-04-01", "SALARY APRIL", "0.00", "500.00", "1500.00", ""],
      ["2024-04-02", "POS PURCHASE", "200.00", "0.00", "1300.00", ""],
      ["2024-04-03", "ATM WITHDRAWAL", "100.00", "0.00", "1200.00", ""],
      ["2024-04-04", "TRANSFER IN", "0.00", "50.00", "1250.00", ""],
    ]);
    expect(r.row_wise_reconcilable).toBe(true);
    expect(r.checks.notes.join(" ")).toContain("no column headings");
  });

  test("bottom-aligned cells: the first narration line sits above the date line", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [121, [100, "NIP TRANSFER FROM ADA"]],
          [130, [20, "01/05/2024"], [100, "OKAFOR GTBANK"], [460, "500.00"], [520, "500.00"]],
          [144, [20, "02/05/2024"], [100, "SMS ALERT"], [400, "4.00"], [520, "496.00"]],
          [158, [100, "POS PURCHASE @ SPAR"]],
          [167, [20, "03/05/2024"], [100, "IKEJA"], [400, "96.00"], [520, "400.00"]],
        ]),
      ),
    );
    expect(brief(r).map((t) => t[1])).toEqual(["NIP TRANSFER FROM ADA OKAFOR GTBANK", "SMS ALERT", "POS PURCHASE @ SPAR IKEJA"]);
  });

  // Every row two lines at one even pitch: no gap tells whether a line between two date lines ends
  // the row above or starts the row below; the table's ends do (fixtures/wild/calc-* print so).
  const evenRows = (textAbove: boolean): [number, ...([number, string] | { r: number; t: string })[]][] => {
    const out: [number, ...([number, string] | { r: number; t: string })[]][] = [];
    const rows = [["01/05/2024", "NIP TRANSFER FROM", "ADA OKAFOR", "", "500.00", "1,500.00"], ["02/05/2024", "POS PURCHASE @", "SPAR IKEJA", "40.00", "", "1,460.00"], ["03/05/2024", "NIP TRANSFER TO", "BOLA ADE", "60.00", "", "1,400.00"], ["04/05/2024", "SMS ALERT", "CHARGES MAY", "4.00", "", "1,396.00"]];
    rows.forEach(([date, first, second, debit, credit, balance], i) => {
      const y = 112 + i * 18;
      const dated: [number, ...([number, string] | { r: number; t: string })[]] = [textAbove ? y + 9 : y, [20, date!], [100, textAbove ? second! : first!], { r: 440, t: debit! }, { r: 500, t: credit! }, { r: 560, t: balance! }];
      const text: [number, [number, string]] = [textAbove ? y : y + 9, [100, textAbove ? first! : second!]];
      out.push(...(textAbove ? [text, dated] : [dated, text]));
    });
    return out;
  };
  const evenNarrations = ["NIP TRANSFER FROM ADA OKAFOR", "POS PURCHASE @ SPAR IKEJA", "NIP TRANSFER TO BOLA ADE", "SMS ALERT CHARGES MAY"];

  test("evenly spaced two-line rows, text above the date line: lines under the headings before the first row start it", () => {
    const r = assembleStatement(pdfDoc(page(1, [[60, [20, "Opening Balance"], [120, "1,000.00"]], header, ...evenRows(true)])));
    expect(r.transactions.map((t) => t.narration)).toEqual(evenNarrations);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("evenly spaced two-line rows, text below the date line: a line right after the last row keeps them top-aligned, a line before the first notwithstanding", () => {
    const r = assembleStatement(pdfDoc(page(1, [[60, [20, "Opening Balance"], [120, "1,000.00"]], header, [105, [100, "BROUGHT FORWARD"]], ...evenRows(false)])));
    expect(r.transactions.slice(1).map((t) => t.narration)).toEqual(evenNarrations.slice(1));
    expect(r.transactions[0]!.narration.endsWith("NIP TRANSFER FROM ADA OKAFOR")).toBe(true);
  });

  test("a separate Time column, a year on the line below the day, and a dated totals row", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [60, [20, "Period:"], [80, "01 Dec 2024 - 31 Jan 2025"]],
          [100, [20, "Date"], [70, "Time"], [130, "Details"], [400, "Debit"], [460, "Credit"], [520, "Balance"]],
          [112, [20, "30 Dec"], [70, "14:05"], [130, "AIRTIME"], [400, "100.00"], [520, "900.00"]],
          [122, [20, "2024"]],
          [136, [20, "02 Jan"], [70, "09:30:15"], [130, "SALARY"], [460, "600.00"], [520, "1,500.00"]],
          [146, [20, "2025"]],
          [160, [20, "31 Jan"], [130, "TOTAL"], [400, "100.00"], [460, "600.00"]],
        ]),
      ),
    );
    expect(r.transactions.map((t) => [t.date, t.narration])).toEqual([
      ["2024-12-30T14:05:00+01:00", "AIRTIME"],
      ["2025-01-02T09:30:15+01:00", "SALARY"],
    ]);
    expect(r.metadata.opening_balance).toBe("1000.00");
  });
});

describe("a narration run into a left-aligned amount (TCPDF, no cell padding)", () => {
  const header: [number, ...[number, string][]] = [100, [20, "Date"], [100, "Details"], [300, "Amount"], [420, "Balance"]];
  // 45 characters of the synthetic font from x = 100 end at 298: the amount glued after them starts at the Amount column's edge.
  const head = "NIP TRANSFER TO ADA OKAFOR FOR HOUSE RENT AND SERVICE".slice(0, 45);
  const doc = (second: string) =>
    pdfDoc(
      page(1, [
        header,
        [112, [20, "01-Mar-2024"], [100, "SMS ALERT"], [300, "4.00 DR"], [420, "996.00 CR"]],
        [124, [20, "02-Mar-2024"], [100, second], [420, "900.00 CR"]],
        [136, [20, "03-Mar-2024"], [100, "REFUND"], [300, "100.00 CR"], [420, "1,000.00 CR"]],
      ]),
    );
  test("the amount glued to the narration's last word is parted from it at the column's edge", () => {
    const r = assembleStatement(doc(`${head}96.00 DR`));
    expect(brief(r)[1]).toEqual(["2024-03-02", head, "96.00", "0.00", "900.00", ""]);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("an amount inside the narration, short of the column, stays narration", () => {
    const r = assembleStatement(doc("REVERSAL OF 96.00 DR"));
    expect(brief(r)[1]?.[1]).toBe("REVERSAL OF 96.00 DR");
    expect(brief(r)[1]?.[2]).toBe("0.00");
  });
});

describe("page breaks and print artefacts", () => {
  const header: [number, ...[number, string][]] = [100, [20, "Date"], [100, "Narration"], [400, "Debit"], [460, "Credit"], [520, "Balance"]];
  test("a narration split by a page break continues the last row of the page before", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [header, [112, [20, "01-Mar-2024"], [100, "SMS"], [400, "4.00"], [520, "996.00"]], [124, [20, "02-Mar-2024"], [100, "NIP TRANSFER FROM ADA"], [460, "4.00"], [520, "1,000.00"]]]),
        page(2, [header, [112, [100, "OKAFOR GTBANK"]], [124, [20, "03-Mar-2024"], [100, "ATM"], [400, "100.00"], [520, "900.00"]]]),
      ),
    );
    expect(brief(r).map((t) => t[1])).toEqual(["SMS", "NIP TRANSFER FROM ADA OKAFOR GTBANK", "ATM"]);
  });

  // Bordered, padded rows (LibreOffice Writer): a row's lines 10 pt apart, rows 24 pt apart, no
  // heading on later pages; the last row of page 1 wraps onto page 2 (fixtures/wild/writer-*).
  const padded = (top: [number, ...[number, string][]][], top3 = top) =>
    pdfDoc(
      page(1, [
        header,
        [112, [20, "01-Mar-2024"], [100, "SMS ALERT"], [400, "4.00"], [520, "996.00"]],
        [122, [100, "CHARGES"]],
        [146, [20, "02-Mar-2024"], [100, "TRANSFER TO ADA"], [400, "96.00"], [520, "900.00"]],
        [156, [100, "OKAFOR"]],
        [180, [20, "03-Mar-2024"], [100, "POS PURCHASE"], [400, "100.00"], [520, "800.00"]],
        [190, [100, "SHOPRITE"]],
        [214, [20, "04-Mar-2024"], [100, "TRANSFER FROM"], [460, "200.00"], [520, "1,000.00"]],
        [224, [100, "MUSA ALI"]],
      ]),
      page(2, [...top, [64, [20, "05-Mar-2024"], [100, "ATM"], [400, "100.00"], [520, "900.00"]], [74, [100, "WITHDRAWAL"]], [98, [20, "06-Mar-2024"], [100, "SMS"], [400, "4.00"], [520, "896.00"]]]),
      page(3, [...top3, [64, [20, "07-Mar-2024"], [100, "ATM"], [400, "96.00"], [520, "800.00"]]]),
    );
  test("a headless page's first lines, as far above its first row as rows lie apart, end the row the page break cut", () => {
    const r = assembleStatement(padded([[40, [100, "VIA GTBANK"]]], [[40, [100, "SHOPRITE"]]]));
    expect(brief(r).map((t) => t[1]).slice(3)).toEqual(["TRANSFER FROM MUSA ALI VIA GTBANK", "ATM WITHDRAWAL", "SMS SHOPRITE", "ATM"]);
  });

  test("a title at the top of every headless page, where the rows' text wraps, is not a row's end", () => {
    const r = assembleStatement(padded([[40, [100, "ACCOUNT STATEMENT"]]]));
    expect(brief(r).map((t) => t[1]).slice(3)).toEqual(["TRANSFER FROM MUSA ALI", "ATM WITHDRAWAL", "SMS", "ATM"]);
  });

  test("a narration line holding only a number, or starting with a date, continues its row", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [112, [20, "04-Jan-2024"], [100, "SCHOOL FEES TERM"], [400, "2,341.00"], [520, "7,659.00"]],
          [122, [100, "2"]],
          [136, [20, "06-Jan-2024"], [100, "SALARY ARREARS FOR"], [460, "1,000.00"], [520, "8,659.00"]],
          [146, [100, "15/12/2023 PERIOD"]],
          [160, [20, "07-Jan-2024"], [100, "ATM"], [400, "659.00"], [520, "8,000.00"]],
          [800, [290, "3"]],
        ]),
      ),
    );
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2024-01-04", "SCHOOL FEES TERM 2"],
      ["2024-01-06", "SALARY ARREARS FOR 15/12/2023 PERIOD"],
      ["2024-01-07", "ATM"],
    ]);
  });

  test("page totals are not rows and not reported as skipped; a date broken after its month is joined", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [112, [20, "03/01/"], [100, "SMS"], [400, "4.00"], [520, "996.00"]],
          [122, [20, "2024"]],
          [136, [20, "04-Jan-2024"], [100, "ATM"], [400, "96.00"], [520, "900.00"]],
          [148, [100, "Page Total"], [400, "100.00"], [460, "0.00"]],
        ]),
        page(2, [header, [112, [20, "05-Jan-2024"], [100, "REFUND"], [460, "100.00"], [520, "1,000.00"]]]),
      ),
    );
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2024-01-03", "SMS"],
      ["2024-01-04", "ATM"],
      ["2024-01-05", "REFUND"],
    ]);
    expect(r.checks.notes.join(" ")).not.toContain("Undated lines");
  });

  test("simulated bold (a string drawn twice a fraction of a point apart) is read once", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [60, [20, "Account Name:"], [20.3, "Account Name:"], [120, "ADA OKAFOR"], [120.3, "ADA OKAFOR"]],
          [100, [20, "Date"], [20.3, "Date"], [100, "Narration"], [100.3, "Narration"], [400, "Debit"], [460, "Credit"], [520, "Balance"], [520.3, "Balance"]],
          [112, [20, "01-Mar-2024"], [100, "SMS"], [400, "4.00"], [520, "996.00"]],
        ]),
      ),
    );
    expect(r.metadata.account_holder).toBe("ADA OKAFOR");
    expect(brief(r)).toEqual([["2024-03-01", "SMS", "4.00", "0.00", "996.00", ""]]);
  });

  test("ledger and available balance columns: the ledger balance is the chain's", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [100, [20, "Date"], [100, "Narration"], [300, "Debit"], [360, "Credit"], [420, "Available Balance"], [520, "Ledger Balance"]],
          [112, [20, "01-Mar-2024"], [100, "SMS"], [300, "4.00"], [420, "500.00"], [520, "996.00"]],
          [124, [20, "02-Mar-2024"], [100, "ATM"], [300, "96.00"], [420, "400.00"], [520, "900.00"]],
        ]),
      ),
    );
    expect(brief(r).map((t) => t[4])).toEqual(["996.00", "900.00"]);
    // Beside the facts this table-only page does not print (metadata notes), the one note is the opening balance's.
    expect(r.checks.notes).toEqual(["No opening balance is printed; it was derived from the first row.", ...missingFactNotes(["account holder", "account number", "statement period"])]);
    expect(r.row_wise_reconcilable).toBe(true);
  });
});

describe("a notice between pages that names another account", () => {
  test("is not a second account's section: every row of the next page is read", () => {
    const header: [number, ...[number, string][]] = [100, [20, "Date"], [100, "Narration"], [400, "Debit"], [460, "Credit"], [520, "Balance"]];
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [40, [20, "Account Number: 0123456789"]],
          [52, [20, "Opening Balance: 1,000.00"]],
          header,
          [112, [20, "01/05/2024"], [100, "SALARY MAY"], [460, "500.00"], [520, "1,500.00"]],
          [124, [20, "02/05/2024"], [100, "POS PURCHASE"], [400, "200.00"], [520, "1,300.00"]],
          // Stated in words, a number on a line that says account: not a label, so no new section.
          [800, [20, "Fund your account by transfer to our collection account 9876543210 at any bank"]],
        ]),
        page(2, [
          header,
          [112, [20, "03/05/2024"], [100, "ATM WITHDRAWAL"], [400, "100.00"], [520, "1,200.00"]],
          [124, [20, "04/05/2024"], [100, "TRANSFER IN"], [460, "50.00"], [520, "1,250.00"]],
        ]),
      ),
    );
    expect(r.transactions.map((t) => t.narration)).toEqual(["SALARY MAY", "POS PURCHASE", "ATM WITHDRAWAL", "TRANSFER IN"]);
    expect(r.metadata.account_number_masked).toBe("******6789");
  });
});

describe("sections that are not the statement's rows", () => {
  test("a pending-items table after the statement is not read as transactions", () => {
    const header: [number, ...[number, string][]] = [100, [20, "Date"], [100, "Narration"], [400, "Debit"], [460, "Credit"], [520, "Balance"]];
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          header,
          [112, [20, "01-Mar-2024"], [100, "SMS"], [400, "4.00"], [520, "996.00"]],
          [160, [20, "PENDING TRANSACTIONS (NOT YET POSTED)"]],
          [172, [20, "Date"], [100, "Description"], [400, "Debit"], [460, "Credit"]],
          [184, [20, "02-Mar-2024"], [100, "POS PENDING"], [400, "500.00"]],
        ]),
      ),
    );
    expect(brief(r).map((t) => t[1])).toEqual(["SMS"]);
  });

  test("label/value pairs under a sheet's table are metadata, not a narration's continuation", () => {
    const r = assembleStatement(
      sheetDoc([
        ["Value Date", "Remarks", "Withdrawals", "Lodgements", "Balance"],
        ["2024-11-06T00:00:00", "SALARY", "", "500", "1500"],
        [],
        ["Account Name", "SANNI AISHA"],
        ["Account Number", "5141268777"],
        ["Opening Balance", "1000"],
      ]),
    );
    expect(brief(r)).toEqual([["2024-11-06", "SALARY", "0.00", "500.00", "1500.00", ""]]);
    expect(r.metadata).toMatchObject({ account_holder: "SANNI AISHA", account_number_masked: "******8777", opening_balance: "1000.00" });
  });
});

describe("sheets", () => {
  test("header row by vocabulary, typed-cell strings, metadata beside labels", () => {
    const r = assembleStatement(
      sheetDoc([
        ["Account Name", "JANE DOE"],
        ["Account Number", "0123456789"],
        ["Opening Balance", "1000"],
        [],
        ["Txn Date", "Remarks", "Withdrawals", "Lodgements", "Balance"],
        ["2024-01-02T00:00:00", "TRANSFER TO 0123456789", "", "500", "1500"],
        ["2024-01-03T10:15:00", "POS", "200.5", "", "1299.5"],
      ]),
    );
    expect(brief(r)).toEqual([
      ["2024-01-02", "TRANSFER TO ******6789", "0.00", "500.00", "1500.00", ""],
      ["2024-01-03", "POS", "200.50", "0.00", "1299.50", ""],
    ]);
    expect(r.transactions[1]!.date).toBe("2024-01-03T10:15:00+01:00");
    expect(r.metadata.account_holder).toBe("JANE DOE");
    expect(r.metadata.account_number_masked).toBe("******6789");
    expect(JSON.stringify(r)).not.toContain("0123456789");
    expect(r.row_wise_reconcilable).toBe(true);
  });
});

describe("sheet date serials", () => {
  test("unformatted Excel date serials under the date heading are dates", () => {
    const r = assembleStatement(
      sheetDoc([
        ["Date", "Narration", "Debit", "Credit", "Balance"],
        ["45292", "SALARY", "", "500.00", "1500.00"],
        ["45293.5", "POS", "100.00", "", "1400.00"],
      ]),
    );
    expect(r.transactions.map((t) => [t.date, t.narration])).toEqual([
      ["2024-01-01T00:00:00+01:00", "SALARY"],
      ["2024-01-02T12:00:00+01:00", "POS"],
    ]);
  });
});

describe("errors", () => {
  const fail = (f: () => unknown): AppError => {
    try {
      f();
    } catch (e) {
      if (e instanceof AppError) return e;
      throw e;
    }
    throw new Error("expected an AppError");
  };
  test("no table: layout_unrecognized with the marker coverage", () => {
    const e = fail(() => assembleStatement(pdfDoc(page(1, [[100, [20, "Zenith Bank statement letter"]]])), {}));
    expect(e.errorClass).toBe("layout_unrecognized");
    expect(e.markerCoverage).toBe(100);
  });
  test("a table without rows: empty_statement", () => {
    const e = fail(() => assembleStatement(pdfDoc(page(1, [[100, [20, "Date"], [100, "Narration"], [400, "Debit"], [460, "Credit"], [520, "Balance"]]])), {}));
    expect(e.errorClass).toBe("empty_statement");
  });
  test("pages without any text item: scanned_document, also when extracted elsewhere", () => {
    expect(fail(() => assembleStatement(pdfDoc(page(1, []), page(2, [])), {})).errorClass).toBe("scanned_document");
  });
  test("an unknown bank override is a validation error", () => {
    expect(fail(() => assembleStatement(pdfDoc(page(1, [[100, [20, "Statement"]]])), { bank: "nope" })).errorClass).toBe("validation_error");
  });
});

describe("clusterIds", () => {
  /** The straightforward version: sort [value, index] pairs, walk them in order. */
  function reference(values: number[], tol: number): { ids: number[]; sizes: number[] } {
    const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
    const ids = new Array<number>(values.length).fill(0);
    const sizes: number[] = [];
    let id = -1;
    let prev = -Infinity;
    for (const [v, i] of order) {
      if (v - prev > tol) {
        id++;
        sizes.push(0);
      }
      ids[i] = id;
      sizes[id]!++;
      prev = v;
    }
    return { ids, sizes };
  }

  test("gives the clusters of sorting the values themselves, ties, -0 and non-finite values included", () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const cases: number[][] = [[], [5], [3, 3, 3], [0, -0, 0.5, -0.5], [1, Number.NaN, 2], [Number.POSITIVE_INFINITY, 1, Number.NEGATIVE_INFINITY]];
    for (let n = 0; n < 300; n++) cases.push(Array.from({ length: 1 + Math.floor(next() * 150) }, () => Math.round(next() * 600 * 4) / 4));
    for (const values of cases) {
      for (const tol of [0, 0.5, 3]) expect({ values, tol, got: clusterIds(values, tol) }).toEqual({ values, tol, got: reference(values, tol) });
    }
  });
});
