/**
 * No insight figure that its listed rows do not add up to: every {amount, of, rows} anywhere in
 * the insights is re-added from the response's own rows in exact kobo, and so are the balance
 * figures (average = sum / days from the end-of-day rows and the days each stood). Run on a
 * statement written to touch every insight, and on every fixture's expected parse.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type EnrichedResponse, withInsights } from "../../src/engine/insights/index.ts";
import { formatKobo, type Kobo, parseAmount } from "../../src/engine/money.ts";
import type { ParseResponse, Transaction } from "../../src/engine/types.ts";
import { DEV } from "./labelled/dev.ts";
import { HELD_OUT } from "./labelled/held-out.ts";
import { type RowSpec, statement } from "./statement.ts";

const kobo = (s: string): Kobo => (s.trim() === "" ? 0n : (parseAmount(s)?.kobo ?? 0n));

interface FigureLike {
  amount: string;
  of: "credit" | "debit" | "net";
  rows: number[];
}
const isFigure = (o: unknown): o is FigureLike => typeof o === "object" && o !== null && "amount" in o && "of" in o && "rows" in o;

/** Every figure in the insights, with its path. */
function figures(o: unknown, path: string, out: [string, FigureLike][] = []): [string, FigureLike][] {
  if (isFigure(o)) out.push([path, o]);
  else if (Array.isArray(o)) o.forEach((v, i) => figures(v, `${path}[${i}]`, out));
  else if (typeof o === "object" && o !== null) for (const [k, v] of Object.entries(o)) figures(v, `${path}.${k}`, out);
  return out;
}

/** Checks every figure against the rows; returns how many were checked. */
function reAdd(r: EnrichedResponse): number {
  const rows: Transaction[] = (r.accounts && r.accounts.length > 0 ? r.accounts : [r]).flatMap((a) => a.transactions);
  expect(r.insights.row_count).toBe(rows.length);
  const row = (i: number): Transaction => {
    const t = rows[i];
    if (!t) throw new Error(`row ${i} is not a row of the statement`);
    return t;
  };
  const all = figures(r.insights, "insights");
  for (const [path, f] of all) {
    expect(new Set(f.rows).size, path).toBe(f.rows.length);
    let sum = 0n;
    for (const i of f.rows) sum += f.of === "credit" ? kobo(row(i).credit) : f.of === "debit" ? kobo(row(i).debit) : kobo(row(i).credit) - kobo(row(i).debit);
    expect(`${path} = ${f.amount}`).toBe(`${path} = ${formatKobo(sum)}`);
  }
  for (const b of r.insights.balances) {
    const a = b.average_daily;
    expect(a.rows.length).toBe(a.days_held.length);
    const sum = a.rows.reduce((s, i, k) => s + kobo(row(i).balance) * BigInt(a.days_held[k]!), 0n);
    expect(a.sum).toBe(formatKobo(sum));
    expect(a.days).toBe(a.days_held.reduce((x, y) => x + y, 0));
    if (a.days > 0) {
      const avg = kobo(a.amount);
      // The average is sum / days rounded to the nearest kobo.
      expect((avg * BigInt(a.days) - sum) * 2n <= BigInt(a.days) && (sum - avg * BigInt(a.days)) * 2n <= BigInt(a.days)).toBe(true);
    }
    if (b.lowest) expect(formatKobo(kobo(row(b.lowest.row).balance))).toBe(b.lowest.amount);
    for (const d of b.negative_or_zero_days) {
      expect(formatKobo(kobo(row(d.row).balance))).toBe(d.balance);
      expect(kobo(d.balance) <= 0n).toBe(true);
    }
  }
  for (const item of r.insights.reversed_or_bounced.items) expect([formatKobo(kobo(row(item.row).credit)), formatKobo(kobo(row(item.row).debit))]).toContain(item.amount);
  for (const s of r.insights.salary) expect(formatKobo(kobo(row(s.total.rows[s.total.rows.length - 1]!).credit))).toBe(s.amount);
  for (const t of rows) {
    const fee = (t as Transaction & { enrichment: { fee_of: number | null } }).enrichment.fee_of;
    if (fee !== null) row(fee);
  }
  return all.length;
}

const EVERYTHING: RowSpec[] = [
  ["2025-01-02", "Transfer from ZENITH SOFTWARE LIMITED | Zenith Bank | 1012345678", "", "350000.00"],
  ["2025-01-02", "Electronic Money Transfer Levy", "50.00", ""],
  ["2025-01-03", "FAIRMONEY LOAN DISBURSEMENT 7781", "", "50000.00"],
  ["2025-01-05", "DSTV SUBSCRIPTION SMARTCARD 70234", "15700.00", ""],
  ["2025-01-06", "WEB PURCHASE BET9JA.COM", "20000.00", ""],
  ["2025-01-07", "NIP TRANSFER TO ADA OBI ZENITH BANK", "420000.00", ""],
  ["2025-01-07", "NIP TRANSFER COMMISSION", "50.00", ""],
  ["2025-01-07", "VAT ON COMMISSION", "3.75", ""],
  ["2025-01-09", "REVERSAL NIP TRANSFER TO ADA OBI", "", "420000.00"],
  ["2025-01-10", "Transfer to ADAEZE NNEKA OKAFOR | Kuda | 2012345678", "30000.00", ""],
  ["2025-01-20", "NAIRABET WITHDRAWAL 55123", "", "45000.00"],
  ["2025-01-28", "SMS ALERT CHARGES", "40.00", ""],
  ["2025-02-03", "Transfer from ZENITH SOFTWARE LIMITED | Zenith Bank | 1012345678", "", "350000.00"],
  ["2025-02-05", "DSTV SUBSCRIPTION SMARTCARD 70234", "15700.00", ""],
  ["2025-02-10", "FAIRMONEY LOAN REPAYMENT", "55000.00", ""],
  ["2025-02-20", "ATM WDL IKEJA", "900000.00", ""],
  ["2025-02-25", "CASH DEPOSIT TELLER", "", "100000.00"],
  ["2025-03-03", "Transfer from ZENITH SOFTWARE LIMITED | Zenith Bank | 1012345678", "", "350000.00"],
  ["2025-03-05", "DSTV SUBSCRIPTION SMARTCARD 70234", "15700.00", ""],
  ["2025-03-06", "RETURNED CHEQUE INSUFFICIENT FUNDS", "", "0.00"],
  ["2025-03-08", "INTEREST PAID", "", "12.34"],
];

describe("every insight figure adds up from its rows", () => {
  test("a statement that touches every insight (salary, loan, betting, charges, reversals, own transfers, an overdrawn stretch)", () => {
    const r = withInsights(statement(EVERYTHING, { opening: "10000.00", holder: "ADAEZE NNEKA OKAFOR" }));
    expect(reAdd(r)).toBeGreaterThan(30);
    const i = r.insights;
    // The figures are not trivially empty: each insight found its rows.
    expect(i.salary[0]?.total.rows).toHaveLength(3);
    expect(i.loans.lenders.map((l) => [l.lender, l.disbursed.amount, l.repaid.amount])).toEqual([["FairMoney", "50000.00", "55000.00"]]);
    expect([i.betting.staked.amount, i.betting.won.amount]).toEqual(["20000.00", "45000.00"]);
    expect(i.charges.total.amount).toBe("143.75");
    expect([i.charges.emtl.amount, i.charges.vat.amount, i.charges.bank_charges.amount]).toEqual(["50.00", "3.75", "90.00"]);
    expect(i.own_transfers.outflow.amount).toBe("30000.00");
    expect(i.reversed_or_bounced.items.find((x) => x.kind === "reversal")?.reverses).toBe(5);
    expect(i.reversed_or_bounced.items.some((x) => x.kind === "bounced")).toBe(true);
    expect(i.balances[0]?.negative_or_zero_days.length).toBeGreaterThan(0);
    expect(i.monthly.map((m) => m.month)).toEqual(["2025-01", "2025-02", "2025-03"]);
    expect(i.largest_counterparties.slice(0, 2).map((c) => c.name)).toEqual(["ZENITH SOFTWARE LIMITED", "ADA OBI"]);
  });

  test("a statement of every hand-labelled narration, a few a day over a year, amounts of every size", () => {
    const labelled = [...DEV, ...HELD_OUT];
    const rows: RowSpec[] = [];
    for (let round = 0; round < 3; round++) {
      labelled.forEach(([dir, narration], i) => {
        const k = round * labelled.length + i;
        const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(k / 3) * 86_400_000).toISOString().slice(0, 10);
        // Amounts from kobo to millions, some repeating (recurring debits, salary), none a float's sum.
        const amount = formatKobo(BigInt(((i * 7919 + round * 13) % 5000) * (i % 5 === 0 ? 100_000 : 37) + 1));
        rows.push([`${day} ${String(9 + (k % 9)).padStart(2, "0")}:00:00`, narration, dir === "D" ? amount : "", dir === "C" ? amount : ""]);
      });
    }
    const r = withInsights(statement(rows, { opening: "2500000.00", holder: "ADAEZE NNEKA OKAFOR" }));
    expect(reAdd(r)).toBeGreaterThan(100);
    const i = r.insights;
    expect(i.loans.lenders.length).toBeGreaterThan(5);
    expect(i.betting.operators.length).toBeGreaterThan(5);
    expect(i.charges.levies.rows.length).toBeGreaterThan(20);
  });

  const fixtures = join(import.meta.dir, "../../fixtures");
  const parses = readdirSync(fixtures).filter((d) => existsSync(join(fixtures, d, "expected.json")));
  test(`every fixture's expected parse (${parses.length})`, () => {
    let checked = 0;
    for (const d of parses) {
      const parsed = JSON.parse(readFileSync(join(fixtures, d, "expected.json"), "utf8")) as ParseResponse;
      if (!Array.isArray(parsed.transactions)) continue;
      checked += reAdd(withInsights(parsed));
    }
    expect(checked).toBeGreaterThan(500);
  });
});
