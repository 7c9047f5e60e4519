/**
 * Layout rules for bank-app exports the team's own producers never made (issue 13, classes 4-8):
 * very wide tables, timestamps wrapped over four lines, continuation lines, numbers that are not
 * amounts, signed single columns, spaced hyphens, fixed-width pages and the line-length cap.
 * The fixtures in fixtures/wild exercise the same rules on real producers' PDFs.
 */
import { describe, expect, test } from "bun:test";
import { assembleStatement } from "../../src/engine/assemble.ts";
import { headerColumns, labelRole } from "../../src/engine/layout/header.ts";
import { MAX_ITEM_CHARS, MAX_LINE_CHARS, pageLines } from "../../src/engine/layout/lines.ts";
import type { PageText } from "../../src/engine/types.ts";
import { type Piece, page, pdfDoc } from "./layout-helpers.ts";

const brief = (r: ReturnType<typeof assembleStatement>) => r.transactions.map((t) => [t.date, t.narration, t.debit, t.credit, t.balance]);

describe("heading vocabulary of wide exports", () => {
  test.each([
    ["Balance Before", "balance_before"],
    ["Balance After", "balance"],
    ["Previous Balance", "balance_before"],
    ["Settlement Debit", "debit"],
    ["Settlement Credit", "credit"],
    ["Charge", "extra_amount"],
    ["Fee", "extra_amount"],
    ["Debit/Credit(₦)", "amount"],
    ["Debit/Credit", "drcr"],
    ["Posted On", "date"],
    // One amount heading per side, the side named after it.
    ["Amount (DR)", "debit"],
    ["Amount (CR)", "credit"],
    ["Amt Debited", "debit"],
    ["Amount Deposited", "credit"],
    ["Amount Withdrawn", "debit"],
    ["Outgoing", "debit"],
    ["Incoming", "credit"],
    ["Amount", "amount"],
    ["Transaction Amount", "amount"],
    ["RRN", "reference"],
    ["Timestamp", "date"],
    ["Transaction Timestamp", "date"],
  ])("%s -> %s", (label, role) => expect(labelRole(label)).toBe(role as never));

  test("a table headed Amount (DR) / Amount (CR), with no balance to tell the sides apart, reads each side into its column", () => {
    const r = assembleStatement(
      pdfDoc(
        page(
          1,
          [
            [100, [20, "Date"], [90, "Description"], [300, "Amount (DR)"], [380, "Amount (CR)"]],
            [120, [20, "04/02/2025"], [90, "NIP TRANSFER TO ADA OBI"], { r: 350, t: "2,500.00" }],
            [135, [20, "05/02/2025"], [90, "SALARY FEB 2025"], { r: 430, t: "50,000.00" }],
            [150, [20, "06/02/2025"], [90, "POS PURCHASE SPAR"], { r: 350, t: "1,200.00" }],
          ],
          700,
        ),
      ),
    );
    expect(r.transactions.map((t) => [t.narration, t.debit, t.credit])).toEqual([
      ["NIP TRANSFER TO ADA OBI", "2500.00", "0.00"],
      ["SALARY FEB 2025", "0.00", "50000.00"],
      ["POS PURCHASE SPAR", "1200.00", "0.00"],
    ]);
  });

  test("two headings printed with no gap are cut into their labels", () => {
    const lines = pageLines(page(1, [[100, [20, "Date"], [100, "Narration"], [300, "WithdrawalsLodgements"], [420, "Balance"]]]));
    const cols = headerColumns(lines[0]!)!;
    expect(cols.map((c) => [c.role, c.label])).toEqual([
      ["date", "Date"],
      ["narration", "Narration"],
      ["debit", "Withdrawals"],
      ["credit", "Lodgements"],
      ["balance", "Balance"],
    ]);
    // The cut falls between the two words, in proportion to their characters.
    expect(cols[2]!.x1).toBeCloseTo(cols[3]!.x0, 5);
  });

  test("a run of two money headings and a text one (`Outflow Running Balance Particulars`) is read as the three, pending the figures under it", () => {
    const lines = pageLines(page(1, [[100, [20, "Date"], [80, "Credit"], [150, "Outflow Running Balance Particulars"]]]));
    const run = headerColumns(lines[0]!)![2]!;
    expect(run.merged?.map((c) => [c.role, c.label])).toEqual([
      ["debit", "Outflow"],
      ["balance", "Running Balance"],
      ["narration", "Particulars"],
    ]);
    // An unused column's heading glued to a money heading with no space (`MediumAmount(₦)`), another after it.
    const glued = headerColumns(pageLines(page(1, [[100, [20, "Date"], [80, "Particulars"], [230, "MediumAmount(₦) Balance"]]]))[0]!)!;
    expect(glued[2]!.merged?.map((c) => [c.role, c.label])).toEqual([
      ["other", "Medium"],
      ["amount", "Amount(₦)"],
      ["balance", "Balance"],
    ]);
    // A balance heading run together with a text heading is the two, by their words alone: no
    // second money heading to wait for figures for.
    const balanceAndText = headerColumns(pageLines(page(1, [[100, [20, "Date"], [80, "Credit"], [150, "Running Balance Particulars"], [400, "Debit"]]]))[0]!)!;
    expect(balanceAndText.map((c) => [c.role, c.label, c.merged])).toEqual([
      ["date", "Date", undefined],
      ["credit", "Credit", undefined],
      ["balance", "Running Balance", undefined],
      ["narration", "Particulars", undefined],
      ["debit", "Debit", undefined],
    ]);
  });

  test.each([
    // A text heading before the balance one, and after it (a fixed-width report's headings one space apart).
    ["Transaction Description Available Balance", [["narration", "Transaction Description"], ["balance", "Available Balance"]]],
    ["Ledger Balance Remarks", [["balance", "Ledger Balance"], ["narration", "Remarks"]]],
    // The reading with the fewest labels, `balance` not taking a word that qualifies no balance.
    ["Ledger Balance Transaction Description", [["balance", "Ledger Balance"], ["narration", "Transaction Description"]]],
    // A slash inside the first of the headings; a DR/CR heading before a balance is one of its own.
    ["Dr/Cr Ledger Balance Remarks", [["drcr", "Dr/Cr"], ["balance", "Ledger Balance"], ["narration", "Remarks"]]],
    // Slashed alternatives name one column only when they agree on its role.
    ["DR/CR Amount(₦)", [["drcr", "DR/CR"], ["amount", "Amount(₦)"]]],
    ["Type of Transaction Money Out", [["other", "Type of Transaction"], ["debit", "Money Out"]]],
  ])("`%s` is read as its headings", (run, expected) => {
    const cols = headerColumns(pageLines(page(1, [[100, [20, "Date"], [80, "Credit"], [150, run as string]]]))[0]!)!;
    expect(cols.slice(2).map((c) => [c.role, c.label])).toEqual(expected as [string, string][]);
  });

  test.each([
    ["Balance After", "balance"],
    ["Balance Amount", "balance"],
    ["Balance B/F", "balance_before"],
    ["Ref/Cheque No", "reference"],
    ["Description/Narration", "narration"],
    ["Value Date/Transaction Date", "value_date"],
  ])("`%s` stays one heading (%s)", (label, role) => {
    expect(labelRole(label as string, true)).toBe(role as never);
  });
});

describe("very wide tables", () => {
  test("an ISO timestamp wrapped over four lines is one date; settlement debit/credit are the movement", () => {
    const head: [number, ...[number, string][]] = [
      100,
      [20, "Date"],
      [70, "Narration"],
      [200, "Transaction Amount"],
      [290, "Charge"],
      [325, "Settlement Debit"],
      [405, "Settlement Credit"],
      [490, "Balance Before"],
      [560, "Balance After"],
    ];
    const row = (y: number, ts: string[], narr: string, amt: string, fee: string, d: string, c: string, before: string, after: string): [number, ...({ r: number; t: string } | [number, string])[]][] => [
      [y, [20, ts[0]!], [70, narr], { r: 280, t: amt }, { r: 320, t: fee }, { r: 400, t: d }, { r: 480, t: c }, { r: 550, t: before }, { r: 630, t: after }],
      [y + 9, [20, ts[1]!]],
      [y + 18, [20, ts[2]!]],
      [y + 27, [20, ts[3]!]],
    ];
    const r = assembleStatement(
      pdfDoc(
        page(
          1,
          [
            head,
            ...row(120, ["2025-", "08-", "13T19:", "47:36"], "POS PURCHASE TERMINAL 2057123456", "1,000.00", "10.75", "1,010.75", "0.00", "5,000.00", "3,989.25"),
            ...row(160, ["2025-", "08-", "14T07:", "02:11"], "Transfer from Ada Obi - rent", "2,000.00", "50.00", "0.00", "1,950.00", "3,989.25", "5,939.25"),
            ...row(200, ["2025-", "08-", "14T07:", "09:40"], "AIRTIME MTN 08031234567", "100.00", "0.00", "100.00", "0.00", "5,939.25", "5,839.25"),
          ],
          700,
        ),
      ),
    );
    expect(brief(r)).toEqual([
      ["2025-08-13T19:47:36+01:00", "POS PURCHASE TERMINAL 2057123456", "1010.75", "0.00", "3989.25"],
      ["2025-08-14T07:02:11+01:00", "Transfer from Ada Obi - rent", "0.00", "1950.00", "5939.25"],
      ["2025-08-14T07:09:40+01:00", "AIRTIME MTN 08031234567", "100.00", "0.00", "5839.25"],
    ]);
    expect(r.metadata.opening_balance).toBe("5000.00");
    expect(r.row_wise_reconcilable).toBe(true);
  });
});

describe("numbers that are not amounts", () => {
  test("a phone or meter number drawn apart at the end of a narration, next to the debit column, is text", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [100, [20, "Date"], [90, "Description"], [300, "Debit"], [370, "Credit"], [450, "Balance"]],
          [112, [20, "01/03/2025"], [90, "AIRTIME MTN"], [250, "08031234567"], { r: 360, t: "" }, { r: 430, t: "5,000.00" }, { r: 520, t: "5,000.00" }],
          [124, [20, "02/03/2025"], [90, "PREPAID TOKEN METER"], [250, "45012345678"], { r: 340, t: "1,500.00" }, { r: 520, t: "3,500.00" }],
          [136, [20, "03/03/2025"], [90, "SESSION"], [250, "000015245662"], { r: 340, t: "500.00" }, { r: 520, t: "3,000.00" }],
        ]),
      ),
    );
    expect(brief(r).map((t) => t.slice(1))).toEqual([
      ["AIRTIME MTN 08031234567", "0.00", "5000.00", "5000.00"],
      ["PREPAID TOKEN METER 45012345678", "1500.00", "0.00", "3500.00"],
      ["SESSION 000015245662", "500.00", "0.00", "3000.00"],
    ]);
  });
});

describe("signed single amount columns", () => {
  test("Debit/Credit(₦) with +/- signs", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [100, [20, "Date"], [100, "Description"], [300, "Debit/Credit(₦)"], [420, "Balance(₦)"]],
          [112, [20, "01 Sep 2025"], [100, "Salary - September"], { r: 370, t: "+₦50,000.00" }, { r: 480, t: "₦60,000.00" }],
          [124, [20, "02 Sep 2025"], [100, "Transfer to Obi"], { r: 370, t: "-₦1,200.50" }, { r: 480, t: "₦58,799.50" }],
          [136, [20, "03 Sep 2025"], [100, "Airtime"], { r: 370, t: "-₦100.00" }, { r: 480, t: "₦58,699.50" }],
        ]),
      ),
    );
    expect(brief(r).map((t) => t.slice(1))).toEqual([
      ["Salary - September", "0.00", "50000.00", "60000.00"],
      ["Transfer to Obi", "1200.50", "0.00", "58799.50"],
      ["Airtime", "100.00", "0.00", "58699.50"],
    ]);
    expect(r.row_wise_reconcilable).toBe(true);
  });
});

describe("vertically centred rows", () => {
  test("a fee row squeezed between long rows takes none of their spilled lines", () => {
    // Row pitch shorter than the text: the last line of a long row is closer to the fee row below
    // it than to its own date line, so gaps alone would give it to the fee row.
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [100, [20, "Date"], [100, "Details"], [330, "Amount"], [380, "D/C"], [450, "Balance"]],
          [118, [100, "NIP TRANSFER TO ADA OBI"]],
          [127, [20, "01-Oct-2025"], { r: 360, t: "5,000.00" }, [380, "D"], { r: 500, t: "95,000.00" }],
          [136, [100, "SESSION 123456789012345678901234567890"]],
          [141, [20, "01-Oct-2025"], [100, "NIP CHARGE + VAT"], { r: 360, t: "10.75" }, [380, "D"], { r: 500, t: "94,989.25" }],
          [146, [100, "Transfer from Musa Bello - rent"]],
          [155, [20, "02-Oct-2025"], { r: 360, t: "20,000.00" }, [380, "C"], { r: 500, t: "114,989.25" }],
          [164, [100, "OCTOBER"]],
          [172, [100, "POS PURCHASE SHOPRITE"]],
          [181, [20, "03-Oct-2025"], { r: 360, t: "3,000.00" }, [380, "D"], { r: 500, t: "111,989.25" }],
          [190, [100, "TERMINAL 2057123456"]],
        ]),
      ),
    );
    expect(brief(r).map((t) => t.slice(1))).toEqual([
      ["NIP TRANSFER TO ADA OBI SESSION 123456789012345678901234567890", "5000.00", "0.00", "95000.00"],
      ["NIP CHARGE + VAT", "10.75", "0.00", "94989.25"],
      ["Transfer from Musa Bello - rent OCTOBER", "0.00", "20000.00", "114989.25"],
      ["POS PURCHASE SHOPRITE TERMINAL 2057123456", "3000.00", "0.00", "111989.25"],
    ]);
  });
});

describe("rows cut by a page break", () => {
  test("a centred row whose figures end one page and whose date cell heads the next takes that date", () => {
    const head: [number, ...[number, string][]] = [60, [20, "Date"], [100, "Narration"], [300, "Debit"], [370, "Credit"], [450, "Balance"]];
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          head,
          [80, [20, "2025-11-14"], [100, "SALARY NOV 2025 - ACME"], { r: 430, t: "9,000.00" }, { r: 520, t: "10,000.00" }],
          [92, [100, "Transfer from Ada - rent"], { r: 360, t: "" }, { r: 430, t: "500.00" }, { r: 520, t: "10,500.00" }],
        ]),
        page(2, [head, [74, [20, "2025-11-16"]], [90, [20, "2025-11-17"], [100, "POS PURCHASE"], { r: 350, t: "1,500.00" }, { r: 520, t: "9,000.00" }]]),
      ),
    );
    expect(brief(r).map((t) => [String(t[0]).slice(0, 10), t[1]])).toEqual([
      ["2025-11-14", "SALARY NOV 2025 - ACME"],
      ["2025-11-16", "Transfer from Ada - rent"],
      ["2025-11-17", "POS PURCHASE"],
    ]);
    expect(r.row_wise_reconcilable).toBe(true);
  });
});

describe("currency codes after amounts", () => {
  test("an amount drawn with its code after it in one string is one amount, each in its own column", () => {
    const head: [number, ...[number, string][]] = [60, [20, "Timestamp"], [130, "Details"], [300, "Debit"], [370, "Credit"], [450, "Balance"]];
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          head,
          [80, [20, "2026-01-02T14:55:35"], [130, "TRANSFER FROM MUSA ALI"], { r: 410, t: "5,000.00 NGN" }, { r: 520, t: "15,000.00 NGN" }],
          [92, [20, "2026-01-02T21:39:29"], [130, "POS PURCHASE SPAR"], { r: 340, t: "1,500.00 NGN" }, { r: 520, t: "13,500.00 NGN" }],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2026-01-02T14:55:35+01:00", "TRANSFER FROM MUSA ALI", "0.00", "5000.00", "15000.00"],
      ["2026-01-02T21:39:29+01:00", "POS PURCHASE SPAR", "1500.00", "0.00", "13500.00"],
    ]);
    expect(r.transactions.map((t) => t.reference)).toEqual(["", ""]);
  });
});

describe("app histories that list failed attempts", () => {
  test("a row whose status says it failed is no transaction (the notes say so); a narration filling its cell before a Type column is cut there", () => {
    const head: [number, ...[number, string][]] = [60, [20, "Date"], [120, "Description"], [300, "Type"], [350, "Amount"], [410, "Status"], [480, "Balance"]];
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          head,
          [80, [20, "2026-01-03 03:50:07"], [120, "TRANSFER FROM ADA OBI"], [300, "Credit"], { r: 395, t: "5,000.00" }, [410, "Successful"], { r: 520, t: "15,000.00" }],
          // The attempt shows an amount, and the balance it did not move.
          [92, [20, "2026-01-03 11:12:26"], [120, "TRANSFER TO TUNDE"], [300, "Debit"], { r: 395, t: "12,345.00" }, [410, "Failed"], { r: 520, t: "15,000.00" }],
          // The narration fills its cell: "Debit" arrives in the same run, starting at the Type column.
          [104, [20, "2026-01-03 18:38:17"], [120, "TRANSFER TO CHIOMA EZE FOR RENT AND BILL Debit"], { r: 395, t: "1,000.00" }, [410, "Successful"], { r: 520, t: "14,000.00" }],
        ]),
      ),
    );
    expect(brief(r)).toEqual([
      ["2026-01-03T03:50:07+01:00", "TRANSFER FROM ADA OBI", "0.00", "5000.00", "15000.00"],
      ["2026-01-03T18:38:17+01:00", "TRANSFER TO CHIOMA EZE FOR RENT AND BILL", "1000.00", "0.00", "14000.00"],
    ]);
    expect(r.row_wise_reconcilable).toBe(true);
    expect(r.checks.notes.some((n) => n.startsWith("1 row(s) marked as failed were not read as transactions") && n.includes("TRANSFER TO TUNDE"))).toBe(true);
  });
});

describe("dates printed without their year", () => {
  test("take the year from the statement period and keep the time printed in a time column", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          [40, [20, "Account Name: ADA OBI"]],
          [52, [20, "Period: 01 Dec 2025 to 31 Jan 2026"]],
          [100, [20, "Date"], [80, "Time"], [140, "Description"], [330, "Amount"], [430, "Balance"]],
          [118, [20, "02 Dec"], [80, "09:15"], [140, "TRANSFER FROM TUNDE"], { r: 380, t: "+5,000.00" }, { r: 480, t: "15,000.00" }],
          [132, [20, "04 Jan"], [80, "5:40 PM"], [140, "POS PURCHASE SPAR"], { r: 380, t: "-1,200.00" }, { r: 480, t: "13,800.00" }],
        ]),
      ),
    );
    expect(r.transactions.map((t) => t.date)).toEqual(["2025-12-02T09:15:00+01:00", "2026-01-04T17:40:00+01:00"]);
  });
});

describe("wrapped narrations", () => {
  test("a line that breaks after a hyphen inside a token joins the next without a space; a spaced dash stays a separator", () => {
    const head: [number, ...[number, string][]] = [60, [20, "Date"], [100, "Narration"], [300, "Debit"], [370, "Credit"], [450, "Balance"]];
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          head,
          [80, [20, "2025-11-14"], [100, "PAYMENT FOR INVOICE INV-"], { r: 350, t: "1,000.00" }, { r: 520, t: "9,000.00" }],
          [90, [100, "3002 LOGISTICS"]],
          [104, [20, "2025-11-15"], [100, "TRANSFER TO ADA OBI -"], { r: 350, t: "500.00" }, { r: 520, t: "8,500.00" }],
          [114, [100, "RENT"]],
        ]),
      ),
    );
    expect(r.transactions.map((t) => t.narration)).toEqual(["PAYMENT FOR INVOICE INV-3002 LOGISTICS", "TRANSFER TO ADA OBI - RENT"]);
  });
});

describe("fixed-width pages", () => {
  /** Courier-like: every character advances 4.8 pt, each word drawn as its own item. */
  const mono = (lines: [number, string][]): PageText => {
    const items = lines.flatMap(([y, text]) => {
      const out: PageText["items"] = [];
      const re = /\S+/g;
      for (let m = re.exec(text); m; m = re.exec(text)) out.push({ str: m[0], x: 40 + m.index * 4.8, y, width: m[0].length * 4.8, height: 6 });
      return out;
    });
    return { number: 1, width: 842, height: 595, items };
  };
  const fmt = (d: string, n: string, dr: string, cr: string, bal: string) => `${d.padEnd(12)}${n.padEnd(40)}${dr.padStart(12)}  ${cr.padStart(12)}  ${bal.padStart(12)}`;

  test("one space joins words, two part columns; a spaced hyphen and a 30-digit session line stay in the narration", () => {
    const rows: [number, string][] = [
      [60, fmt("DATE", "NARRATION", "DEBIT", "CREDIT", "BALANCE")],
      [70, fmt("02-JUN-25", "Transfer from Ada Obi - rent 2025", "", "5,000.00", "15,000.00")],
      [80, `${"".padEnd(12)}102938475610293847561029384756`],
      [90, fmt("03-JUN-25", "AIRTIME MTN 08031234567", "100.00", "", "14,900.00")],
      [100, fmt("04-JUN-25", "SCHOOL FEES 2025", "4,900.00", "", "10,000.00")],
      [110, fmt("05-JUN-25", "SALARY JUNE - ACME LTD", "", "2,000.00", "12,000.00")],
      [120, fmt("06-JUN-25", "POS PURCHASE", "1,000.00", "", "11,000.00")],
    ];
    // The page needs enough measured items to count as fixed-width.
    const r = assembleStatement(pdfDoc(mono(rows)));
    expect(brief(r).map((t) => t.slice(1))).toEqual([
      ["Transfer from Ada Obi - rent 2025 102938475610293847561029384756", "0.00", "5000.00", "15000.00"],
      ["AIRTIME MTN 08031234567", "100.00", "0.00", "14900.00"],
      ["SCHOOL FEES 2025", "4900.00", "0.00", "10000.00"],
      ["SALARY JUNE - ACME LTD", "0.00", "2000.00", "12000.00"],
      ["POS PURCHASE", "1000.00", "0.00", "11000.00"],
    ]);
  });
});

describe("a fixed-width table boxed in characters", () => {
  /** One drawn string per line, Courier's 0.6 em advance at 8 pt. */
  const report = (lines: string[]): PageText => ({
    number: 1, width: 842, height: 595,
    items: lines.map((str, k) => ({ str, x: 40, y: 60 + 10 * k, width: str.length * 4.8, height: 8 })),
  });
  const boxed = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const border = "+------------+------------------------------------------+------------+------------+";
  const row = (d: string, n: string, amt: string, bal: string) => boxed([d.padEnd(10), n.padEnd(40), amt.padStart(10), bal.padStart(10)]);

  test("the `|` a table's lines share at one column is a rule between cells; a narration's own `|` stays", () => {
    const r = assembleStatement(
      pdfDoc(
        report([
          border,
          row("Date", "Narration", "Amount", "Balance"),
          border,
          row("02/01/2026", "Transfer from ADA OBI | Access Bank |", "5,000.00", "15,000.00"),
          row("", "0123456789", "", ""),
          row("03/01/2026", "AIRTIME MTN 08031234567", "-100.00", "14,900.00"),
          row("04/01/2026", "Transfer from BOLA ADE | Access Bank |", "1,000.00", "15,900.00"),
          row("", "0987654321", "", ""),
          border,
        ]),
      ),
    );
    expect(brief(r).map((t) => t.slice(1))).toEqual([
      ["Transfer from ADA OBI | Access Bank | 0123456789", "0.00", "5000.00", "15000.00"],
      ["AIRTIME MTN 08031234567", "100.00", "0.00", "14900.00"],
      ["Transfer from BOLA ADE | Access Bank | 0987654321", "0.00", "1000.00", "15900.00"],
    ]);
  });
});

describe("fixed-width pages at several sizes", () => {
  test("a title and facts printed larger than the table keep the page fixed-width: one space joins words at every size", () => {
    // Each word its own item, Liberation Mono's proportions (an advance of 0.6 of the size).
    const items: PageText["items"] = [];
    const line = (y: number, size: number, cells: [number, string][]) => {
      for (const [col, text] of cells) {
        const re = /\S+/g;
        for (let m = re.exec(text); m; m = re.exec(text)) items.push({ str: m[0], x: 40 + (col + m.index) * 0.6 * size, y, width: m[0].length * 0.6 * size, height: size });
      }
    };
    line(30, 16, [[0, "STATEMENT OF ACCOUNT"]]);
    line(60, 11, [[0, "Name of Account:"], [20, "ADEOLA JOHNSON"]]);
    line(75, 11, [[0, "Account Number:"], [20, "0123456789"]]);
    line(90, 11, [[0, "Opening Balance:"], [20, "10,000.00"]]);
    line(110, 8, [[0, "Date"], [12, "Narration"], [50, "Debit"], [62, "Credit"], [74, "Balance"]]);
    const narrations = ["Transfer from Ada Obi rent", "AIRTIME MTN 08031234567", "POS PURCHASE SPAR LEKKI"];
    narrations.forEach((n, k) => line(122 + 12 * k, 8, [[0, `0${k + 2}/01/2026`], [12, n], [50, "100.00"], [74, `${(9900 - 100 * k).toLocaleString("en")}.00`]]));
    const r = assembleStatement(pdfDoc({ number: 1, width: 595, height: 842, items }));
    expect(r.metadata.account_holder).toBe("ADEOLA JOHNSON");
    expect(r.transactions.map((t) => t.narration)).toEqual(narrations);
  });
});

describe("line length", () => {
  test("a one-line megabyte is cut to the line cap before any pattern reads it", () => {
    const huge = "A".repeat(1 << 20);
    const lines = pageLines(page(1, [[100, [20, huge], [30, "1".repeat(1 << 20)], [40, `${"9 ".repeat(1 << 19)}`]]]));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text.length).toBeLessThanOrEqual(MAX_LINE_CHARS + 10);
    for (const c of lines[0]!.cells) expect(c.text.length).toBeLessThanOrEqual(MAX_LINE_CHARS);
    expect(MAX_ITEM_CHARS).toBeLessThan(MAX_LINE_CHARS);
  });
});

describe("a row's own time when its date heads the next page", () => {
  test("figures and time at one page's foot, dated by the next page's first line: the row keeps its time", () => {
    const head: [number, ...Piece[]] = [100, [40, "Date"], [110, "Time"], [170, "Narration"], { r: 390, t: "Debit" }, { r: 460, t: "Credit" }, { r: 540, t: "Balance" }];
    const doc = pdfDoc(
      page(1, [
        head,
        [120, [40, "02/01/2026"], [110, "09:15:00"], [170, "Transfer from Ada"], { r: 460, t: "5,000.00" }, { r: 540, t: "15,000.00" }],
        // WeasyPrint cut this row: its figures and time here, its date cell and narration over the page.
        [780, [110, "22:52:10"], { r: 390, t: "1,000.00" }, { r: 540, t: "14,000.00" }],
      ]),
      page(2, [
        [40, [40, "Date"], [110, "Time"], [170, "Narration"], { r: 390, t: "Debit" }, { r: 460, t: "Credit" }, { r: 540, t: "Balance" }],
        [60, [40, "03/01/2026"], [170, "Transfer to Bola"]],
        [80, [40, "03/01/2026"], [110, "23:10:00"], [170, "POS PURCHASE"], { r: 390, t: "500.00" }, { r: 540, t: "13,500.00" }],
      ]),
    );
    const r = assembleStatement(doc);
    expect(r.transactions.map((t) => [t.date, t.debit, t.balance])).toEqual([
      ["2026-01-02T09:15:00+01:00", "0.00", "15000.00"],
      ["2026-01-03T22:52:10+01:00", "1000.00", "14000.00"],
      ["2026-01-03T23:10:00+01:00", "500.00", "13500.00"],
    ]);
  });
});
