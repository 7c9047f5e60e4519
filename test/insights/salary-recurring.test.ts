/**
 * Salary detection (a regular employer credit, one that skips a month, one that is large but not
 * salary) and recurring debits (monthly and weekly, and what is not recurring).
 */
import { describe, expect, test } from "bun:test";
import { analyse } from "../../src/engine/insights/index.ts";
import { type RowSpec, statement } from "./statement.ts";

const monthly = (months: string[], day: string, narration: string, amount: (i: number) => string, side: "debit" | "credit"): RowSpec[] =>
  months.map((m, i) => [`${m}-${day}`, narration, side === "debit" ? amount(i) : "", side === "credit" ? amount(i) : ""]);

const NOISE: RowSpec[] = [
  ["2025-01-03", "POS PURCHASE @ SPAR LEKKI", "4500.00", ""],
  ["2025-02-11", "Transfer from AUNTY NGOZI | Kuda | 2012345678", "", "20000.00"],
  ["2025-03-15", "AIRTIME PURCHASE MTN 08031234567", "1000.00", ""],
  ["2025-04-20", "Transfer to MAMA CHIDI | OPay | 8012345678", "7000.00", ""],
];
const sorted = (rows: RowSpec[]) => [...rows].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

describe("salary", () => {
  test("a regular employer credit without the word salary: found by recurrence, rows become salary", () => {
    // Pay lands around the 25th (a weekend moves it), the amount moves a little (tax, overtime).
    const pay = [
      ["2025-01-24", "Transfer from ZENITH SOFTWARE LIMITED | Zenith Bank | 1012345678", "", "350000.00"],
      ["2025-02-25", "Transfer from ZENITH SOFTWARE LIMITED | Zenith Bank | 1012345678", "", "350000.00"],
      ["2025-03-26", "Transfer from ZENITH SOFTWARE LIMITED | Zenith Bank | 1012345678", "", "362500.00"],
      ["2025-04-25", "Transfer from ZENITH SOFTWARE LIMITED | Zenith Bank | 1012345678", "", "350000.00"],
    ] as RowSpec[];
    const { rows, insights } = analyse(statement(sorted([...pay, ...NOISE])));
    expect(insights.salary).toHaveLength(1);
    const s = insights.salary[0]!;
    expect(s.employer).toBe("ZENITH SOFTWARE LIMITED");
    expect(s.basis).toBe("recurrence");
    expect(s.regularity).toBe("monthly");
    expect(s.months_seen).toEqual(["2025-01", "2025-02", "2025-03", "2025-04"]);
    expect(s.months_missed).toEqual([]);
    expect(s.day_of_month).toBe(25);
    expect(s.amount).toBe("350000.00");
    expect(s.total.amount).toBe("1412500.00");
    expect(s.total.rows.map((i) => rows[i]!.enrichment.category)).toEqual(["salary", "salary", "salary", "salary"]);
    // The aunt's one credit is not salary.
    expect(rows.find((r) => r.transaction.narration.startsWith("Transfer from AUNTY"))?.enrichment.category).toBe("transfer_in");
  });

  test("salary that skips a month: still salary, the missing month named, regularity skips_months", () => {
    const pay = monthly(["2025-01", "2025-02", "2025-04", "2025-05"], "28", "SALARY PAYMENT ACME NIGERIA PLC", () => "280000.00", "credit");
    const { insights } = analyse(statement(sorted([...pay, ...NOISE])));
    expect(insights.salary).toHaveLength(1);
    const s = insights.salary[0]!;
    expect(s.basis).toBe("narration");
    expect(s.regularity).toBe("skips_months");
    expect(s.months_missed).toEqual(["2025-03"]);
    expect(s.months_seen).toHaveLength(4);
    expect(s.day_of_month).toBe(28);
  });

  test("salary narrations that name the month are one employer", () => {
    const pay = ["2025-01", "2025-02", "2025-03"].map((m, i): RowSpec => [`${m}-25`, `SALARY ${["JAN", "FEB", "MAR"][i]} 2025 LAGOS STATE GOVT`, "", "198482.00"]);
    const { insights } = analyse(statement(sorted([...pay, ...NOISE])));
    expect(insights.salary.map((s) => [s.employer, s.months_seen.length, s.regularity])).toEqual([["LAGOS STATE GOVT", 3, "monthly"]]);
  });

  test("a regular credit without the word that skips a month is still found", () => {
    const pay = monthly(["2025-01", "2025-02", "2025-04", "2025-05"], "01", "Transfer from KANO STATE GOVT PAYMENTS | UBA | 1000000001", () => "180000.00", "credit");
    const { insights } = analyse(statement(sorted([...pay, ...NOISE])));
    expect(insights.salary.map((s) => [s.regularity, s.months_missed])).toEqual([["skips_months", ["2025-03"]]]);
  });

  test("a large credit is not salary: once, or several of very different sizes and days from one party", () => {
    const big: RowSpec[] = [
      ["2025-02-14", "Transfer from EMEKA PROPERTIES LTD | GTBank | 0234567890", "", "5000000.00"],
      ["2025-01-05", "Transfer from BOLA TRADERS | Access Bank | 0876543210", "", "900000.00"],
      ["2025-02-19", "Transfer from BOLA TRADERS | Access Bank | 0876543210", "", "250000.00"],
      ["2025-03-02", "Transfer from BOLA TRADERS | Access Bank | 0876543210", "", "1400000.00"],
    ];
    const { rows, insights } = analyse(statement(sorted([...big, ...NOISE])));
    expect(insights.salary).toEqual([]);
    expect(rows.filter((r) => r.credit >= 25_000_000n).every((r) => r.enrichment.category === "transfer_in")).toBe(true);
  });

  test("the holder's own transfers are never salary however regular", () => {
    const own = monthly(["2025-01", "2025-02", "2025-03"], "26", "Transfer from OKAFOR ADAEZE NNEKA | GTBank | 0123456789", () => "300000.00", "credit");
    const { insights } = analyse(statement(sorted([...own, ...NOISE]), { holder: "Mrs Adaeze Nneka Okafor" }));
    expect(insights.salary).toEqual([]);
    expect(insights.own_transfers.inflow.amount).toBe("900000.00");
    expect(insights.own_transfers.inflow.rows).toHaveLength(3);
  });
});

describe("recurring debits", () => {
  test("monthly: DStv, rent and a loan repayment; a one-off and a run of different amounts are not", () => {
    const rows: RowSpec[] = sorted([
      ...monthly(["2025-01", "2025-02", "2025-03", "2025-04"], "05", "DSTV SUBSCRIPTION SMARTCARD 7023456789", () => "15700.00", "debit"),
      ...monthly(["2025-01", "2025-02", "2025-03"], "01", "Transfer to LANDLORD OKON UDO | UBA | 2011122233", () => "150000.00", "debit"),
      ...monthly(["2025-02", "2025-03", "2025-04"], "10", "CARBON LOAN REPAYMENT", (i) => ["12000.00", "12500.00", "12000.00"][i]!, "debit"),
      ["2025-02-09", "Transfer to CAR DEALER | GTBank | 0999999999", "2500000.00", ""],
      ...monthly(["2025-01", "2025-02", "2025-03"], "12", "Transfer to MUSA IBRAHIM | OPay | 8012345678", (i) => ["2000.00", "45000.00", "9000.00"][i]!, "debit"),
      ...NOISE,
    ]);
    const { insights } = analyse(statement(rows, { opening: "5000000.00" }));
    const found = insights.recurring_debits.map((r) => [r.description, r.category, r.cadence, r.occurrences]);
    expect(found).toContainEqual(["DStv", "bills", "monthly", 4]);
    expect(found).toContainEqual(["LANDLORD OKON UDO", "transfer_out", "monthly", 3]);
    expect(found).toContainEqual(["Carbon", "loan", "monthly", 3]);
    expect(found.some(([d]) => d === "CAR DEALER" || d === "MUSA IBRAHIM")).toBe(false);
    const dstv = insights.recurring_debits.find((r) => r.description === "DStv")!;
    expect(dstv.total.amount).toBe("62800.00");
    expect(dstv.months).toEqual(["2025-01", "2025-02", "2025-03", "2025-04"]);
  });

  test("weekly: the same contribution every 7 days", () => {
    const weeks = ["2025-03-01", "2025-03-08", "2025-03-15", "2025-03-22", "2025-03-29"];
    const rows: RowSpec[] = weeks.map((d) => [d, "Transfer to ESUSU GROUP | Moniepoint | 5012345678", "5000.00", ""]);
    const { insights } = analyse(statement(rows));
    expect(insights.recurring_debits.map((r) => [r.description, r.cadence, r.occurrences])).toEqual([["ESUSU GROUP", "weekly", 5]]);
  });

  test("bank charges are not recurring debits (they are under charges)", () => {
    const rows = monthly(["2025-01", "2025-02", "2025-03"], "28", "SMS ALERT CHARGES", () => "40.00", "debit");
    const { insights } = analyse(statement(rows));
    expect(insights.recurring_debits).toEqual([]);
    expect(insights.charges.bank_charges.amount).toBe("120.00");
  });
});
