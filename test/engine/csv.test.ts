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

const HEADER = "bank,account,date,time,narration,debit,credit,balance,derived_balance,reference,currency";

describe("toCsv", () => {
  test("header, CRLF line ends, one line per transaction; a date without a time leaves the time cell empty", () => {
    const csv = toCsv(response([txn({ narration: "POS", debit: "12.50", balance: "-12.50", reference: "R1" })]));
    expect(csv).toBe(`${HEADER}\r\ngtbank,01******89,2024-01-03,,POS,12.50,0.00,-12.50,-12.50,R1,NGN\r\n`);
  });

  test("a printed time goes to the time column", () => {
    const csv = toCsv(response([txn({ date: "2024-02-29T14:22:05+01:00", narration: "ATM" })]));
    expect(csv.split("\r\n")[1]).toBe("gtbank,01******89,2024-02-29,14:22:05,ATM,0.00,0.00,0.00,0.00,,NGN");
  });

  test("RFC 4180 quoting of commas, quotes and line breaks", () => {
    const csv = toCsv(response([txn({ narration: 'TRF "JOHN", DOE\nLAGOS' })]));
    expect(csv.split("\r\n")[1]).toBe('gtbank,01******89,2024-01-03,,"TRF ""JOHN"", DOE\nLAGOS",0.00,0.00,0.00,0.00,,NGN');
  });

  test("formula injection is neutralised in text columns, not in amounts", () => {
    const csv = toCsv(response([txn({ narration: "=HYPERLINK(\"http://x\")", reference: "+2348000", balance: "-5.00" }), txn({ narration: "@SUM(A1)", reference: "-1" })]));
    const [, a, b] = csv.split("\r\n");
    expect(a).toBe(`gtbank,01******89,2024-01-03,,"'=HYPERLINK(""http://x"")",0.00,0.00,-5.00,0.00,'+2348000,NGN`);
    expect(b).toBe("gtbank,01******89,2024-01-03,,'@SUM(A1),0.00,0.00,0.00,0.00,'-1,NGN");
  });

  test("digit-only references stay text (leading apostrophe): long ones and ones with leading zeros", () => {
    const long = "100004240103141523000012345678";
    const csv = toCsv(response([txn({ reference: long }), txn({ reference: "000123" }), txn({ reference: "FT24003ABC12" }), txn({ reference: "123 456" })]));
    const refs = csv.trimEnd().split("\r\n").slice(1).map((l) => l.split(",")[9]);
    expect(refs).toEqual([`'${long}`, "'000123", "FT24003ABC12", "123 456"]);
  });

  test("several account sections: each row names its section's account, every section's rows in print order", () => {
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
        HEADER,
        "gtbank,01******89,2024-01-03,,SALARY,0.00,500.00,500.00,500.00,,NGN",
        "gtbank,01******89,2024-01-03,,POS,20.00,0.00,480.00,480.00,,NGN",
        "gtbank,02******11,2024-01-05,09:00:00,FX BUY,0.00,10.00,10.00,10.00,,USD",
        "",
      ].join("\r\n"),
    );
  });

  test("one account section: the same header, the account on every row", () => {
    const rows = [txn({ narration: "A" })];
    const csv = toCsv({ metadata: metadata("01******89"), transactions: rows, accounts: [{ metadata: metadata("01******89"), transactions: rows }] });
    expect(csv.split("\r\n")[0]).toBe(HEADER);
    expect(csv.split("\r\n")[1]?.startsWith("gtbank,01******89,")).toBe(true);
  });

  test("derived_balance: the opening balance plus credits minus debits, exact in kobo; a printed balance that disagrees stays as printed", () => {
    const open = { ...metadata("01******89"), opening_balance: "1000.10" };
    const rows = [txn({ credit: "0.20", balance: "1000.30" }), txn({ debit: "0.10", balance: "999.99" }), txn({ debit: "5.00", balance: "7.00" })];
    const csv = toCsv({ metadata: open, transactions: rows });
    const cells = csv.trimEnd().split("\r\n").slice(1).map((l) => l.split(","));
    expect(cells.map((c) => c[7])).toEqual(["1000.30", "999.99", "7.00"]);
    expect(cells.map((c) => c[8])).toEqual(["1000.30", "1000.20", "995.20"]);
  });

  test("derived_balance is empty once the opening balance is not an amount", () => {
    const csv = toCsv({ metadata: { ...metadata("01******89"), opening_balance: "n/a" }, transactions: [txn({ credit: "1.00" })] });
    expect(csv.split("\r\n")[1]?.split(",")[8]).toBe("");
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
