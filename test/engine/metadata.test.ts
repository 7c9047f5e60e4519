import { describe, expect, test } from "bun:test";
import { formatLagos } from "../../src/engine/dates.ts";
import { pageLines, sheetLines } from "../../src/engine/layout/lines.ts";
import { accountScrubber, extractHeaderFacts, maskAccountNumber } from "../../src/engine/metadata/index.ts";
import { page } from "./layout-helpers.ts";

const facts = (lines: Parameters<typeof page>[1]) => extractHeaderFacts(pageLines(page(1, lines)));
const day = (d: Parameters<typeof formatLagos>[0] | undefined) => (d ? formatLagos(d).slice(0, 10) : null);

describe("statement facts beside and under their labels", () => {
  test("label and value on one line, far apart, with a colon cell between", () => {
    const f = facts([
      [60, [20, "Account Name"], [80, ":"], [120, "ADA OKAFOR"], [400, "Opening Balance"], [480, "₦1,000.50"]],
      [72, [20, "Account No."], [120, "0123 456 789"], [400, "Closing Bal."], [480, "(250.00)"]],
      [84, [20, "Period"], [120, "01-Jan-2024"], [173, "To"], [187, "31-Jan-2024"]],
      [96, [20, "Currency"], [120, "Naira"]],
    ]);
    expect(f).toMatchObject({ holder: "ADA OKAFOR", accountNumber: "0123456789", opening: 100050n, closing: -25000n, currency: "NGN" });
    expect(f.period?.map(day)).toEqual(["2024-01-01", "2024-01-31"]);
  });

  test("a label wrapped around its value's line, both centred in their row, names the value between its halves", () => {
    // A summary table of two pairs a row: `Account` over `Number` beside an account number on the
    // line between, `Beginning` over `Balance` around its figure, another pair's cells to the left.
    const f = facts([
      [60, [300, "Account"]],
      [67, [20, "Customer Name"], [120, "ADEOLA JOHNSON"], [400, "0123456789"]],
      [74, [300, "Number"]],
      [100, [20, "Beginning"]],
      [107, [120, "25,000.00"]],
      [114, [20, "Balance"]],
    ]);
    expect(f).toMatchObject({ holder: "ADEOLA JOHNSON", accountNumber: "0123456789", opening: 2500000n });
    // Halves farther apart than a line between them are no label.
    const far = facts([[100, [20, "Beginning"]], [115, [120, "25,000.00"]], [135, [20, "Balance"]]]);
    expect(far.opening).toBeNull();
  });

  test("a period wrapped around its label's line right after a date's separator is one date there", () => {
    // LibreOffice Writer: `01-01-2026 to 31-03-` over `Period`, `2026` under it.
    const f = facts([[60, [107, "01-01-2026 to 31-03-"]], [64, [20, "Period"]], [68, [107, "2026"]]]);
    expect(f.period?.map(day)).toEqual(["2026-01-01", "2026-03-31"]);
  });

  test("values under their labels in summary boxes; the first occurrence wins", () => {
    const f = facts([
      [60, [20, "Opening Balance"], [200, "Total Debit"], [380, "Debit Count"]],
      [72, [20, "₦204.31"], [200, "₦6,623.00"], [380, "16"]],
      [300, [20, "Opening Balance"]],
      [312, [20, "₦0.00"]],
    ]);
    expect(f).toMatchObject({ opening: 20431n, totalDebit: 662300n, debitCount: 16 });
  });

  test("several label: value pairs flattened into one run, and labels drawn word by word", () => {
    const f = extractHeaderFacts(sheetLines({ name: "s", rows: [["Account Name: IBEKWE HALIMA Account Number: 8084303208 Period: 01-Mar-2024 to 31-Mar-2024"]] }, 0));
    expect(f).toMatchObject({ holder: "IBEKWE HALIMA", accountNumber: "8084303208" });
    expect(f.period?.map(day)).toEqual(["2024-03-01", "2024-03-31"]);
    const g = facts([[60, [20, "ACCOUNT"], [60, "NO:"], [120, "3772393171"]], [72, [20, "FROM"], [60, ":"], [120, "01 May 2023 - 31 May 2023"]]]);
    expect(g.accountNumber).toBe("3772393171");
    expect(g.period?.map(day)).toEqual(["2023-05-01", "2023-05-31"]);
  });

  test("the holder: a labelled name, else the salutation, else capitals atop the address", () => {
    expect(facts([[40, [20, "Dear ADA OKAFOR,"]], [60, [20, "Customer Name:"], [120, "JOHN DOE"]]]).holder).toBe("JOHN DOE");
    expect(facts([[40, [20, "Dear"], [45, "Ada Okafor"]]]).holder).toBe("Ada Okafor");
    expect(facts([[40, [20, "Dear Valued Customer"]]]).holder).toBeNull();
    expect(facts([[30, [20, "STANBIC IBTC BANK"]], [40, [20, "PRIVATE AND CONFIDENTIAL"]], [50, [20, "OGUNLEYE TEMITOPE SEGUN"]], [60, [20, "12 AJOSE ADEOGUN STREET"]]]).holder).toBe("OGUNLEYE TEMITOPE SEGUN");
  });

  test("a month as the period is that whole month, also in a title", () => {
    expect(facts([[60, [20, "Statement Period:"], [120, "February 2024"]]]).period?.map(day)).toEqual(["2024-02-01", "2024-02-29"]);
    expect(facts([[40, [20, "Statement for January 2024"]]]).period?.map(day)).toEqual(["2024-01-01", "2024-01-31"]);
    expect(facts([[40, [20, "Statement of account from 01/03/2024 to 31/03/2024"]]]).period?.map(day)).toEqual(["2024-03-01", "2024-03-31"]);
  });

  test("a title's period with a page count printed after it on the same line", () => {
    const titled = facts([[40, [20, "STATEMENT OF ACCOUNT FOR THE PERIOD 01-JAN-2026 TO 28-FEB-2026"], [480, "PAGE 1 OF 4"]]]);
    expect(titled.period?.map(day)).toEqual(["2026-01-01", "2026-02-28"]);
    // A range among a title's words, a run date before it and a page count after it.
    const ranged = facts([[40, [20, "RUN DATE: 27/11/2026 10:14"], [200, "CUSTOMER STATEMENT: 01/01/26 - 28/02/26"], [480, "PAGE 1 OF 4"]]]);
    expect(ranged.period?.map(day)).toEqual(["2026-01-01", "2026-02-28"]);
    expect(facts([[40, [20, "TRANSACTION HISTORY FOR 1ST JAN 2026 TO 28TH FEB 2026"], [480, "PAGE 1 OF 9"]]]).period?.map(day)).toEqual(["2026-01-01", "2026-02-28"]);
  });
});

describe("account number masking", () => {
  test("only the last four digits survive, everywhere", () => {
    expect(maskAccountNumber("0123456789")).toBe("******6789");
    expect(maskAccountNumber(null)).toBe("");
    const scrub = accountScrubber("0123456789");
    expect(scrub("TRF FROM 0123456789 TO X")).toBe("TRF FROM ******6789 TO X");
    // A longer number that merely contains the account number is another number.
    expect(scrub("REF 901234567890")).toBe("REF 901234567890");
  });
});

describe("facts stated in words above the table (metadata/prose.ts)", () => {
  const at = (texts: string[]) => texts.map((t, i): [number, [number, string]] => [60 + i * 12, [20, t]]);

  test("the holder in a title, a greeting or after 'prepared for'", () => {
    expect(facts(at(["Account Statement for ADA OKAFOR"])).holder).toBe("ADA OKAFOR");
    expect(facts(at(["STATEMENT OF ACCOUNT OF ADA NNEKA OKAFOR (0123456789)"])).holder).toBe("ADA NNEKA OKAFOR");
    expect(facts(at(["Hello Ada Okafor,"])).holder).toBe("Ada Okafor");
    expect(facts(at(["Prepared for: ADA OKAFOR"])).holder).toBe("ADA OKAFOR");
    expect(facts(at(["Account Statement - Adeola Johnson"])).holder).toBe("Adeola Johnson");
    expect(facts(at(["Adeola Johnson's Account Statement"])).holder).toBe("Adeola Johnson");
    expect(facts(at(["Welcome, ADEOLA JOHNSON"])).holder).toBe("ADEOLA JOHNSON");
    expect(facts(at(["Statement for Adeola Johnson - Account 0123456789"]))).toMatchObject({ holder: "Adeola Johnson", accountNumber: "0123456789" });
    // Words of the sentence around a greeting are not a name.
    expect(facts(at(["Welcome to Carbon"])).holder).toBeNull();
    expect(facts(at(["Welcome back Adeola"])).holder).toBeNull();
    // A period or an account named where a name could be is not a holder.
    expect(facts(at(["Statement for January 2024"])).holder).toBeNull();
    expect(facts(at(["Statement for the period 01/01/2024 to 31/01/2024"])).holder).toBeNull();
  });

  test("a run of facts: the name and the account number beside the word account", () => {
    const f = facts(at(["ADA OKAFOR | 0123456789 | Savings Account", "01 Jan 2026 - 31 Mar 2026"]));
    expect(f).toMatchObject({ holder: "ADA OKAFOR", accountNumber: "0123456789" });
    expect(f.period?.map(day)).toEqual(["2026-01-01", "2026-03-31"]);
  });

  test("a month named as the period", () => {
    expect(facts(at(["Transactions for the month of March 2026"])).period?.map(day)).toEqual(["2026-03-01", "2026-03-31"]);
  });

  test("a sentence: the account number and the range after 'from'", () => {
    const f = facts(at(["Here is your statement for account 0123456789 from 01/01/2026 to 31/03/2026."]));
    expect(f.accountNumber).toBe("0123456789");
    expect(f.period?.map(day)).toEqual(["2026-01-01", "2026-03-31"]);
    const g = facts(at(["Account number 0123456789 · 01 January 2026 to 31 March 2026"]));
    expect(g.accountNumber).toBe("0123456789");
    expect(g.period?.map(day)).toEqual(["2026-01-01", "2026-03-31"]);
  });

  test("balances stated in a sentence: the opening and the closing, a label's figure first", () => {
    const f = facts(at(["Here is your statement. Your opening balance was ₦25,000.00. Your closing balance is NGN 1,234.56."]));
    expect(f).toMatchObject({ opening: 2500000n, closing: 123456n });
    expect(facts(at(["Your opening balance was (500.00)."])).opening).toBe(-50000n);
    expect(facts(at(["Opening Balance: 10.00", "Your opening balance was ₦25,000.00."])).opening).toBe(1000n);
    // "opening balance" without a verb and a figure is not a balance sentence.
    expect(facts(at(["We explain how your opening balance is worked out"])).opening).toBeNull();
  });

  test("the number sign before a NUBAN is not a hidden digit", () => {
    expect(facts(at(["Acct #0123456789"])).accountNumber).toBe("0123456789");
  });

  test("not an account number: a phone or BVN (eleven digits), two numbers on one line, a line without the word account", () => {
    expect(facts(at(["Call 08031234567 for account enquiries"])).accountNumber).toBeNull();
    expect(facts(at(["Linked: 0123456789 and 9876543210 on this account"])).accountNumber).toBeNull();
    expect(facts(at(["Reference 0123456789"])).accountNumber).toBeNull();
    expect(facts(at(["Your account officer: call 8031234567"])).accountNumber).toBeNull();
  });

  test("only above the first row: a narration naming an account and dates says nothing of the statement", () => {
    const lines = pageLines(page(1, [[60, [20, "STATEMENT"]], [120, [20, "TRANSFER TO ACCOUNT 0123456789 FROM 01/01/2026 TO 31/03/2026"]]]));
    const f = extractHeaderFacts(lines, { page: 1, y: 100 });
    expect(f.accountNumber).toBeNull();
    expect(f.period).toBeNull();
    expect(extractHeaderFacts(lines, { page: 1, y: 130 }).accountNumber).toBe("0123456789");
  });
});
