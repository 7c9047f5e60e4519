import { describe, expect, test } from "bun:test";
import { neutraliseFormula, quoteField, toCsv } from "../../src/engine/csv.ts";
import type { ParseResponse, Transaction } from "../../src/engine/types.ts";

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

const response = (transactions: Transaction[]) => ({ transactions }) as unknown as ParseResponse;

describe("toCsv", () => {
  test("header, CRLF line ends, one line per transaction", () => {
    const csv = toCsv(response([txn({ narration: "POS", debit: "12.50", balance: "-12.50", reference: "R1" })]));
    expect(csv).toBe("date,narration,debit,credit,balance,reference,currency\r\n2024-01-03T00:00:00+01:00,POS,12.50,0.00,-12.50,R1,NGN\r\n");
  });

  test("RFC 4180 quoting of commas, quotes and line breaks", () => {
    const csv = toCsv(response([txn({ narration: 'TRF "JOHN", DOE\nLAGOS' })]));
    expect(csv.split("\r\n")[1]).toBe('2024-01-03T00:00:00+01:00,"TRF ""JOHN"", DOE\nLAGOS",0.00,0.00,0.00,,NGN');
  });

  test("formula injection is neutralised in text columns, not in amounts", () => {
    const csv = toCsv(response([txn({ narration: "=HYPERLINK(\"http://x\")", reference: "+2348000", balance: "-5.00" }), txn({ narration: "@SUM(A1)", reference: "-1" })]));
    const [, a, b] = csv.split("\r\n");
    expect(a).toBe(`2024-01-03T00:00:00+01:00,"'=HYPERLINK(""http://x"")",0.00,0.00,-5.00,'+2348000,NGN`);
    expect(b).toBe("2024-01-03T00:00:00+01:00,'@SUM(A1),0.00,0.00,0.00,'-1,NGN");
  });

  test("helpers", () => {
    expect(neutraliseFormula("\tcmd")).toBe("'\tcmd");
    expect(neutraliseFormula("SALARY")).toBe("SALARY");
    expect(quoteField("a,b")).toBe('"a,b"');
    expect(quoteField("plain")).toBe("plain");
  });
});
