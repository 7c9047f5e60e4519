/**
 * The chain's repair rule on its own (pure): which OCR misreadings it undoes, and the ones it must
 * never "fix" (a digit added, a missing row, a break with no confirmed neighbours).
 */
import { describe, expect, test } from "bun:test";
import { confusionOf } from "../../src/engine/ocr/confusions.ts";
import { normalizePages, rewriteAmount } from "../../src/engine/ocr/normalize.ts";
import { chainRepairs } from "../../src/engine/ocr/repair.ts";
import { settleRowDates } from "../../src/engine/ocr/row-dates.ts";
import type { OcrLine } from "../../src/engine/ocr/row-lines.ts";
import type { AccountSection, Checks, Transaction } from "../../src/engine/types.ts";

const k = (naira: string) => BigInt(naira.replace(".", ""));

describe("confusionOf: a single misreading of the true value, or null", () => {
  test("one digit substituted", () => expect(confusionOf(k("1834.50"), k("1534.50"))).toBe("digit_substituted"));
  test("decimal point lost", () => expect(confusionOf(k("375.00"), k("3.75"))).toBe("decimal_point_lost"));
  test("decimal point read as 1 or 7", () => {
    expect(confusionOf(k("3175.00"), k("3.75"))).toBe("decimal_point_read_as_1");
    expect(confusionOf(k("3775.00"), k("3.75"))).toBe("decimal_point_read_as_7");
  });
  test("a digit added is never a confusion (3.75 is not 53.75)", () => {
    expect(confusionOf(k("3.75"), k("53.75"))).toBeNull();
    expect(confusionOf(k("53.75"), k("3.75"))).toBeNull();
  });
  test("two digits changed, or a sign changed, is not one confusion", () => {
    expect(confusionOf(k("1834.50"), k("1534.70"))).toBeNull();
    expect(confusionOf(-k("10.00"), k("10.00"))).toBeNull();
  });
});

describe("rewriteAmount: separators with one meaning", () => {
  test("points as thousands separators, all or some of them", () => {
    expect(rewriteAmount("5.000.00")).toEqual({ used: "5,000.00", reason: "separator_misread" });
    expect(rewriteAmount("19.040,824.36")).toEqual({ used: "19,040,824.36", reason: "separator_misread" });
    expect(rewriteAmount("1,040.824.36")).toEqual({ used: "1,040,824.36", reason: "separator_misread" });
  });
  test("comma as decimal point", () => expect(rewriteAmount("1,234,56")).toEqual({ used: "1,234.56", reason: "separator_misread" }));
  test("a decimal point read as a colon, where the word cannot be a clock time", () => {
    expect(rewriteAmount("1,234:56")).toEqual({ used: "1,234.56", reason: "decimal_point_read_as_colon" });
    expect(rewriteAmount("3:75")).toEqual({ used: "3.75", reason: "decimal_point_read_as_colon" });
    expect(rewriteAmount("250:00CR")).toEqual({ used: "250.00CR", reason: "decimal_point_read_as_colon" });
    expect(rewriteAmount("₦24:10")).toEqual({ used: "₦24.10", reason: "decimal_point_read_as_colon" });
  });
  test("a date, a clock time or a plain amount is left alone", () => {
    for (const t of ["12.05.2024", "12:30", "9:45", "23:59", "1,234.56", "5.00", "12:30:45", "1.2345.00", "19.04,824.36"]) expect(rewriteAmount(t)).toBeNull();
  });
});

describe("normalizePages: kobo split off by a decimal point read as a space", () => {
  const word = (text: string, left: number, line = "1.1.1") => ({ text, left, top: 100, width: text.length * 20, height: 30, conf: 90, line });
  const page = (words: ReturnType<typeof word>[]) => ({ number: 3, words, dpi: 300, widthPt: 595, heightPt: 842, skewDegrees: 0 });
  test("a grouped whole amount and two digits a point's width after it are one amount, reported", () => {
    const { pages, rewrites } = normalizePages([page([word("Transfer", 0), word("20,021,284", 400), word("41", 615)])]);
    expect(pages[0]!.words.map((w) => w.text)).toEqual(["Transfer", "20,021,284.41"]);
    expect(rewrites).toEqual([{ page: 3, word: 1, printed: "20,021,284 41", used: "20,021,284.41", reason: "decimal_point_read_as_space" }]);
  });
  test("two digits a column away, on another line, or after an ungrouped number are left apart", () => {
    for (const words of [
      [word("20,021,284", 400), word("41", 700)],
      [word("20,021,284", 400), word("41", 615, "1.1.2")],
      [word("2024", 400), word("41", 485)],
      [word("20,021,284.00", 400), word("41", 665)],
    ]) {
      const { pages, rewrites } = normalizePages([page(words)]);
      expect(pages[0]!.words.length).toBe(2);
      expect(rewrites).toEqual([]);
    }
  });
});

function section(rows: [debit: string, credit: string, balance: string][], opening = "1000.00", closing = ""): AccountSection {
  const transactions: Transaction[] = rows.map(([debit, credit, balance]) => ({ date: "2024-01-01T00:00:00+01:00", narration: "x", debit, credit, balance, reference: "", currency: "NGN" }));
  const checks = {
    row_chain: false,
    first_break_index: null,
    balances_derived: false,
    totals_match: null,
    closing_balance_match: closing === "" ? null : false,
    reversed: false,
    count_match: null,
    opening_balance_source: "statement",
    kobo_rounding_rows: [],
    notes: [],
    verdict: "unverified",
    assumed: [],
  } satisfies Checks;
  return {
    metadata: { bank: "", account_holder: "", account_number_masked: "", statement_period_start: "", statement_period_end: "", opening_balance: opening, closing_balance: closing },
    totals: { credit: "0.00", debit: "0.00" },
    row_wise_reconcilable: false,
    checks,
    transactions,
  };
}

describe("chainRepairs", () => {
  test("an amount with one digit misread, both balances around it confirmed, is repaired", () => {
    const s = section([
      ["100.00", "0.00", "900.00"],
      ["80.00", "0.00", "850.00"], // truly 50.00
      ["0.00", "150.00", "1000.00"],
    ]);
    expect(chainRepairs(s)).toEqual([{ row: 1, field: "debit", printed: k("80.00"), used: k("50.00"), confusion: "digit_substituted" }]);
  });

  test("a balance with its decimal point lost is repaired when the next link confirms it", () => {
    const s = section([
      ["100.00", "0.00", "900.00"],
      ["3.75", "0.00", "89625.00"], // truly 896.25
      ["0.00", "3.75", "900.00"],
    ]);
    expect(chainRepairs(s)).toEqual([{ row: 1, field: "balance", printed: k("89625.00"), used: k("896.25"), confusion: "decimal_point_lost" }]);
  });

  test("a break that a missing row explains is never repaired (3.75 never becomes 53.75)", () => {
    // A 50.00 row between the first two is missing: 950.00 - 3.75 printed as 896.25.
    const s = section([
      ["50.00", "0.00", "950.00"],
      ["3.75", "0.00", "896.25"],
      ["0.00", "3.75", "900.00"],
    ]);
    expect(chainRepairs(s)).toEqual([]);
  });

  test("two neighbouring breaks with no confirmed balance between them are left as breaks", () => {
    const s = section([
      ["100.00", "0.00", "900.00"],
      ["80.00", "0.00", "850.00"],
      ["90.00", "0.00", "800.00"],
      ["0.00", "150.00", "950.00"],
    ]);
    expect(chainRepairs(s)).toEqual([]);
  });

  test("a row with no amount read is never given one", () => {
    const s = section([
      ["100.00", "0.00", "900.00"],
      ["0.00", "0.00", "850.00"],
      ["0.00", "150.00", "1000.00"],
    ]);
    expect(chainRepairs(s)).toEqual([]);
  });

  test("balances the statement does not print are never repaired", () => {
    const s = section([
      ["100.00", "0.00", "900.00"],
      ["80.00", "0.00", "850.00"],
    ]);
    s.checks.balances_derived = true;
    expect(chainRepairs(s)).toEqual([]);
  });
});

describe("settleRowDates: a date OCR missed", () => {
  const row = (date: string): Transaction => ({ date: `${date}T00:00:00+01:00`, narration: "", debit: "1.00", credit: "0.00", balance: "1.00", reference: "", currency: "NGN" });
  const line = (...texts: string[]): OcrLine => ({ key: texts.join(" "), words: texts.map((text, word) => ({ text, left: 0, top: 0, width: 1, height: 1, conf: 90, line: "1", page: 1, word })) });

  test("is taken from the other date column when both columns agree on every other line", () => {
    const rows = ["2024-03-01", "2024-03-02", "2024-03-03", "2024-03-03", "2024-03-05"].map(row);
    const lines = [line("01/03/2024", "01/03/2024"), line("02/03/2024", "02/03/2024"), line("03/03/2024", "03/03/2024"), line("04/03/2024"), line("05/03/2024", "05/03/2024")];
    const r = settleRowDates(rows, lines);
    expect(r.unconfirmed).toEqual([]);
    expect(r.repairs.map((x) => [x.row, x.used])).toEqual([[3, "2024-03-04"]]);
    expect(rows[3]!.date).toBe("2024-03-04T00:00:00+01:00");
  });

  test("stays unconfirmed when the columns disagree elsewhere (value dates differ from posting dates)", () => {
    const rows = ["2024-03-01", "2024-03-02", "2024-03-03", "2024-03-03", "2024-03-05"].map(row);
    const lines = [line("01/03/2024", "02/03/2024"), line("02/03/2024", "02/03/2024"), line("03/03/2024", "03/03/2024"), line("04/03/2024"), line("05/03/2024", "05/03/2024")];
    const r = settleRowDates(rows, lines);
    expect(r.repairs).toEqual([]);
    expect(r.unconfirmed).toEqual([3]);
    expect(rows[3]!.date).toBe("2024-03-03T00:00:00+01:00");
  });
});
