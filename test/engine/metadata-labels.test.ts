/**
 * Header facts from the label styles, period forms and holder rules seen on real statements
 * (issue 14): each test builds positioned lines the way a producer draws them.
 */
import { describe, expect, test } from "bun:test";
import { formatLagos, inferDayMonthOrder, resolveDate } from "../../src/engine/dates.ts";
import { pageLines, sheetLines } from "../../src/engine/layout/lines.ts";
import { extractHeaderFacts, maskAccountNumber, missingFactNotes } from "../../src/engine/metadata/index.ts";
import { unglueLabel } from "../../src/engine/metadata/clipped.ts";
import { splitAtLabels } from "../../src/engine/metadata/labels.ts";
import { page } from "./layout-helpers.ts";

const facts = (lines: Parameters<typeof page>[1]) => extractHeaderFacts(pageLines(page(1, lines)));
const sheetFacts = (rows: string[][]) => extractHeaderFacts(sheetLines({ name: "s", rows }, 0));
const day = (d: Parameters<typeof formatLagos>[0] | undefined) => (d ? formatLagos(d).slice(0, 10) : null);
/** The period as the document resolves it (its own dates decide the day/month order). */
const period = (f: ReturnType<typeof extractHeaderFacts>) => {
  if (!f.period) return null;
  const order = inferDayMonthOrder(f.period);
  return f.period.map((d) => day(resolveDate(d, order)));
};

describe("tight label/value grids", () => {
  test("a long value touching the next label is cut at the label", () => {
    const f = facts([
      [60, [20, "Account Name ADA CHIOMA OKAFOR Account Type Savings"]],
      [72, [20, "Account Number 0123456789 Currency NGN"]],
      [84, [20, "Statement Period 01 May 2024 to 31 May 2024 Branch Ikeja"]],
    ]);
    expect(f.holder).toBe("ADA CHIOMA OKAFOR");
    expect(f.accountNumber).toBe("0123456789");
    expect(f.currency).toBe("NGN");
    expect(period(f)).toEqual(["2024-05-01", "2024-05-31"]);
  });

  test("pairs on one line separated by bars end at the bar", () => {
    const f = facts([[60, [20, "Account Name: ADA CHIOMA OKAFOR | Account Number: 0123456789 | Currency: NGN"]]]);
    expect([f.holder, f.accountNumber]).toEqual(["ADA CHIOMA OKAFOR", "0123456789"]);
  });

  test("a value drawn apart but run into the next label's own run", () => {
    const f = facts([[60, [20, "Customer Name"], [110, "EMEKA NWOSU"], [160, "Account Type: Current"]]]);
    expect(f.holder).toBe("EMEKA NWOSU");
  });

  test("splitting keeps 'to' between dates and a run's own first label whole", () => {
    expect(splitAtLabels("Account Name ADA OKAFOR Account Type Savings").map((p) => p.text)).toEqual(["Account Name ADA OKAFOR", "Account Type Savings"]);
    expect(splitAtLabels("01 May 2024 To 31 May 2024").map((p) => p.text)).toEqual(["01 May 2024 To 31 May 2024"]);
    expect(splitAtLabels("From: 01 May 2024 To: 31 May 2024").map((p) => p.text)).toEqual(["From: 01 May 2024", "To: 31 May 2024"]);
  });

  test("a megabyte run without spaces or full of label words stays linear", () => {
    const long = "Account Type ".repeat(80_000);
    // A quadratic path would take minutes on these and the test would time out.
    const f = sheetFacts([[`Account Name ${long}`], ["x".repeat(1_000_000)], [`Account Number ${"0".repeat(1_000_000)}`]]);
    expect(f).toMatchObject({ holder: null, accountNumber: null });
    const g = facts([[60, [20, `Account Name ${"A ".repeat(500_000)}`]], [72, [20, "12 Street ".repeat(100_000)]], [84, [20, `From: ${"01 May 2024 ".repeat(80_000)}`]]]);
    expect(g).toMatchObject({ holder: null, period: null });
  });
});

describe("colons, columns and rows", () => {
  test("a colon detached from its label and aligned with spaces", () => {
    const f = facts([
      [60, [20, "ACCOUNT NAME"], [140, ": BLESSING ADEYEMI"]],
      [72, [20, "ACCOUNT NUMBER"], [140, ":"], [150, "0123456789"]],
      [84, [20, "OPENING BALANCE"], [140, ": 12,500.00"]],
    ]);
    expect(f).toMatchObject({ holder: "BLESSING ADEYEMI", accountNumber: "0123456789", opening: 1250000n });
  });

  test("a monospaced line with the spaces inside one string", () => {
    const f = facts([[60, [20, "ACCOUNT NUMBER      : 0123456789     CURRENCY   : NGN"]], [72, [20, "ACCOUNT NAME        : TUNDE BAKARE"]]]);
    expect(f).toMatchObject({ holder: "TUNDE BAKARE", accountNumber: "0123456789", currency: "NGN" });
  });

  test("labels and values in two column pairs", () => {
    const f = facts([
      [60, [20, "Account Name"], [110, "IFEOMA EZE"], [300, "Opening Balance"], [400, "5,000.00"]],
      [72, [20, "Account No."], [110, "2233445566"], [300, "Closing Balance"], [400, "4,250.75"]],
    ]);
    expect(f).toMatchObject({ holder: "IFEOMA EZE", accountNumber: "2233445566", opening: 500000n, closing: 425075n });
  });

  test("a value its narrow cell wrapped: the rest on the next line, under its start", () => {
    const f = facts([
      [60, [20, "Name"], [110, "ADEOLA JOHNSON"], [300, "Acct No"], [400, "0123456789"]],
      [72, [20, "Period"], [110, "Thu, 01 Jan 2026 to Sat, 28 Feb"], [300, "Currency"], [400, "NGN"]],
      [84, [110, "2026"]],
    ]);
    expect(f).toMatchObject({ holder: "ADEOLA JOHNSON", accountNumber: "0123456789" });
    expect(period(f)).toEqual(["2026-01-01", "2026-02-28"]);
    // Not under the value's start: no part of it.
    expect(period(facts([[60, [20, "Period"], [110, "Thu, 01 Jan 2026 to Sat, 28 Feb"]], [72, [160, "2026"]]]))).toBeNull();
  });

  test("values on the line below their labels", () => {
    const f = facts([
      [60, [20, "Customer Name"], [200, "Account Number"], [380, "Period"]],
      [72, [20, "MUSA ABDULLAHI"], [200, "3344556677"], [380, "01/06/2024 - 30/06/2024"]],
    ]);
    expect(f).toMatchObject({ holder: "MUSA ABDULLAHI", accountNumber: "3344556677" });
    expect(period(f)).toEqual(["2024-06-01", "2024-06-30"]);
  });

  test("values centred under centred labels in a summary box", () => {
    const f = facts([
      [60, [62, "Period"], [214, "Account Number"]],
      [72, [20, "01 May 2024 - 31 May 2024"], [208, "0123456789"]],
    ]);
    expect(f.accountNumber).toBe("0123456789");
    expect(period(f)).toEqual(["2024-05-01", "2024-05-31"]);
  });

  test("labels in a left column, values in a right column on slightly offset baselines", () => {
    const f = facts([
      [60, [20, "Account Title"]],
      [65, [200, "KEMI ADEBAYO"]],
      [80, [20, "NUBAN"]],
      [85, [200, "4455667788"]],
      [100, [20, "Balance B/F"]],
      [105, [200, "1,000.00"]],
      [120, [20, "Balance C/F"]],
      [125, [200, "900.00"]],
    ]);
    expect(f).toMatchObject({ holder: "KEMI ADEBAYO", accountNumber: "4455667788", opening: 100000n, closing: 90000n });
  });

  test("spreadsheet cells: label, colon cell, value", () => {
    const f = sheetFacts([["A/C No", ":", "5566778899"], ["Name", ":", "Chinedu Okeke"]]);
    expect(f).toMatchObject({ accountNumber: "5566778899", holder: "Chinedu Okeke" });
  });

  test("spreadsheet: a row of adjacent labels over a row of values, each value in its label's column", () => {
    const f = sheetFacts([["Account Title", "A/C No", "Period", "Balance B/F", "Balance C/F"], ["OKON ETIM", "0011223344", "01-May-2024 to 31-May-2024", "10.00", "20.50"]]);
    expect(f).toMatchObject({ holder: "OKON ETIM", accountNumber: "0011223344", opening: 1000n, closing: 2050n });
    expect(period(f)).toEqual(["2024-05-01", "2024-05-31"]);
  });
});

describe("period forms", () => {
  const one = (text: string) => period(facts([[60, [20, text]]]));
  test("From: … To: …", () => expect(one("From: 01 May 2024 To: 31 May 2024")).toEqual(["2024-05-01", "2024-05-31"]));
  test("dd-Mon-yyyy to dd-Mon-yyyy", () => expect(one("Period: 01-May-2024 to 31-May-2024")).toEqual(["2024-05-01", "2024-05-31"]));
  test("Covering … through …", () => expect(one("Covering 1 May 2024 through 31 May 2024")).toEqual(["2024-05-01", "2024-05-31"]));
  test("MON.dd yyyy - MON.dd yyyy", () => expect(one("Statement Period: JUL.01 2026 - JUL.31 2026")).toEqual(["2026-07-01", "2026-07-31"]));
  test("US order proven by one end applies to both", () => expect(one("Statement Period 04/30/2026 - 08/01/2026")).toEqual(["2026-04-30", "2026-08-01"]));
  test("day-first order proven by one end applies to both", () => expect(one("Statement Period 30/04/2026 - 08/05/2026")).toEqual(["2026-04-30", "2026-05-08"]));
  test("start and end under their own labels on separate lines", () => {
    expect(period(facts([[60, [20, "Start Date:"], [90, "01/05/2024"]], [72, [20, "End Date:"], [90, "31/05/2024"]]]))).toEqual(["2024-05-01", "2024-05-31"]);
    expect(period(facts([[60, [20, "From : 01-May-2024"]], [72, [20, "To : 31-May-2024"]]]))).toEqual(["2024-05-01", "2024-05-31"]);
  });
  test("a date on the next line that belongs to its own label is not the period's end", () => {
    expect(facts([[60, [20, "Statement Date :"], [120, "01/06/2024"]], [72, [20, "Print Date :"], [120, "02/06/2024"]]]).period).toBeNull();
  });
  test("in a right-hand value column off the label's baseline, the end under the start", () => {
    expect(period(facts([[60, [20, "Period"]], [64, [200, "01 Mar 2025 -"]], [78, [200, "31 Mar 2025"]]]))).toEqual(["2025-03-01", "2025-03-31"]);
  });
  test("start on the label's line, end on the line below", () => {
    expect(period(facts([[60, [20, "Statement Period"], [120, "01 May 2024 -"]], [72, [120, "31 May 2024"]]]))).toEqual(["2024-05-01", "2024-05-31"]);
    expect(period(facts([[60, [20, "Period:"], [120, "01 May 2024"]], [72, [120, "to 31 May 2024"]]]))).toEqual(["2024-05-01", "2024-05-31"]);
  });
});

describe("the holder", () => {
  test.each([["Account Name"], ["Customer Name"], ["Account Title"], ["Name"]])("labelled %s", (label) => {
    expect(facts([[60, [20, `${label}:`], [120, "Ngozi Obi"]]]).holder).toBe("Ngozi Obi");
  });

  test("no label: the line above the street of the address block, not the document title", () => {
    const f = facts([
      [30, [200, "LEDGER EXTRACT"]],
      [50, [20, "Adaeze Nwankwo Okonkwo"]],
      [60, [20, "14 Adeola Odeku Street"]],
      [70, [20, "Victoria Island, Lagos"]],
    ]);
    expect(f.holder).toBe("Adaeze Nwankwo Okonkwo");
    expect(f.holderLabelled).toBe(false);
  });

  test("a company above its address", () => {
    const f = facts([
      [30, [20, "STATEMENT OF ACCOUNT"]],
      [50, [20, "ZUMA FOODS & SONS"]],
      [60, [20, "Plot 7, Trans-Amadi Layout"]],
    ]);
    expect(f.holder).toBe("ZUMA FOODS & SONS");
  });

  test("document titles are never the holder, labelled or not", () => {
    expect(facts([[30, [20, "LEDGER EXTRACT"]], [40, [20, "STATEMENT OF ACCOUNT"]]]).holder).toBeNull();
    expect(facts([[30, [20, "Account Name:"], [100, "STATEMENT OF ACCOUNT"]]]).holder).toBeNull();
  });
});

describe("account numbers", () => {
  test.each([["Account Number"], ["Account No."], ["A/C No"], ["Acct"], ["Ledger No."], ["NUBAN"]])("labelled %s", (label) => {
    expect(facts([[60, [20, `${label}:`], [120, "0987654321"]]]).accountNumber).toBe("0987654321");
  });

  test("an abbreviated label touching its number", () => {
    expect(facts([[60, [200, "Acct. No."], [240, "0123456789"]]]).accountNumber).toBe("0123456789");
  });

  test("numbers the bank masked keep only the digits it printed", () => {
    const a = facts([[60, [20, "Account Number:"], [120, "2054XXXXXX"]]]).accountNumber;
    expect(a).toBe("2054XXXXXX");
    expect(maskAccountNumber(a)).toBe("2054******");
    const b = facts([[60, [20, "Acct"], [120, "064****837"]]]).accountNumber;
    // Kept as printed, so the redactor finds it on the page.
    expect(b).toBe("064****837");
    expect(maskAccountNumber(b)).toBe("**4****837");
    expect(maskAccountNumber("064 XXX X837")).toBe("**4****837");
    expect(maskAccountNumber("0123456789")).toBe("******6789");
    // Too few printed digits to be a number; a word of x's is not a mask.
    expect(facts([[60, [20, "Account Number:"], [120, "XXXXXXXX12"]]]).accountNumber).toBeNull();
    expect(facts([[60, [20, "Account No:"], [120, "xxxxxxxxxx"]]]).accountNumber).toBeNull();
  });
});

describe("opening and closing labels", () => {
  const bal = (label: string) => facts([[60, [20, label], [160, "1,234.50"]]]);
  test.each([["Opening Balance"], ["Balance B/F"], ["Brought Forward"], ["Balance at Period Start"]])("opening: %s", (label) => {
    expect(bal(label).opening).toBe(123450n);
  });
  test.each([["Closing Balance"], ["Balance C/F"], ["Carried Forward"], ["Ledger Position"]])("closing: %s", (label) => {
    expect(bal(label).closing).toBe(123450n);
  });
});

describe("absent facts", () => {
  test("are null and listed, with a plain note each", () => {
    const f = facts([[60, [20, "Currency:"], [100, "NGN"]]]);
    expect(f).toMatchObject({ holder: null, accountNumber: null, period: null });
    expect(f.missing).toEqual(["account holder", "account number", "statement period"]);
    const notes = missingFactNotes(f.missing);
    expect(notes).toHaveLength(3);
    expect(notes[0]).toContain("account holder");
  });

  test("a neighbouring label or heading never fills a fact", () => {
    const f = facts([
      [60, [20, "Account Name"], [120, "Account Number"], [220, "Statement Period"]],
      [72, [20, "Date"], [120, "Description"], [220, "Amount"]],
    ]);
    expect(f).toMatchObject({ holder: null, accountNumber: null, period: null });
  });
});

describe("compound labels and period sentences", () => {
  test("a label ending in a holder word is not the holder's label", () => {
    const f = facts([[60, [20, "Bank Name: Guaranty Trust Bank Branch: Ikeja Customer Name: OKON ETIM"]]]);
    expect(f.holder).toBe("OKON ETIM");
    expect(facts([[60, [20, "Company Name:"], [110, "ZUMA FOODS LIMITED"]]]).holder).toBe("ZUMA FOODS LIMITED");
  });

  test("a period in a sentence of its own", () => {
    expect(period(facts([[60, [20, "Transactions between 01 May 2024 and 31 May 2024"]]]))).toEqual(["2024-05-01", "2024-05-31"]);
    expect(period(facts([[60, [20, "Showing transactions from 01/05/2024 to 31/05/2024"]]]))).toEqual(["2024-05-01", "2024-05-31"]);
  });
});

describe("the label vocabulary", () => {
  const LABELS = [
    "Account Name", "Account Holder's Name", "Customer Name", "Client Name", "Company Name", "Account Title", "Name of Customer",
    "Account Number", "Account No.", "A/C No", "Acct No", "Ledger No.", "NUBAN", "Wallet No.", "Customer Account Number",
    "Statement Period", "Transaction Period", "Period Covered", "Date Range", "Start Date", "End Date", "Period From", "Period To",
    "Opening Balance", "Balance B/F", "Bal. B/F", "Brought Forward", "Balance at Period Start", "Opening Ledger Balance",
    "Closing Balance", "Balance C/F", "Carried Forward", "Balance at Period End", "Ledger Position",
    "Total Debits", "Total Credits", "Money In", "Money Out", "Debit Count", "No. of Credits", "Currency",
    "Account Type", "Account Status", "Product Name", "Branch Name", "Sort Code", "Address", "BVN", "Phone Number", "E-mail",
    "Print Date", "Date Printed", "Available Balance", "Cleared Balance", "Overdraft Limit", "Bank Name", "Relationship Manager",
  ];
  test.each(LABELS)("a value running into %s is cut there", (label) => {
    expect(splitAtLabels(`ADA OKAFOR ${label} VALUE`).map((p) => p.text)).toEqual(["ADA OKAFOR", `${label} VALUE`]);
  });
});

describe("label words inside names", () => {
  test("a company name holding a label word is not cut without a colon", () => {
    expect(splitAtLabels("SMART PHONE HUB Account Type Current").map((p) => p.text)).toEqual(["SMART PHONE HUB", "Account Type Current"]);
    expect(facts([[60, [20, "Customer Name:"], [110, "MOBILE WORLD NAME VENTURES"]]]).holder).toBe("MOBILE WORLD NAME VENTURES");
  });
});

describe("a two-column box of pairs whose labels and values wrap in their cells, centred on one line", () => {
  test("`Name of` over `Account` is one label, its value the name beside them; the second pair's label and value too; a period wrapped around its label is both its lines", () => {
    const f = facts([
      [60, [20, "Name of"], [300, "Account"]],
      [67, [120, "ADEOLA JOHNSON"], [420, "0123456789"]],
      [74, [20, "Account"], [300, "Number"]],
      [92, [120, "1st Jan 2026 to 31st Jan"]],
      [99, [20, "Period"], [300, "Currency"], [420, "NGN"]],
      [106, [120, "2026"]],
    ]);
    expect([f.holder, f.accountNumber, f.currency]).toEqual(["ADEOLA JOHNSON", "0123456789", "NGN"]);
    expect(period(f)).toEqual(["2026-01-01", "2026-01-31"]);
  });
});

describe("labels a printed sheet cut short and glued to their values (metadata/clipped.ts)", () => {
  test("read apart as the full label and the value", () => {
    expect(unglueLabel("Account Numb0123456789")).toBe("Account Number 0123456789");
    expect(unglueLabel("Account NameADEOLA JOHNSON")).toBe("Account Name ADEOLA JOHNSON");
    expect(unglueLabel("Statement Per01/01/2026 -")).toBe("Statement Period 01/01/2026 -");
    expect(unglueLabel("Opening Bala")).toBe("Opening Balance");
  });

  test("never: a label cut to fewer than three letters of its last word, a word that only starts like one, ordinary text", () => {
    expect(unglueLabel("Account Nu0123456789")).toBeNull();
    expect(unglueLabel("Accountant")).toBeNull();
    expect(unglueLabel("TRANSFER FROM ADA OBI")).toBeNull();
    expect(unglueLabel("Period")).toBeNull();
    expect(unglueLabel("Currency NGN")).toBeNull();
  });

  test("a sheet's header block printed with clipped labels gives its facts", () => {
    const lines = pageLines(page(1, [[60, [20, "Account NameADEOLA JOHNSON"]], [72, [20, "Account Numb0123456789"]], [84, [20, "Statement Per01/01/2026 - 31/03/2026"]], [96, [20, "Opening Bala"], [120, "25,000.00"]]]));
    expect(extractHeaderFacts(lines)).toMatchObject({ holder: "ADEOLA JOHNSON", accountNumber: "0123456789", opening: 2500000n });
    expect(extractHeaderFacts(lines).period).not.toBeNull();
  });
});
