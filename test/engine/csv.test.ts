import { describe, expect, test } from "bun:test";
import { type CsvSource, keepDigitsAsText, neutraliseFormula, quoteField, splitDateTime, toCsv } from "../../src/engine/csv.ts";
import type { StatementMetadata, Transaction } from "../../src/engine/types.ts";

const txn = (over: Partial<Transaction>): Transaction => ({
  date: "2024-01-03T00:00:00+01:00",
  narration: "",
  debit: "0.00",
  credit: "0.00",
  balance: "0.00",
  reference: "",
  currency: "NGN",
  ...over,
});

const metadata = (account_number_masked: string): StatementMetadata => ({
  bank: "gtbank",
  account_holder: "ADA OBI",
  account_number_masked,
  statement_period_start: "2024-01-01T00:00:00+01:00",
  statement_period_end: "2024-01-31T00:00:00+01:00",
  opening_balance: "0.00",
  closing_balance: "0.00",
});

const response = (transactions: Transaction[]): CsvSource => ({ metadata: metadata("01******89"), transactions });

const HEADER = "date,time,narration,debit,credit,balance,reference,currency";

describe("toCsv", () => {
  test("header, CRLF line ends, one line per transaction; a date without a time leaves the time cell empty", () => {
    const csv = toCsv(response([txn({ narration: "POS", debit: "12.50", balance: "-12.50", reference: "R1" })]));
    expect(csv).toBe(`${HEADER}\r\n2024-01-03,,POS,12.50,0.00,-12.50,R1,NGN\r\n`);
  });

  test("a printed time goes to the time column", () => {
    const csv = toCsv(response([txn({ date: "2024-02-29T14:22:05+01:00", narration: "ATM" })]));
    expect(csv.split("\r\n")[1]).toBe("2024-02-29,14:22:05,ATM,0.00,0.00,0.00,,NGN");
  });

  test("RFC 4180 quoting of commas, quotes and line breaks", () => {
    const csv = toCsv(response([txn({ narration: 'TRF "JOHN", DOE\nLAGOS' })]));
    expect(csv.split("\r\n")[1]).toBe('2024-01-03,,"TRF ""JOHN"", DOE\nLAGOS",0.00,0.00,0.00,,NGN');
  });

  test("formula injection is neutralised in text columns, not in amounts", () => {
    const csv = toCsv(response([txn({ narration: "=HYPERLINK(\"http://x\")", reference: "+2348000", balance: "-5.00" }), txn({ narration: "@SUM(A1)", reference: "-1" })]));
    const [, a, b] = csv.split("\r\n");
    expect(a).toBe(`2024-01-03,,"'=HYPERLINK(""http://x"")",0.00,0.00,-5.00,'+2348000,NGN`);
    expect(b).toBe("2024-01-03,,'@SUM(A1),0.00,0.00,0.00,'-1,NGN");
  });

  test("digit-only references stay text (leading apostrophe): long ones and ones with leading zeros", () => {
    const long = "100004240103141523000012345678";
    const csv = toCsv(response([txn({ reference: long }), txn({ reference: "000123" }), txn({ reference: "FT24003ABC12" }), txn({ reference: "123 456" })]));
    const refs = csv.trimEnd().split("\r\n").slice(1).map((l) => l.split(",")[6]);
    expect(refs).toEqual([`'${long}`, "'000123", "FT24003ABC12", "123 456"]);
  });

  test("several account sections: an account column first, every section's rows in print order", () => {
    const first = [txn({ narration: "SALARY", credit: "500.00", balance: "500.00" }), txn({ narration: "POS", debit: "20.00", balance: "480.00" })];
    const second = [txn({ date: "2024-01-05T09:00:00+01:00", narration: "FX BUY", credit: "10.00", balance: "10.00", currency: "USD" })];
    const multi: CsvSource = {
      metadata: metadata("01******89"),
      transactions: first,
      accounts: [
        { metadata: metadata("01******89"), transactions: first },
        { metadata: metadata("02******11"), transactions: second },
      ],
    };
    expect(toCsv(multi)).toBe(
      [
        `account,${HEADER}`,
        "01******89,2024-01-03,,SALARY,0.00,500.00,500.00,,NGN",
        "01******89,2024-01-03,,POS,20.00,0.00,480.00,,NGN",
        "02******11,2024-01-05,09:00:00,FX BUY,0.00,10.00,10.00,,USD",
        "",
      ].join("\r\n"),
    );
  });

  test("one account section: no account column", () => {
    const rows = [txn({ narration: "A" })];
    const csv = toCsv({ metadata: metadata("01******89"), transactions: rows, accounts: [{ metadata: metadata("01******89"), transactions: rows }] });
    expect(csv.split("\r\n")[0]).toBe(HEADER);
  });

  test("helpers", () => {
    expect(neutraliseFormula("\tcmd")).toBe("'\tcmd");
    expect(neutraliseFormula("SALARY")).toBe("SALARY");
    expect(keepDigitsAsText("0012")).toBe("'0012");
    expect(keepDigitsAsText("12a")).toBe("12a");
    expect(quoteField("a,b")).toBe('"a,b"');
    expect(quoteField("plain")).toBe("plain");
    expect(splitDateTime("2024-01-03T00:00:01+01:00")).toEqual(["2024-01-03", "00:00:01"]);
    expect(splitDateTime("not a date")).toEqual(["not a date", ""]);
  });
});
