/**
 * Rules found by printing statement layouts drawn at random (fixtures/wild/_gen/layout-fuzz.ts):
 * cells that wrap in tight HTML tables, headings that name a time, signs on currency marks, labels
 * wrapped around their figures, a row's end alone on the last page. The wild corpus holds the
 * Chromium documents (`chromium-layout-*`); these pin each rule on its own, with the case it must
 * leave alone.
 */
import { describe, expect, test } from "bun:test";
import { assembleStatement, documentLines } from "../../src/engine/assemble.ts";
import { stitchBrokenDates } from "../../src/engine/layout/stitch.ts";
import { splitTyped } from "../../src/engine/layout/cells.ts";
import type { Piece } from "./layout-helpers.ts";
import { page, pdfDoc } from "./layout-helpers.ts";

type Line = [number, ...Piece[]];
const FACTS: Line[] = [
  [40, [20, "Account Name: ADA OBI"]],
  [52, [20, "Account Number: 0123456789"]],
];
const OPENING: Line = [64, [20, "Opening Balance: 10,000.00"]];
const brief = (r: ReturnType<typeof assembleStatement>) => r.transactions.map((t) => [t.date, t.narration, t.debit, t.credit, t.balance]);
const read = (...pages: Line[][]) => assembleStatement(pdfDoc(...pages.map((lines, i) => page(i + 1, lines))));

describe("wrapped narrations", () => {
  const HEAD: Line = [100, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
  test("a bare number under the last line of a wrapped narration ends it; a page number at the foot stays out", () => {
    const r = read([
      ...FACTS,
      OPENING,
      HEAD,
      [120, [90, "TRANSFER TO ADA OBI"]],
      [132, [20, "02/01/2026"], [90, "FOR RENT AND OTHER"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [144, [90, "EXPENSES"]],
      [156, [90, "27"]],
      [180, [90, "TRANSFER FROM TUNDE"], [20, "03/01/2026"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
      [800, [290, "2"]],
    ]);
    expect(brief(r)[0]![1]).toBe("TRANSFER TO ADA OBI FOR RENT AND OTHER EXPENSES 27");
    expect(brief(r)[1]![1]).toBe("TRANSFER FROM TUNDE");
    expect(r.row_wise_reconcilable).toBe(true);
  });
});

describe("a column of times beside the date (too far from it to be read as one date and time)", () => {
  test("a second date heading that names a time heads the rows' times", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Trans. Date"], [110, "Trans. Time"], [170, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]],
      [120, [20, "02/01/2026"], [110, "14:05:09"], [170, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [134, [20, "03/01/2026"], [110, "08:00:00"], [170, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
    ]);
    expect(brief(r).map((t) => t[0])).toEqual(["2026-01-02T14:05:09+01:00", "2026-01-03T08:00:00+01:00"]);
  });

  test("a second date-headed column that prints only times is the rows' time column", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [110, "Timestamp"], [170, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]],
      [120, [20, "02/01/2026"], [110, "14:05:09"], [170, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [134, [20, "03/01/2026"], [110, "08:00:00"], [170, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
    ]);
    expect(brief(r).map((t) => t[0])).toEqual(["2026-01-02T14:05:09+01:00", "2026-01-03T08:00:00+01:00"]);
  });

  test("a value date column of dates stays a value date", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Trans. Date"], [80, "Value Date"], [170, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]],
      [120, [20, "02/01/2026"], [80, "03/01/2026"], [170, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [134, [20, "03/01/2026"], [80, "04/01/2026"], [170, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
    ]);
    expect(brief(r).map((t) => t[0])).toEqual(["2026-01-02T00:00:00+01:00", "2026-01-03T00:00:00+01:00"]);
  });
});

describe("signs and parentheses on currency marks", () => {
  const HEAD: Line = [100, [20, "Date"], [90, "Description"], [260, "Reference"], [380, "Amount"], [470, "Balance"]];
  test("-NGN, +NGN and (NGN drawn apart from or with their figure sign it", () => {
    const r = read([
      ...FACTS,
      OPENING,
      HEAD,
      [120, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], [260, "TRX1001"], [370, "-NGN"], { r: 420, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [134, [20, "03/01/2026"], [90, "TRANSFER FROM TUNDE"], [260, "TRX1002"], [370, "+NGN"], { r: 420, t: "500.00" }, { r: 510, t: "9,500.00" }],
      [148, [20, "04/01/2026"], [90, "AIRTIME MTN"], [260, "TRX1003"], { r: 420, t: "(NGN 200.00)" }, { r: 510, t: "9,300.00" }],
    ]);
    expect(brief(r).map((t) => [t[2], t[3]])).toEqual([["1000.00", "0.00"], ["0.00", "500.00"], ["200.00", "0.00"]]);
    expect(r.transactions.map((t) => t.reference)).toEqual(["TRX1001", "TRX1002", "TRX1003"]);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("an amount's DR/CR suffix drawn in one string with the next amount's currency mark still signs it", () => {
    const at = (text: string, x0: number, x1: number) => ({ text, x0, x1 });
    const cells = splitTyped([at("NGN", 364, 390), at("73,200.04", 392, 447), at("CR", 454, 466), at("NGN", 473, 499), at("1,023,650.89", 501, 575)]);
    expect(cells.map((c) => [c.text, c.kind])).toEqual([["NGN 73,200.04 CR", "money"], ["NGN 1,023,650.89", "money"]]);
    // A marker word inside a phrase stays a word.
    expect(splitTyped([at("TOTAL", 10, 40), at("CR", 44, 56), at("NGN", 60, 80)]).map((c) => c.kind)).toEqual(["text"]);
  });

  test("an amount's DR/CR suffix run into the narration right after it signs the amount, not the narration", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [150, "Amount"], [210, "Description"], [470, "Balance"]],
      [120, [20, "02/01/2026"], { r: 200, t: "₦1,000.00" }, [204, "DR POS SPAR LEKKI"], { r: 510, t: "9,000.00" }],
      [134, [20, "03/01/2026"], { r: 200, t: "₦500.00" }, [204, "CR SALARY JAN"], { r: 510, t: "9,500.00" }],
      [148, [20, "04/01/2026"], { r: 200, t: "₦100.00 DR" }, [215, "DR ADAMU CLINIC"], { r: 510, t: "9,400.00" }],
    ]);
    expect(brief(r).map((t) => [t[1], t[2], t[3]])).toEqual([
      ["POS SPAR LEKKI", "1000.00", "0.00"],
      ["SALARY JAN", "0.00", "500.00"],
      // An amount with its own marker leaves the narration's words alone.
      ["DR ADAMU CLINIC", "100.00", "0.00"],
    ]);
  });

  test("a parenthesised amount wrapped after its opening mark is one debit", () => {
    const r = read([
      ...FACTS,
      OPENING,
      HEAD,
      [120, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], [260, "TRX1001"], { r: 420, t: "(NGN" }, { r: 510, t: "9,000.00" }],
      [132, { r: 420, t: "1,000.00)" }],
      [150, [20, "03/01/2026"], [90, "SALARY"], [260, "TRX1002"], { r: 420, t: "500.00" }, { r: 510, t: "9,500.00" }],
    ]);
    expect(brief(r).map((t) => [t[2], t[3]])).toEqual([["1000.00", "0.00"], ["0.00", "500.00"]]);
  });
});

describe("balance labels wrapped around their figure", () => {
  const HEAD: Line = [100, [20, "Date"], [90, "Narration"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
  test("an opening line's label wrapped above and below its figure is no text of the first row", () => {
    const r = read([
      ...FACTS,
      HEAD,
      [116, [90, "BEGINNING"]],
      [122, { r: 510, t: "10,000.00" }],
      [128, [90, "BALANCE"]],
      [146, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [160, [20, "03/01/2026"], [90, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
    ]);
    expect(brief(r).map((t) => t[1])).toEqual(["POS SPAR LEKKI", "SALARY"]);
    expect(r.metadata.opening_balance).toBe("10000.00");
  });

  test("an opening figure above a wrapped date is not claimed as that date's row (a balance alone moved no money)", () => {
    const r = read([
      ...FACTS,
      HEAD,
      [116, [90, "PREVIOUS"]],
      [122, { r: 510, t: "10,000.00" }],
      [128, [90, "BALANCE"]],
      [146, [20, "2026-"], [90, "SALARY"]],
      [152, [20, "01-03"], { r: 440, t: "500.00" }, { r: 510, t: "10,500.00" }],
      [170, [20, "2026-01-04"], [90, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,500.00" }],
    ]);
    expect(brief(r)).toEqual([
      ["2026-01-03T00:00:00+01:00", "SALARY", "0.00", "500.00", "10500.00"],
      ["2026-01-04T00:00:00+01:00", "POS SPAR LEKKI", "1000.00", "0.00", "9500.00"],
    ]);
    expect(r.metadata.opening_balance).toBe("10000.00");
  });

  test("a balance wrapped over two lines and centred in a tall row, its figure above the date line, is that row's balance", () => {
    // The figure above the date line, its CR below it; the narration around both. The first row,
    // with no balance before it in the table, takes its figure unlinked; the second only as the
    // chain links it (10,000.00 - 1,000.00).
    const tall = (y: number, date: string, words: [string, string, string], side: number, amount: string, balance: string): Line[] => [
      [y, [90, words[0]]],
      [y + 7, [90, words[1]], { r: 510, t: balance }],
      [y + 14, [20, date], { r: side, t: amount }],
      [y + 21, [90, words[2]], { r: 510, t: "CR" }],
    ];
    const r = read([
      ...FACTS,
      OPENING,
      HEAD,
      ...tall(120, "02/01/2026", ["TRANSFER FROM", "ADA OBI |", "ACCESS BANK"], 440, "1,000.00", "11,000.00"),
      ...tall(160, "03/01/2026", ["TRANSFER TO", "TUNDE BAKARE", "FOR RENT"], 370, "1,000.00", "10,000.00"),
    ]);
    expect(brief(r)).toEqual([
      ["2026-01-02T00:00:00+01:00", "TRANSFER FROM ADA OBI | ACCESS BANK", "0.00", "1000.00", "11000.00"],
      ["2026-01-03T00:00:00+01:00", "TRANSFER TO TUNDE BAKARE FOR RENT", "1000.00", "0.00", "10000.00"],
    ]);
    expect(r.checks.balances_derived).toBe(false);
  });

  test("a figure alone above a row that the chain does not link to it is not taken as that row's balance", () => {
    const r = read([
      ...FACTS,
      OPENING,
      HEAD,
      [120, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [134, { r: 510, t: "4,321.00" }],
      [141, [20, "03/01/2026"], [90, "SALARY"], { r: 440, t: "500.00" }],
    ]);
    expect(brief(r)[1]![4]).not.toBe("4321.00");
  });

  test("at the foot of a newest-first table the wrapped opening line is the opening, not the closing", () => {
    const r = read([
      ...FACTS,
      HEAD,
      [120, [20, "03/01/2026"], [90, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
      [134, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [150, [90, "OPENING"]],
      [156, { r: 510, t: "10,000.00" }],
      [162, [90, "BALANCE"]],
    ]);
    expect(brief(r).map((t) => t[1])).toEqual(["POS SPAR LEKKI", "SALARY"]);
    expect([r.metadata.opening_balance, r.metadata.closing_balance]).toEqual(["10000.00", "9500.00"]);
    expect(r.checks.verdict).toBe("verified");
  });

  test("a TOTAL label on the line above its figures is no text of the last row", () => {
    const r = read([
      ...FACTS,
      OPENING,
      HEAD,
      [120, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [134, [20, "03/01/2026"], [90, "TRANSFER FROM TUNDE"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
      [146, [90, "BAKARE"]],
      [164, [90, "TOTAL"]],
      [170, { r: 370, t: "1,000.00" }, { r: 440, t: "500.00" }],
    ]);
    expect(brief(r).map((t) => t[1])).toEqual(["POS SPAR LEKKI", "TRANSFER FROM TUNDE BAKARE"]);
  });
});

describe("dates", () => {
  const HEAD: Line = [100, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
  test("a date opening with its weekday, drawn in one string or two, and one wrapped after its day", () => {
    const r = read([
      ...FACTS,
      OPENING,
      HEAD,
      [120, [20, "Fri, 02 Jan 2026"], [90, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [134, [20, "Sat,"], [42, "03 Jan 2026"], [90, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
      [148, [20, "Sun, 04"], [90, "AIRTIME MTN"], { r: 370, t: "100.00" }, { r: 510, t: "9,400.00" }],
      [157, [20, "Jan 2026"]],
    ]);
    expect(brief(r).map((t) => t[0])).toEqual(["2026-01-02T00:00:00+01:00", "2026-01-03T00:00:00+01:00", "2026-01-04T00:00:00+01:00"]);
  });

  test("the day of a value date wrapped over a page break stays in its column, not in the narration", () => {
    const HEAD: Line = [100, [20, "Date"], [80, "Value Date"], [140, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
    const r = read(
      [
        ...FACTS,
        OPENING,
        HEAD,
        [120, [20, "24/01/2026"], [80, "24/01/2026"], [140, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "10,500.00" }],
        [800, [20, "25/01/2026"], [80, "25"], [140, "POS SPAR"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,500.00" }],
        [813, [80, "January"], [140, "LEKKI"]],
      ],
      [[40, ...HEAD.slice(1)] as Line, [56, [80, "2026"]], [80, [20, "26/01/2026"], [80, "26/01/2026"], [140, "AIRTIME"], { r: 370, t: "100.00" }, { r: 510, t: "9,400.00" }]],
    );
    expect(brief(r).map((t) => t[1])).toEqual(["SALARY", "POS SPAR LEKKI", "AIRTIME"]);
  });

  test("a month-first value date wrapped after its month, cut by a page break, leaves its day (`5,`) in its column and the narration's line whole", () => {
    const HEAD: Line = [100, [20, "Date"], [80, "Value Date"], [140, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
    const r = read(
      [
        ...FACTS,
        OPENING,
        HEAD,
        [120, [20, "Jan 4, 2026"], [80, "Jan 4, 2026"], [140, "AIRTIME"], { r: 370, t: "100.00" }, { r: 510, t: "9,900.00" }],
        [800, [20, "Jan 5,"], [80, "Jan"], [140, "TRANSFER"], { r: 440, t: "500.00" }, { r: 510, t: "10,400.00" }],
        [809, [20, "2026"], [80, "5,"], [140, "FROM ADA"]],
      ],
      [[40, ...HEAD.slice(1)] as Line, [56, [80, "2026"], [140, "OBI"]], [80, [20, "Jan 6, 2026"], [80, "Jan 6, 2026"], [140, "SALARY"], { r: 440, t: "100.00" }, { r: 510, t: "10,500.00" }]],
    );
    expect(brief(r).map((t) => t[1])).toEqual(["AIRTIME", "TRANSFER FROM ADA OBI", "SALARY"]);
  });

  test("a transaction date and a value date both wrapped over three lines are both put back on the row's line", () => {
    const lines = documentLines(
      pdfDoc(page(1, [
        [100, [20, "Date"], [80, "Value Date"], [140, "Description"], [330, "Debit"], [470, "Balance"]],
        [120, [20, "04"], [80, "04"], [140, "TRANSFER TO"], { r: 370, t: "1,000.00" }, { r: 510, t: "8,900.00" }],
        [129, [20, "Feb,"], [80, "Feb,"], [140, "ADA OBI FOR"]],
        [138, [20, "2026"], [80, "2026"], [140, "RENT AND"]],
      ])),
    );
    const stitched = stitchBrokenDates(lines).map((l) => l.cells.map((c) => c.text));
    expect(stitched.slice(1)).toEqual([["04 Feb, 2026", "04 Feb, 2026", "TRANSFER TO", "1,000.00", "8,900.00"], ["ADA OBI FOR"], ["RENT AND"]]);
  });

  test("an ordinal day with its month, wrapped before its year, is put back on the row's line", () => {
    const lines = documentLines(
      pdfDoc(page(1, [
        [100, [20, "Date"], [140, "Description"], [330, "Debit"], [470, "Balance"]],
        [120, [20, "3rd Feb"], [140, "TRANSFER FROM ADA"], { r: 370, t: "1,000.00" }, { r: 510, t: "8,900.00" }],
        [129, [20, "2026"], [140, "ACCESS BANK"]],
      ])),
    );
    expect(stitchBrokenDates(lines).slice(1).map((l) => l.cells.map((c) => c.text))).toEqual([["3rd Feb 2026", "TRANSFER FROM ADA", "1,000.00", "8,900.00"], ["ACCESS BANK"]]);
  });

  test("a month-first date wrapped before its year, the time beside the year, keeps its year and time", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [140, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]],
      [120, [20, "Jan 10,"], [140, "TRANSFER TO ADA"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [129, [20, "2026"], [44, "6:11"]],
      [138, [20, "AM"]],
      [156, [20, "Jan 11,"], [140, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
      [165, [20, "2026"], [44, "3:05"]],
      [174, [20, "PM"]],
    ]);
    expect(brief(r).map((t) => t[0])).toEqual(["2026-01-10T06:11:00+01:00", "2026-01-11T15:05:00+01:00"]);
  });

  test("a weekday wrapped onto its own line above the rest of its date starts that date", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [90, "Time"], [140, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]],
      [120, [20, "Sun,"], [90, "14:15:46"], [140, "TRANSFER TO ADA"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [129, [20, "11 Jan"]],
      [138, [20, "2026"]],
      [156, [20, "Mon,"], [90, "08:00:00"], [140, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
      [165, [20, "12 Jan"]],
      [174, [20, "2026"]],
    ]);
    expect(brief(r).map((t) => t[0])).toEqual(["2026-01-11T14:15:46+01:00", "2026-01-12T08:00:00+01:00"]);
  });

  /** A first row whose date wraps over three lines ("4" / "January" / "2026"). */
  const AIRTIME_WRAPPED: Line[] = [
    [120, [20, "4"], [90, "AIRTIME"], { r: 370, t: "100.00" }, { r: 510, t: "9,900.00" }],
    [129, [20, "January"]],
    [138, [20, "2026"]],
  ];

  test("a date wrapped across a page break goes on past the next page's repeated headings, and no row takes the next row's date", () => {
    const HEAD: Line = [100, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
    const r = read(
      [
        ...FACTS,
        OPENING,
        HEAD,
        ...AIRTIME_WRAPPED,
        [790, [20, "5"], [90, "TRANSFER TO ADA"], { r: 370, t: "1,000.00" }, { r: 510, t: "8,900.00" }],
        [799, [20, "January"]],
      ],
      [
        [40, [20, "Txn"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]],
        [49, [20, "Date"]],
        [64, [20, "2026"]],
        [80, [20, "6"], [90, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,400.00" }],
        [89, [20, "January"]],
        [98, [20, "2026"]],
      ],
    );
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2026-01-04T00:00:00+01:00", "AIRTIME"],
      ["2026-01-05T00:00:00+01:00", "TRANSFER TO ADA"],
      ["2026-01-06T00:00:00+01:00", "SALARY"],
    ]);
  });

  test("an ordinal day wrapped over three lines is one date", () => {
    const r = read([
      ...FACTS,
      OPENING,
      HEAD,
      [120, [20, "2nd"], [90, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [129, [20, "Jan"]],
      [138, [20, "2026"]],
      [156, [20, "3rd"], [90, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
      [165, [20, "Jan"]],
      [174, [20, "2026"]],
    ]);
    expect(brief(r).map((t) => t[0])).toEqual(["2026-01-02T00:00:00+01:00", "2026-01-03T00:00:00+01:00"]);
  });

  test("a date wrapped at a page's end above the page's footer goes on at the next page's top, past its banner and headings", () => {
    const FOOTER = "Generated on 27 Nov 2026. Questions? Call 0700 225 5678.";
    const HEAD2: Line = [56, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
    const r = read(
      [
        ...FACTS,
        OPENING,
        HEAD,
        ...AIRTIME_WRAPPED,
        [780, [20, "5"], [90, "TRANSFER TO ADA"], { r: 370, t: "1,000.00" }, { r: 510, t: "8,900.00" }],
        [789, [20, "January"]],
        // The footer right under the row (its words on the date's edge) ...
        [800, [20, FOOTER]],
      ],
      [
        [40, [20, "Customer Statement"], [150, "printed 27/11/2026 10:14:05"]],
        HEAD2,
        [72, [20, "2026"]],
        [90, [20, "6"], [90, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,400.00" }],
        [99, [20, "January"]],
        // ... or well below it.
        [800, [20, FOOTER]],
      ],
      [[40, [20, "Customer Statement"], [150, "printed 27/11/2026 10:14:05"]], HEAD2, [72, [20, "2026"]], [90, [20, "7"], [90, "POS SPAR"], { r: 370, t: "400.00" }, { r: 510, t: "9,000.00" }], [99, [20, "January"]], [108, [20, "2026"]]],
    );
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2026-01-04T00:00:00+01:00", "AIRTIME"],
      ["2026-01-05T00:00:00+01:00", "TRANSFER TO ADA"],
      ["2026-01-06T00:00:00+01:00", "SALARY"],
      ["2026-01-07T00:00:00+01:00", "POS SPAR"],
    ]);
  });

  test("a time under a wrapped date is the row's time, also when the page break puts it at the next page's top; no other date goes on there", () => {
    const pages: Line[][] = [
      [
        ...FACTS,
        OPENING,
        HEAD,
        [120, [20, "4 January"], [90, "AIRTIME"], { r: 370, t: "100.00" }, { r: 510, t: "9,900.00" }],
        [129, [20, "2026"]],
        [138, [20, "08:06:19"]],
        [780, [20, "5 January"], [90, "TRANSFER TO ADA"], { r: 370, t: "1,000.00" }, { r: 510, t: "8,900.00" }],
        [789, [20, "2026"]],
        [810, [20, "Generated on 27 Nov 2026."]],
      ],
      [
        [56, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]],
        [72, [20, "13:13:43"]],
        [90, [20, "6 January"], [90, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,400.00" }],
        [99, [20, "2026"]],
        [108, [20, "17:40:02"]],
        [780, [20, "7 January"], [90, "POS SPAR"], { r: 370, t: "400.00" }, { r: 510, t: "9,000.00" }],
        [789, [20, "2026"]],
      ],
      [[56, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]], [90, [20, "8 January"], [90, "AIRTIME"], { r: 370, t: "100.00" }, { r: 510, t: "8,900.00" }], [99, [20, "2026"]]],
    ];
    // The time joins its date with a space ("2026" and "08:06:19" are no one number).
    const dates = stitchBrokenDates(documentLines(pdfDoc(...pages.map((lines, i) => page(i + 1, lines))))).flatMap((l) => l.cells.filter((c) => c.kind === "date").map((c) => c.text));
    expect(dates.filter((d) => d.includes("January"))).toEqual(["4 January 2026 08:06:19", "5 January 2026 13:13:43", "6 January 2026 17:40:02", "7 January 2026", "8 January 2026"]);
    const r = read(...pages);
    expect(brief(r).map((t) => t[0])).toEqual([
      "2026-01-04T08:06:19+01:00",
      "2026-01-05T13:13:43+01:00",
      "2026-01-06T17:40:02+01:00",
      "2026-01-07T00:00:00+01:00",
      "2026-01-08T00:00:00+01:00",
    ]);
  });

  test("a 12-hour time goes on a wrapped date as a 24-hour one does, at the date's own pitch: a footer's time below a gap does not", () => {
    const lines = documentLines(
      pdfDoc(
        page(1, [
          [100, [20, "Date"], [90, "Description"], [330, "Debit"], [470, "Balance"]],
          [120, [20, "4 January"], [90, "AIRTIME"], { r: 370, t: "100.00" }, { r: 510, t: "9,900.00" }],
          [129, [20, "2026"]],
          [138, [20, "9:03AM"]],
          [780, [20, "5 January"], [90, "TRANSFER TO ADA"], { r: 370, t: "1,000.00" }, { r: 510, t: "8,900.00" }],
          [789, [20, "2026"]],
          [801, [20, "10:14 AM."], [60, "Questions? Call 0700 225 5678."]],
        ]),
        page(2, [
          [56, [20, "Date"], [90, "Description"], [330, "Debit"], [470, "Balance"]],
          [72, [20, "5:18PM"], [90, "0921685244"]],
          [90, [20, "6 January"], [90, "SALARY"], { r: 370, t: "500.00" }, { r: 510, t: "9,400.00" }],
          [99, [20, "2026"]],
        ]),
      ),
    );
    const dates = stitchBrokenDates(lines).flatMap((l) => l.cells.filter((c) => c.kind === "date").map((c) => c.text));
    expect(dates).toEqual(["4 January 2026 9:03AM", "5 January 2026 5:18PM", "6 January 2026"]);
  });
});

describe("dates cut by a page break or set apart from their time", () => {
  const HEAD: Line = [100, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
  const HEAD2: Line = [56, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
  test("a weekday date cut after its day at a page's end takes its month's name and year from the next page's top, past the repeated headings", () => {
    const r = read(
      [...FACTS, OPENING, HEAD, [120, [20, "Fri, 16"], [90, "POS SPAR"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }], [129, [20, "Jan 2026"]], [780, [20, "Sat,"], [90, "TRANSFER TO ADA"], { r: 370, t: "500.00" }, { r: 510, t: "8,500.00" }], [789, [20, "17"]]],
      [HEAD2, [72, [20, "Jan"]], [81, [20, "2026"]], [100, [20, "Sun, 18"], [90, "SALARY"], { r: 440, t: "200.00" }, { r: 510, t: "8,700.00" }], [109, [20, "Jan 2026"]]],
    );
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2026-01-16T00:00:00+01:00", "POS SPAR"],
      ["2026-01-17T00:00:00+01:00", "TRANSFER TO ADA"],
      ["2026-01-18T00:00:00+01:00", "SALARY"],
    ]);
  });

  test("a date's month printed a word space before the narration, as one fixed-width run (`1` over `February for rent` over `2026`), is the date's", () => {
    const row = (y: number, n: string, day: string, middle: string, figures: Piece[]): Line[] => [[y - 8, [60, day]], [y, [20, n], [60, middle], ...figures], [y + 8, [60, "2026"]]];
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "#"], [60, "Date"], [100, "Description"], { r: 400, t: "Debit" }, { r: 460, t: "Credit" }, { r: 530, t: "Balance" }],
      ...row(126, "1", "31", "January  POS SPAR", [{ r: 400, t: "1,000.00" }, { r: 530, t: "9,000.00" }]),
      ...row(160, "2", "1", "February for rent", [{ r: 400, t: "500.00" }, { r: 530, t: "8,500.00" }]),
      ...row(194, "3", "2", "February salary", [{ r: 460, t: "2,000.00" }, { r: 530, t: "10,500.00" }]),
    ]);
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2026-01-31T00:00:00+01:00", "POS SPAR"],
      ["2026-02-01T00:00:00+01:00", "for rent"],
      ["2026-02-02T00:00:00+01:00", "salary"],
    ]);
  });

  test("a date cut by the page break goes on past a footer sentence whose own date lies on its edge", () => {
    const HEADS: Line = [100, [20, "#"], [80, "Date"], [150, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
    const r = read(
      [
        ...FACTS,
        OPENING,
        HEADS,
        [120, [20, "1"], [80, "04-01-2026"], [150, "AIRTIME"], { r: 370, t: "100.00" }, { r: 510, t: "9,900.00" }],
        [770, [20, "2"], [80, "05-"], [150, "TRANSFER TO ADA"], { r: 370, t: "1,000.00" }, { r: 510, t: "8,900.00" }],
        [779, [80, "01-"]],
        [800, [20, "Generated on"], [80, "27 Nov 2026"], [140, "at 10:14. Questions? Call 0700 225 5678 or write to us."]],
      ],
      [[56, [20, "#"], [80, "Date"], [150, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]], [72, [80, "2026"]], [90, [20, "3"], [80, "06-01-2026"], [150, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,400.00" }]],
    );
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2026-01-04T00:00:00+01:00", "AIRTIME"],
      ["2026-01-05T00:00:00+01:00", "TRANSFER TO ADA"],
      ["2026-01-06T00:00:00+01:00", "SALARY"],
    ]);
  });

  test("a day-first date wrapped after its month's comma, its time a wide space after the year and the meridiem under it, keeps the time", () => {
    const r = read([
      ...FACTS,
      OPENING,
      HEAD,
      [120, [20, "02 Jan,"]],
      [129, [20, "2026"], [46, "12:51"], [90, "POS SPAR"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [138, [20, "PM"]],
      [156, [20, "03 Jan,"]],
      [165, [20, "2026"], [46, "2:24"], [90, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
      [174, [20, "AM"]],
    ]);
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2026-01-02T12:51:00+01:00", "POS SPAR"],
      ["2026-01-03T02:24:00+01:00", "SALARY"],
    ]);
  });
});

describe("headings", () => {
  test("a Type column's DR/CR, or a Currency column's code, printed a word space after the reference is that column's own", () => {
    // Each cell one string, a word space after the one before (cells with little padding): the
    // reference's run reaches into the next column and is cut at its heading's edge.
    const REF = "TRX584575444459";
    const next = 180 + (REF.length + 1) * 4.4;
    const table = (heading: string, marks: string[]) =>
      read([
        ...FACTS,
        OPENING,
        [100, [20, "Date"], [90, "Description"], [180, "Reference"], [next, heading], [330, "Amount"], [470, "Balance"]],
        [120, [20, "02/01/2026"], [90, "POS SPAR"], [180, REF], [next, marks[0]!], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
        [134, [20, "03/01/2026"], [90, "SALARY"], [180, REF], [next, marks[1]!], { r: 370, t: "500.00" }, { r: 510, t: "9,500.00" }],
        [148, [20, "04/01/2026"], [90, "AIRTIME"], [180, REF], [next, marks[2]!], { r: 370, t: "100.00" }, { r: 510, t: "9,400.00" }],
      ]).transactions.map((t) => [t.reference, t.debit, t.credit]);
    const rows = [
      [REF, "1000.00", "0.00"],
      [REF, "0.00", "500.00"],
      [REF, "100.00", "0.00"],
    ];
    expect(table("DR/CR", ["DR", "CR", "DR"])).toEqual(rows);
    expect(table("Ccy", ["NGN", "NGN", "NGN"])).toEqual(rows);
  });

  test("an opening row's label wrapped right under the header (`BALANCE` under `Remarks`) is no heading's end", () => {
    const r = read([
      ...FACTS,
      [100, [20, "#"], [40, "Date"], [120, "Remarks"], { r: 330, t: "Withdrawals" }, { r: 400, t: "Credit" }, { r: 510, t: "Running Balance" }],
      [110, [120, "BALANCE"]],
      [114, { r: 510, t: "10,000.00" }],
      [118, [120, "B/F"]],
      [134, [120, "POS SPAR"]],
      [138, [20, "1"], [40, "02/01/2026"], { r: 330, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [142, [120, "LEKKI"]],
      [158, [120, "SALARY"]],
      [162, [20, "2"], [40, "03/01/2026"], { r: 400, t: "500.00" }, { r: 510, t: "9,500.00" }],
      [166, [120, "ACME LTD"]],
    ]);
    expect(brief(r)).toEqual([
      ["2026-01-02T00:00:00+01:00", "POS SPAR LEKKI", "1000.00", "0.00", "9000.00"],
      ["2026-01-03T00:00:00+01:00", "SALARY ACME LTD", "0.00", "500.00", "9500.00"],
    ]);
    expect(r.metadata.opening_balance).toBe("10000.00");
  });

  test("a label wrapped under the header (Value over Date) completes the label above it", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [94, [80, "Value"]],
      [100, [20, "Date"], [140, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]],
      [106, [80, "Date"]],
      [124, [20, "02/01/2026"], [80, "02/01/2026"], [140, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [138, [20, "03/01/2026"], [80, "04/01/2026"], [140, "SALARY"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
    ]);
    expect(brief(r)).toEqual([
      ["2026-01-02T00:00:00+01:00", "POS SPAR LEKKI", "1000.00", "0.00", "9000.00"],
      ["2026-01-03T00:00:00+01:00", "SALARY", "0.00", "500.00", "9500.00"],
    ]);
  });

  test("labels centred over three lines, the third a header's words too (Posted, Date, Details, Amount), complete the labels above", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [94, [20, "Date"], [80, "Value"], [140, "Transaction"], [350, "Debit"]],
      [100, [240, "Trans. Ref"], [420, "Deposits"], [480, "Balance"]],
      [106, [20, "Posted"], [80, "Date"], [140, "Details"], [345, "Amount"]],
      [124, [20, "02/01/2026"], [80, "02/01/2026"], [140, "POS SPAR LEKKI"], [240, "TRX1001"], { r: 385, t: "1,000.00" }, { r: 520, t: "9,000.00" }],
      [138, [20, "03/01/2026"], [80, "04/01/2026"], [140, "SALARY"], [240, "TRX1002"], { r: 460, t: "500.00" }, { r: 520, t: "9,500.00" }],
    ]);
    expect(brief(r)).toEqual([
      ["2026-01-02T00:00:00+01:00", "POS SPAR LEKKI", "1000.00", "0.00", "9000.00"],
      ["2026-01-03T00:00:00+01:00", "SALARY", "0.00", "500.00", "9500.00"],
    ]);
    expect(r.transactions.map((t) => t.reference)).toEqual(["TRX1001", "TRX1002"]);
  });

  test("two headings printed as one run (`Channel Dr/Cr`) are two columns, not a Credit column", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [90, "Narrative"], [300, "Channel Dr/Cr"], { r: 460, t: "Amount" }, { r: 540, t: "Balance" }],
      [120, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], [300, "MOBILE"], [345, "DR"], { r: 460, t: "1,000.00" }, { r: 540, t: "9,000.00" }],
      [134, [20, "03/01/2026"], [90, "SALARY"], [300, "NIP"], [345, "CR"], { r: 460, t: "500.00" }, { r: 540, t: "9,500.00" }],
    ]);
    expect(brief(r)).toEqual([
      ["2026-01-02T00:00:00+01:00", "POS SPAR LEKKI", "1000.00", "0.00", "9000.00"],
      ["2026-01-03T00:00:00+01:00", "SALARY", "0.00", "500.00", "9500.00"],
    ]);
  });

  test("headings drawn as one run (`Deposits Withdrawal Running Balance`) over as many columns of figures are those columns", () => {
    const row = (y: number, date: string, narration: string, credit: string, debit: string, balance: string): Line => [y, [20, date], [90, narration], { r: 440, t: credit }, { r: 500, t: debit }, { r: 570, t: balance }];
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [90, "Narrative"], [400, "Deposits Withdrawal Running Balance"]],
      row(120, "02/01/2026", "POS SPAR LEKKI", "-", "1,000.00", "9,000.00"),
      row(134, "03/01/2026", "SALARY", "500.00", "-", "9,500.00"),
      row(148, "04/01/2026", "AIRTIME", "-", "200.00", "9,300.00"),
      row(162, "05/01/2026", "REFUND", "50.00", "-", "9,350.00"),
    ]);
    expect(brief(r).map((t) => t.slice(2))).toEqual([
      ["1000.00", "0.00", "9000.00"],
      ["0.00", "500.00", "9500.00"],
      ["200.00", "0.00", "9300.00"],
      ["0.00", "50.00", "9350.00"],
    ]);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("a run cut before a word that lies mostly past a text column's edge after more than a word space", () => {
    // "TRX1001" under Reference and "Shopping" under Tag, drawn as one string with a wide gap: the
    // engine places its words by estimate (Helvetica's widths), "Shopping" a point short of Tag's heading.
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [90, "Description"], [220, "Reference"], [282, "Tag"], [380, "Amount"], [470, "Balance"]],
      [120, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], [220, "TRX1001        Shopping"], { r: 420, t: "-1,000.00" }, { r: 510, t: "9,000.00" }],
      [134, [20, "03/01/2026"], [90, "SALARY"], [220, "TRX1002        Inflow"], { r: 420, t: "500.00" }, { r: 510, t: "9,500.00" }],
    ]);
    expect(r.transactions.map((t) => t.reference)).toEqual(["TRX1001", "TRX1002"]);
  });
  test("two headings a word space apart in one run (`Description Tag`) are two columns where the body's words start under the second; not where a narration runs across", () => {
    // Fixed-width: `Tag` starts 12 characters after `Description`.
    const tag = 90 + 12 * 4.4;
    const table = (narrations: string[]) =>
      read([
        ...FACTS,
        OPENING,
        [100, [20, "Date"], [90, "Description Tag"], { r: 370, t: "Debit" }, { r: 440, t: "Credit" }, { r: 510, t: "Balance" }],
        [120, [20, "02/01/2026"], [90, narrations[0]!], [tag, "Shopping"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
        [134, [20, "03/01/2026"], [90, narrations[1]!], [tag, "Inflow"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
        [148, [20, "04/01/2026"], [90, narrations[2]!], [tag, "Airtime"], { r: 370, t: "100.00" }, { r: 510, t: "9,400.00" }],
      ]).transactions.map((t) => t.narration);
    expect(table(["POS SPAR", "SALARY", "MTN"])).toEqual(["POS SPAR", "SALARY", "MTN"]);
    // A narration printed across the point: the run is one heading, its column holds both.
    expect(table(["POS SPAR LEKKI PHASE", "SALARY", "MTN"])[1]).toBe("SALARY Inflow");
  });

  test("a repeated header's run is cut as the first page's was, on a last page whose one row shows no edge", () => {
    const tag = 90 + 12 * 4.4;
    const head = (y: number): Line => [y, [20, "Date"], [90, "Description Tag"], { r: 370, t: "Debit" }, { r: 440, t: "Credit" }, { r: 510, t: "Balance" }];
    const row = (y: number, date: string, narration: string, category: string, figures: Piece[]): Line => [y, [20, date], [90, narration], [tag, category], ...figures];
    const r = read(
      [
        ...FACTS,
        OPENING,
        head(100),
        row(120, "02/01/2026", "POS SPAR", "Shopping", [{ r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }]),
        row(134, "03/01/2026", "SALARY", "Inflow", [{ r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }]),
        row(148, "04/01/2026", "MTN", "Airtime", [{ r: 370, t: "100.00" }, { r: 510, t: "9,400.00" }]),
      ],
      [head(56), row(76, "05/01/2026", "DSTV", "Bills", [{ r: 370, t: "400.00" }, { r: 510, t: "9,000.00" }])],
    );
    expect(r.transactions.map((t) => t.narration)).toEqual(["POS SPAR", "SALARY", "MTN", "DSTV"]);
  });

  test("a money heading run into a text heading (`Balance Particulars`) is cut where the narration's words start, right of the balances", () => {
    const words = 300 + 8 * 4.4;
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], { r: 200, t: "Amount(NGN)" }, [300, "Balance Particulars"]],
      [120, [20, "02/01/2026"], { r: 200, t: "-1,000.00" }, { r: words - 4, t: "9,000.00" }, [words, "POS SPAR LEKKI"]],
      [134, [20, "03/01/2026"], { r: 200, t: "500.00" }, { r: words - 4, t: "9,500.00" }, [words, "SALARY"]],
      [148, [20, "04/01/2026"], { r: 200, t: "-100.00" }, { r: words - 4, t: "9,400.00" }, [words, "AIRTIME MTN"]],
    ]);
    expect(brief(r)).toEqual([
      ["2026-01-02T00:00:00+01:00", "POS SPAR LEKKI", "1000.00", "0.00", "9000.00"],
      ["2026-01-03T00:00:00+01:00", "SALARY", "0.00", "500.00", "9500.00"],
      ["2026-01-04T00:00:00+01:00", "AIRTIME MTN", "100.00", "0.00", "9400.00"],
    ]);
  });

  test("a heading run over two labels of the line below (`Effective Transaction` over `Date` and `Details`) is cut where the lower label starts", () => {
    const details = 90 + 10 * 4.4;
    const r = read([
      ...FACTS,
      OPENING,
      [94, [20, "Trans."], [90, "Effective Transaction"], { r: 400, t: "Debit" }, { r: 460, t: "Credit" }, { r: 530, t: "Running" }],
      [104, [20, "Date"], [90, "Date"], [details, "Details"], { r: 530, t: "Balance" }],
      [120, [20, "02/01/26"], [90, "03/01/26"], [details, "POS SPAR"], { r: 400, t: "1,000.00" }, { r: 530, t: "9,000.00" }],
      [134, [20, "03/01/26"], [90, "03/01/26"], [details, "SALARY"], { r: 460, t: "500.00" }, { r: 530, t: "9,500.00" }],
    ]);
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2026-01-02T00:00:00+01:00", "POS SPAR"],
      ["2026-01-03T00:00:00+01:00", "SALARY"],
    ]);
  });
});

describe("a sentence printed across the table", () => {
  const HEAD: Line = [100, [20, "#"], [60, "Date"], { r: 200, t: "Amount" }, [210, "Narration"], [330, "Reference"], [470, "Balance"]];
  const rows = (n: number, date: string, amount: string, narration: string, balance: string): Line => [120, [20, String(n)], [60, date], { r: 200, t: amount }, [210, narration], [330, `TRX${n}`], { r: 510, t: balance }];
  const read2 = (footer: Line[]) =>
    read([...FACTS, OPENING, HEAD, rows(1, "02/01/2026", "-1,000.00", "POS SPAR LEKKI", "9,000.00"), ...footer], [HEAD, rows(2, "03/01/2026", "500.00", "SALARY", "9,500.00"), ...footer]);
  const expectRows = (r: ReturnType<typeof read>) => {
    expect(brief(r)).toEqual([
      ["2026-01-02T00:00:00+01:00", "POS SPAR LEKKI", "1000.00", "0.00", "9000.00"],
      ["2026-01-03T00:00:00+01:00", "SALARY", "0.00", "500.00", "9500.00"],
    ]);
    expect(r.metadata.closing_balance).toBe("9500.00");
    expect(r.row_wise_reconcilable).toBe(true);
  };

  test("a page footer's date and figure, under the table's date and balance columns, are no row's", () => {
    // Right under each page's last row, as a table's repeated foot prints it. The footer wrapped
    // onto a second line is the wild corpus's chromium-layout-footer-sentence.
    expectRows(read2([[134, [20, "Generated on"], [76, "27 Nov 2026"], [128, "at 10:14 AM. Questions? Call us or write to us. Deposits are insured up to"], { r: 510, t: "5,000,000.00" }, [514, "by NDIC."]]]));
  });

  test("a footer sentence wrapped before a figure too wide for the rest of its line ends there, not in a totals line", () => {
    // The sentence stops short of the last column, but `5,000,000.00` would have run past the
    // table's right edge: the figure's line is the sentence's end (Chromium, wider seed 245, had
    // read it as the printed total debit).
    const head: Line = [100, [20, "Trans. Date"], { r: 150, t: "Withdrawal" }, { r: 220, t: "Inflow" }, [240, "Details"], { r: 510, t: "Balance" }];
    const r = read([
      ...FACTS,
      OPENING,
      head,
      [120, [20, "02/01/2026"], { r: 150, t: "1,000.00" }, { r: 220, t: "0.00" }, [240, "POS SPAR LEKKI"], { r: 510, t: "9,000.00" }],
      [134, [20, "03/01/2026"], { r: 150, t: "0.00" }, { r: 220, t: "500.00" }, [240, "SALARY"], { r: 510, t: "9,500.00" }],
      [150, [20, "Generated on"], [76, "27 Nov 2026"], [128, "at 10:14 AM. Questions? Call 0700 225 5678 or write us. Deposits insured to"]],
      [159, [20, "5,000,000.00"], [76, "by NDIC."]],
    ]);
    expectRows(r);
    expect(r.checks.totals_match).toBeNull();
  });
});

describe("a reference's end cut off by the page break", () => {
  const HEAD = (y: number): Line => [y, [20, "Date"], [90, "Description"], [250, "Reference"], { r: 370, t: "Debit" }, { r: 440, t: "Credit" }, { r: 510, t: "Balance" }];
  const first: Line[] = [...FACTS, OPENING, HEAD(100), [120, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], [250, "TRX77309083938"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }]];
  // The end stands farther below the headings than a wrapped line below a row would.
  const second = (end: string): Line[] => [HEAD(40), [64, [250, end]], [80, [20, "03/01/2026"], [90, "SALARY"], [250, "TRX111"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }]];

  test("under the next page's repeated headings, in the reference column, is the reference's last digit, not a page number", () => {
    // A word processor splits the row across the break (LibreOffice Writer).
    const r = read(first, second("5"));
    expect(r.transactions.map((t) => t.reference)).toEqual(["TRX773090839385", "TRX111"]);
  });

  test("a number that is the page's own is its page number", () => {
    const r = read(first, second("2"));
    expect(r.transactions.map((t) => t.reference)).toEqual(["TRX77309083938", "TRX111"]);
  });
});

describe("a row broken between its lines by the page break", () => {
  test("its time and its text's end at the next page's top, with no headings there, are that row's", () => {
    // LibreOffice Writer breaks a row between its lines: the date line on one page, the time
    // under the date and the narration's last line at the next page's top, above its first row.
    const HEAD: Line = [100, [20, "Date Posted"], [100, "Particulars"], [250, "Transaction Ref"], { r: 420, t: "Amount" }, { r: 510, t: "Ledger Balance" }];
    const r = read(
      [
        ...FACTS,
        OPENING,
        HEAD,
        [130, [20, "Sun, 04 Jan 2026"], [100, "POS PURCHASE @ SHOPRITE"]],
        [135, [250, "TRX1"], { r: 420, t: "-6,027.70" }, { r: 510, t: "3,972.30" }],
        [140, [20, "09:50:22"], [100, "96808958 LAGOS NG"]],
        [166, [20, "Mon, 05 Jan 2026"], [100, "POS PURCHASE @ SHOPRITE"], [250, "TRX2"], { r: 420, t: "-1,000.00" }, { r: 510, t: "2,972.30" }],
      ],
      [
        [38, [20, "05:56:58"], [100, "52786663 LAGOS NG"]],
        [64, [20, "Fri, 09 Jan 2026"], [100, "Transfer from ADA"]],
        [69, [250, "TRX3"], { r: 420, t: "+500.00" }, { r: 510, t: "3,472.30" }],
        [74, [20, "23:15:20"], [100, "OBI"]],
      ],
    );
    expect(r.transactions.map((t) => [t.date, t.narration])).toEqual([
      ["2026-01-04T09:50:22+01:00", "POS PURCHASE @ SHOPRITE 96808958 LAGOS NG"],
      ["2026-01-05T05:56:58+01:00", "POS PURCHASE @ SHOPRITE 52786663 LAGOS NG"],
      ["2026-01-09T23:15:20+01:00", "Transfer from ADA OBI"],
    ]);
  });
});

describe("headings glued after a currency's parenthesis", () => {
  test("a heading closed by its currency's parenthesis ends there though the next heading's word is glued to it", () => {
    // pdfmake in Courier, which has no naira sign: `Amount(�)Running Balance Narrative` in one string.
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date Posted"], [100, "Val. Date"], [170, "Amount(\ufffd)Running Balance Narrative"]],
      [120, [20, "02/01/2026"], [100, "02/01/2026"], { r: 218, t: "(1,000.00)" }, { r: 300, t: "9,000.00" }, [310, "POS SPAR LEKKI"]],
      [140, [20, "03/01/2026"], [100, "03/01/2026"], { r: 218, t: "500.00" }, { r: 300, t: "9,500.00" }, [310, "SALARY"]],
    ]);
    expect(brief(r).map((t) => [t[1], t[2], t[3], t[4]])).toEqual([
      ["POS SPAR LEKKI", "1000.00", "0.00", "9000.00"],
      ["SALARY", "0.00", "500.00", "9500.00"],
    ]);
  });
});

describe("dates the chain cannot vouch for", () => {
  const HEAD: Line = [100, [20, "Date"], [90, "Description"], { r: 370, t: "Debit" }, { r: 440, t: "Credit" }, { r: 510, t: "Balance" }];
  const row = (y: number, date: string, debit: string, balance: string): Line => [y, [20, date], [90, "POS PURCHASE"], { r: 370, t: debit }, { r: 510, t: balance }];

  test("a row out of the date order, and one outside the printed period, are named in the notes; the figures stay verified", () => {
    const r = read([
      ...FACTS,
      [58, [20, "Period: 01/01/2026 to 31/01/2026"]],
      OPENING,
      HEAD,
      row(120, "02/01/2026", "100.00", "9,900.00"),
      row(134, "03/01/2026", "100.00", "9,800.00"),
      row(148, "22/01/2026", "100.00", "9,700.00"),
      row(162, "04/01/2026", "100.00", "9,600.00"),
      row(176, "05/01/2026", "100.00", "9,500.00"),
      row(190, "03/02/2026", "100.00", "9,400.00"),
    ]);
    expect(r.checks.verdict).toBe("verified");
    expect(r.checks.notes).toContain("Dates out of the statement's order, possibly misread (the balances do not depend on them): row 3 (2026-01-22).");
    expect(r.checks.notes).toContain("Dates outside the printed statement period (2026-01-01 to 2026-01-31), possibly misread (the balances do not depend on them): row 6 (2026-02-03).");
  });

  test("a sorted statement within its period has neither note", () => {
    const r = read([...FACTS, [58, [20, "Period: 01/01/2026 to 31/01/2026"]], OPENING, HEAD, row(120, "02/01/2026", "100.00", "9,900.00"), row(134, "03/01/2026", "100.00", "9,800.00"), row(148, "04/01/2026", "100.00", "9,700.00")]);
    expect(r.checks.notes.filter((n) => n.startsWith("Dates "))).toEqual([]);
  });
});

describe("money headings run together over a column of placeholders", () => {
  test("a page of debits alone: the credit column's dashes count as its column", () => {
    // `Deposits Withdrawal Running Balance` in one run, one space apart (a fixed-width font in
    // wkhtmltopdf); no row on the page is a deposit, so the Deposits column holds only `-`.
    const row = (y: number, date: string, narration: string, debit: string, balance: string): Line => [y, [20, date], [90, narration], { r: 438, t: "-" }, { r: 496, t: debit }, { r: 549, t: balance }];
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [90, "Narrative"], [395, "Deposits Withdrawal Running Balance"]],
      row(130, "02/01/2026", "POS SPAR", "1,000.00", "9,000.00"),
      row(144, "03/01/2026", "AIRTIME MTN", "500.00", "8,500.00"),
      row(158, "04/01/2026", "POS SHOPRITE", "200.00", "8,300.00"),
      row(172, "05/01/2026", "SMS ALERT", "4.00", "8,296.00"),
    ]);
    expect(brief(r).map((t) => [t[2], t[3], t[4]])).toEqual([
      ["1000.00", "0.00", "9000.00"],
      ["500.00", "0.00", "8500.00"],
      ["200.00", "0.00", "8300.00"],
      ["4.00", "0.00", "8296.00"],
    ]);
    expect(r.checks.verdict).toBe("verified");
  });
});

describe("a movement printed above its row's date line", () => {
  test("a figure wrapped inside its decimals, centred above the date line, is the row's movement when the balances chain", () => {
    // LibreOffice Writer: `+145,207.7` over `8` in a narrow cell, the row's cells centred, so the
    // figure's first line stands above the date line and its last digit below.
    const HEAD: Line = [100, [20, "Trans. Date"], [90, "Ref No."], [170, "Remarks"], { r: 420, t: "Amount" }, { r: 510, t: "Balance" }];
    const r = read([
      ...FACTS,
      OPENING,
      HEAD,
      [130, [20, "02/01/2026"], [90, "TRX1"], [170, "POS SPAR"], { r: 420, t: "-1,000.00" }, { r: 510, t: "9,000.00" }],
      [152, [90, "TRX2"], { r: 420, t: "+145,207.7" }],
      [157, [20, "03/01/2026"], [170, "SALARY"], { r: 510, t: "154,207.78" }],
      [162, [398, "8"]],
      [184, [20, "04/01/2026"], [90, "TRX3"], [170, "AIRTIME"], { r: 420, t: "-200.00" }, { r: 510, t: "154,007.78" }],
    ]);
    expect(brief(r)).toEqual([
      ["2026-01-02T00:00:00+01:00", "POS SPAR", "1000.00", "0.00", "9000.00"],
      ["2026-01-03T00:00:00+01:00", "SALARY", "0.00", "145207.78", "154207.78"],
      ["2026-01-04T00:00:00+01:00", "AIRTIME", "200.00", "0.00", "154007.78"],
    ]);
    expect(r.transactions[1]!.reference).toBe("TRX2");
    expect(r.checks.verdict).toBe("verified");
  });
});

describe("the end of the last row alone on the last page", () => {
  const PAGE2_HEAD: Line = [56, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
  /** A row whose cells are centred on it: its narration's first line `pitch` above its date line, its last as far below. */
  const centredRow = (y: number, date: string, words: [string, string, string], figures: Piece[], pitch: number): Line[] => [
    [y - pitch, [90, words[0]]],
    [y, [20, date], [90, words[1]], ...figures],
    [y + pitch, [90, words[2]]],
  ];
  /** The header and three centred rows, `step` apart. */
  const centredTable = (step: number, pitch: number): Line[] => [
    [100, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]],
    ...centredRow(130, "02/01/2026", ["POS PURCHASE", "SPAR LEKKI", "LAGOS NG"], [{ r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }], pitch),
    ...centredRow(130 + step, "03/01/2026", ["TRANSFER TO", "ADA OBI FOR", "RENT"], [{ r: 370, t: "500.00" }, { r: 510, t: "8,500.00" }], pitch),
    ...centredRow(130 + 2 * step, "04/01/2026", ["AIRTIME", "MTN 0803", "RECHARGE"], [{ r: 370, t: "100.00" }, { r: 510, t: "8,400.00" }], pitch),
  ];
  const CENTRED_NARRATIONS = ["POS PURCHASE SPAR LEKKI LAGOS NG", "TRANSFER TO ADA OBI FOR RENT", "AIRTIME MTN 0803 RECHARGE"];
  test("is that row's, under the page's repeated headings", () => {
    const HEAD: Line = [100, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
    const r = read(
      [...FACTS, OPENING, HEAD, [120, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }], [140, [90, "TRANSFER FROM TUNDE"]], [146, [20, "03/01/2026"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }], [152, [90, "BAKARE | ACCESS"]]],
      [[40, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]], [56, [90, "| 0580680038"]]],
    );
    expect(brief(r)[1]![1]).toBe("TRANSFER FROM TUNDE BAKARE | ACCESS | 0580680038");
  });

  test("a row's end at the top of the next page, under a banner with a print date above the repeated headings, is that row's", () => {
    const HEAD: Line = [100, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
    const page2HEAD: Line = [56, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
    const r = read(
      [...FACTS, OPENING, HEAD, [120, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }], [134, [20, "03/01/2026"], [90, "TRANSFER FROM BOLA ADE |"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }]],
      [[40, [20, "27/11/2026 10:14:05"], [110, "Customer Statement · Branch 0231"]], page2HEAD, [72, [90, "ACCESS BANK | 0829790353"]], [90, [20, "04/01/2026"], [90, "AIRTIME"], { r: 370, t: "200.00" }, { r: 510, t: "9,300.00" }]],
    );
    expect(brief(r).map((t) => t[1])).toEqual(["POS SPAR LEKKI", "TRANSFER FROM BOLA ADE | ACCESS BANK | 0829790353", "AIRTIME"]);
  });

  test("a centred row's end at the top of the next page is that row's also when a line of the page's letterhead stands above the repeated headings", () => {
    const r = read(
      [...FACTS, OPENING, ...centredTable(40, 10), [770, [90, "TRANSFER FROM"]], [780, [20, "05/01/2026"], [90, "BOLA ADE |"], { r: 440, t: "600.00" }, { r: 510, t: "9,000.00" }]],
      [[40, [90, "Statement"]], PAGE2_HEAD, [72, [90, "ACCESS BANK"]], ...centredRow(100, "06/01/2026", ["POS PURCHASE", "SHOPRITE", "IKEJA"], [{ r: 370, t: "200.00" }, { r: 510, t: "8,800.00" }], 10)],
    );
    expect(brief(r).map((t) => t[1])).toEqual([...CENTRED_NARRATIONS, "TRANSFER FROM BOLA ADE | ACCESS BANK", "POS PURCHASE SHOPRITE IKEJA"]);
  });

  test("a row's end right under the repeated headings, padded like a heading's second line, is that row's when it holds a figure", () => {
    const HEAD: Line = [100, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
    const r = read(
      [...FACTS, OPENING, HEAD, [120, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }], [134, [20, "03/01/2026"], [90, "TRANSFER TO ADA FOR RENT AND"], { r: 370, t: "500.00" }, { r: 510, t: "8,500.00" }]],
      [[56, [20, "Date"], [90, "Description"], [330, "Debit"], [400, "Credit"], [470, "Balance"]], [66, [90, "OTHER EXPENSES 61"]], [90, [20, "04/01/2026"], [90, "AIRTIME"], { r: 370, t: "200.00" }, { r: 510, t: "8,300.00" }]],
    );
    expect(brief(r).map((t) => t[1])).toEqual(["POS SPAR LEKKI", "TRANSFER TO ADA FOR RENT AND OTHER EXPENSES 61", "AIRTIME"]);
  });

  test("in a table of centred rows, a line at a page's top as far above the first row as rows stand apart ends the row the page break cut", () => {
    const r = read(
      [
        ...FACTS,
        OPENING,
        ...centredTable(32, 8),
        ...centredRow(226, "05/01/2026", ["SALARY", "ACME LTD", "JANUARY"], [{ r: 440, t: "900.00" }, { r: 510, t: "9,300.00" }], 8),
        [780, [20, "06/01/2026"], [90, "TRANSFER TO BOLA"], { r: 370, t: "300.00" }, { r: 510, t: "9,000.00" }],
        [788, [90, "ADE FOR RENT AND"]],
      ],
      // The next row's date and first words on one line, its figures centred on the line below.
      [PAGE2_HEAD, [72, [90, "OTHER EXPENSES 37"]], [88, [20, "07/01/2026"], [90, "POS PURCHASE"]], [96, { r: 370, t: "200.00" }, { r: 510, t: "8,800.00" }], [104, [90, "SHOPRITE IKEJA"]]],
    );
    expect(brief(r).map((t) => t[1]).slice(4)).toEqual(["TRANSFER TO BOLA ADE FOR RENT AND OTHER EXPENSES 37", "POS PURCHASE SHOPRITE IKEJA"]);
  });

  test("is that row's on a page without headings when it holds only narration words; a print date there is not", () => {
    const HEAD: Line = [100, [20, "Date"], [90, "Description"], [250, "Reference"], [330, "Debit"], [400, "Credit"], [470, "Balance"]];
    const first: Line[] = [
      ...FACTS,
      OPENING,
      HEAD,
      [120, [20, "02/01/2026"], [90, "POS SPAR LEKKI"], [250, "TRX1"], { r: 370, t: "1,000.00" }, { r: 510, t: "9,000.00" }],
      [134, [20, "03/01/2026"], [90, "TRANSFER FROM"], [250, "TRX2"], { r: 440, t: "500.00" }, { r: 510, t: "9,500.00" }],
      [140, [90, "TUNDE BAKARE |"]],
    ];
    const r = read(first, [[40, [90, "ACCESS BANK |"]], [46, [90, "0580680038"]]]);
    expect(brief(r)[1]![1]).toBe("TRANSFER FROM TUNDE BAKARE | ACCESS BANK | 0580680038");
    expect(r.metadata.bank).toBe("unknown");
    const dated = read(first, [[40, [250, "11 Jun 2026"]]]);
    expect(dated.transactions[1]!.reference).toBe("TRX2");
  });
});

describe("narrations that print dates, times and figures", () => {
  test("a narration's figure, on the date line or wrapped onto a line of its own, is narration text and stretches no money column", () => {
    // A POS narration that prints its amount (`SHOPRITE NGN 5,000.00`): the figures form a group of
    // their own inside the narration's slot, which must not widen the Debit column over the narration.
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [90, "Description"], { r: 370, t: "Debit" }, { r: 440, t: "Credit" }, { r: 510, t: "Balance" }],
      [120, [20, "02/01/2026"], [90, "POS SHOPRITE"], [170, "NGN 5,000.00"], { r: 370, t: "5,000.00" }, { r: 510, t: "5,000.00" }],
      [132, [90, "TERM 1234"]],
      [150, [20, "03/01/2026"], [90, "TRANSFER TO ADA"], { r: 370, t: "1,000.00" }, { r: 510, t: "4,000.00" }],
      [162, [90, "NGN 1,000.00 REF 77"]],
      [180, [20, "04/01/2026"], [90, "POS SPAR"], [150, "NGN 2,500.00"], { r: 370, t: "2,500.00" }, { r: 510, t: "1,500.00" }],
    ]);
    expect(brief(r).map((t) => [t[1], t[2]])).toEqual([
      ["POS SHOPRITE NGN 5,000.00 TERM 1234", "5000.00"],
      ["TRANSFER TO ADA NGN 1,000.00 REF 77", "1000.00"],
      ["POS SPAR NGN 2,500.00", "2500.00"],
    ]);
    expect(r.checks.verdict).toBe("verified");
  });

  test("a time wrapped onto a narration's line of its own, beside a Time column, is the narration's", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [80, "Time"], [130, "Description"], { r: 440, t: "Amount" }, { r: 510, t: "Balance" }],
      [120, [20, "02/01/2026"], [80, "10:05:00"], [130, "TRANSFER FROM ADA 01-01-2026"], { r: 440, t: "1,000.00" }, { r: 510, t: "11,000.00" }],
      [132, [130, "09:15:22"]],
      [150, [20, "03/01/2026"], [80, "11:00:00"], [130, "AIRTIME"], { r: 440, t: "-500.00" }, { r: 510, t: "10,500.00" }],
    ]);
    expect(r.transactions.map((t) => [t.date, t.narration])).toEqual([
      ["2026-01-02T10:05:00+01:00", "TRANSFER FROM ADA 01-01-2026 09:15:22"],
      ["2026-01-03T11:00:00+01:00", "AIRTIME"],
    ]);
  });

  test("a month-first date wrapped after its month (`January` over `2, 2026`) is one date", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [90, "Description"], { r: 440, t: "Amount" }, { r: 510, t: "Balance" }],
      [120, [20, "January"]],
      [132, [20, "2, 2026"], [90, "TRANSFER FROM ADA"], { r: 440, t: "1,000.00" }, { r: 510, t: "11,000.00" }],
      [156, [20, "January"]],
      [168, [20, "3, 2026"], [90, "AIRTIME"], { r: 440, t: "-500.00" }, { r: 510, t: "10,500.00" }],
    ]);
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2026-01-02T00:00:00+01:00", "TRANSFER FROM ADA"],
      ["2026-01-03T00:00:00+01:00", "AIRTIME"],
    ]);
  });

  test("a currency code after the figure, before its DR/CR or inside its parentheses, is the amount's", () => {
    const at = (text: string, x0: number, x1: number) => ({ text, x0, x1 });
    expect(splitTyped([at("6,984.35", 454, 501), at("NGN", 504, 528), at("DR", 531, 551)]).map((c) => [c.text, c.kind])).toEqual([["6,984.35 NGN DR", "money"]]);
    expect(splitTyped([at("(17,158.19", 376, 440), at("NGN)", 443, 468)]).map((c) => [c.text, c.kind])).toEqual([["(17,158.19 NGN)", "money"]]);
    // Also after a reference drawn in the same fixed-width run.
    expect(splitTyped([at("TRX912252068519", 280, 370), at("(22,284.59", 376, 440), at("NGN)", 443, 468)]).map((c) => [c.text, c.kind])).toEqual([
      ["TRX912252068519", "text"],
      ["(22,284.59 NGN)", "money"],
    ]);
    // A mark a word space before its figure keeps the space (a narration prints it); one drawn against it does not.
    expect(splitTyped([at("NGN", 100, 124), at("5,000.00", 127, 170)]).map((c) => c.text)).toEqual(["NGN 5,000.00"]);
    expect(splitTyped([at("NGN", 100, 124), at("5,000.00", 124.2, 167)]).map((c) => c.text)).toEqual(["NGN5,000.00"]);
  });

  test("a time beside a wrapped date's last piece, where the head's line starts its narration, is the narration's", () => {
    const r = read([
      ...FACTS,
      OPENING,
      // A date column too narrow for its dates: each wraps over three lines, and the narration
      // starts a word space after the year.
      [100, [20, "Date"], [48, "Description"], { r: 440, t: "Amount" }, { r: 510, t: "Balance" }],
      [120, [20, "12-"], [48, "TRANSFER FROM ADA 11-01-2026"]],
      [132, [20, "01-"], { r: 440, t: "1,000.00" }, { r: 510, t: "11,000.00" }],
      [144, [20, "2026"], [48, "02:03:04"]],
      [168, [20, "13-"], [48, "AIRTIME"]],
      [180, [20, "01-"], { r: 440, t: "-500.00" }, { r: 510, t: "10,500.00" }],
      [192, [20, "2026"]],
    ]);
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2026-01-12T00:00:00+01:00", "TRANSFER FROM ADA 11-01-2026 02:03:04"],
      ["2026-01-13T00:00:00+01:00", "AIRTIME"],
    ]);
  });

  test("a narration's date cut by the page break takes no word of a later run that merely ends on its edge", () => {
    const HEAD: Line = [100, [20, "Date"], [90, "Description"], { r: 440, t: "Amount" }, { r: 510, t: "Balance" }];
    const r = read(
      [...FACTS, OPENING, HEAD, [120, [20, "02/01/2026"], [90, "POS SPAR LAGOS NG"], [250, "11-01-"], { r: 440, t: "-1,000.00" }, { r: 510, t: "9,000.00" }], [132, [90, "2026"]]],
      [
        [40, [20, "Date"], [90, "Description"], { r: 440, t: "Amount" }, { r: 510, t: "Balance" }],
        [60, [20, "03/01/2026"], [90, "AIRTIME"], { r: 440, t: "-500.00" }, { r: 510, t: "8,500.00" }],
        [80, [20, "04/01/2026"], [90, "TRANSFER 0534364938"], { r: 440, t: "200.00" }, { r: 510, t: "8,700.00" }],
        [92, { r: 276.4, t: "12 January 2026 13:02:00" }],
      ],
    );
    expect(brief(r).map((t) => t[1])).toEqual(["POS SPAR LAGOS NG 11-01-2026", "AIRTIME", "TRANSFER 0534364938 12 January 2026 13:02:00"]);
  });

  test("a narration's line that ends in a date keeps its words before the date (`NG 11-JAN-26`), on a page without headings", () => {
    const row = (y: number, n: string, date: string, text: string, amount: string, balance: string): Line => [y, [20, n], [40, date], [130, text], { r: 440, t: amount }, { r: 510, t: balance }];
    const r = read(
      [...FACTS, OPENING, [100, [20, "#"], [40, "Date"], [130, "Description"], { r: 440, t: "Amount" }, { r: 510, t: "Balance" }], row(120, "1", "10-JAN-26 9:20 AM", "AIRTIME", "-500.00", "9,500.00")],
      [
        row(40, "2", "12-JAN-26 1:59 PM", "POS PURCHASE LAGOS", "-1,000.00", "8,500.00"),
        [52, [130, "NG"], [146, "11-JAN-26"]],
        row(70, "3", "13-JAN-26 8:00 AM", "SALARY", "5,000.00", "13,500.00"),
      ],
    );
    expect(brief(r).map((t) => t[1])).toEqual(["AIRTIME", "POS PURCHASE LAGOS NG 11-JAN-26", "SALARY"]);
  });

  test("a date's rest drawn in one fixed-width run with the narration's reference (`01-02 328831602752`) completes the date; the reference stays the narration's", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [50, "Details"], { r: 440, t: "Amount" }, { r: 510, t: "Balance" }],
      [120, [20, "2026-"], [50, "ELECTRONIC LEVY"]],
      [125, { r: 440, t: "-50.00" }, { r: 510, t: "9,950.00" }],
      [130, [20, "01-02 328831602752"]],
      [150, [20, "2026-"], [50, "SALARY"]],
      [155, { r: 440, t: "500.00" }, { r: 510, t: "10,450.00" }],
      [160, [20, "01-03 965012085409"]],
    ]);
    expect(brief(r).map((t) => [t[0], t[1]])).toEqual([
      ["2026-01-02T00:00:00+01:00", "ELECTRONIC LEVY 328831602752"],
      ["2026-01-03T00:00:00+01:00", "SALARY 965012085409"],
    ]);
  });

  test("a narration's token broken over two lines after a solidus, or a long number cut alone on its line, is joined without a space", () => {
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [80, "Description"], { r: 440, t: "Amount" }, { r: 510, t: "Balance" }],
      [120, [20, "02/01/2026"], [80, "AIRTIME/08031985328/"], { r: 440, t: "-500.00" }, { r: 510, t: "9,500.00" }],
      [132, [80, "MTN/25296.91"]],
      [150, [20, "03/01/2026"], [80, "NIP TRANSFER SESSION"], { r: 440, t: "1,000.00" }, { r: 510, t: "10,500.00" }],
      [162, [80, "5876231121271686525198"]],
      [174, [80, "26688085 02-01-2026"]],
      [192, [20, "04/01/2026"], [80, "TRANSFER FROM ADA"], { r: 440, t: "200.00" }, { r: 510, t: "10,700.00" }],
      [204, [80, "0813955545"]],
      [216, [80, "02-01-2026 SALARY"]],
    ]);
    expect(brief(r).map((t) => t[1])).toEqual([
      "AIRTIME/08031985328/MTN/25296.91",
      "NIP TRANSFER SESSION 587623112127168652519826688085 02-01-2026",
      // An account number alone on its line, then a date: two words.
      "TRANSFER FROM ADA 0813955545 02-01-2026 SALARY",
    ]);
  });

  test("currency marks alone under a totals line's figures are that line's, not the last row's", () => {
    // Rows centred on their figures, a TOTAL row whose `NGN` each figure's cell wrapped under it,
    // within a continuation's reach of the last row's last line.
    const row = (y: number, date: string, text: [string, string, string], figures: [string, string, string]): Line[] => [
      [y - 6, [90, text[0]]],
      [y, [20, date], [90, text[1]], { r: 370, t: figures[0] }, { r: 440, t: figures[1] }, { r: 510, t: figures[2] }],
      [y + 6, [90, text[2]]],
    ];
    const r = read([
      ...FACTS,
      OPENING,
      [100, [20, "Date"], [90, "Details"], { r: 370, t: "Debits" }, { r: 440, t: "Credit" }, { r: 510, t: "Balance" }],
      ...row(120, "02-01-2026", ["POS PURCHASE", "SPAR LEKKI", "LAGOS NG"], ["1000.00 NGN", "-", "9000.00 NGN"]),
      ...row(140, "03-01-2026", ["NIP TRANSFER", "FROM ADA OBI", "SESSION 1234"], ["-", "500.00 NGN", "9500.00 NGN"]),
      ...row(160, "04-01-2026", ["NIP TRANSFER", "FROM BOLA", "SESSION 9876"], ["-", "200.00 NGN", "9700.00 NGN"]),
      [172, [90, "03-01-2026"]],
      [178, { r: 357, t: "1000.00" }, { r: 427, t: "700.00" }],
      [184, [90, "TOTAL"]],
      [190, { r: 370, t: "NGN" }, { r: 440, t: "NGN" }],
    ]);
    expect(brief(r).map((t) => [t[2], t[3]])).toEqual([
      ["1000.00", "0.00"],
      ["0.00", "500.00"],
      ["0.00", "200.00"],
    ]);
    expect(r.checks.verdict).toBe("verified");
  });
});
