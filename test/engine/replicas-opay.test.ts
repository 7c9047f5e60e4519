/**
 * Class 1 of issue 24: OPay exports, 2025 (iText) and 2026 (OpenPDF) layouts. The layout replicas
 * parse exactly against their truth files, with the flags, moves and notes their quirks call for;
 * each rule is also tested on small synthetic pages, with its negative case.
 */
import { describe, expect, test } from "bun:test";
import { assembleStatement } from "../../src/engine/index.ts";
import { loadTruth, parseReplica, replicaDifferences } from "../helpers/replica-truth.ts";
import { page, pdfDoc } from "./layout-helpers.ts";

describe("OPay 2025: an empty OWealth section and levies stamped after their transfer", () => {
  test("opay_empty_owealth.pdf parses exactly", async () => {
    const truth = loadTruth("opay_empty_owealth.pdf");
    const r = await parseReplica("opay_empty_owealth.pdf");
    expect(replicaDifferences(r, truth)).toEqual([]);
    const [wallet, owealth] = r.accounts;
    // The wallet chains once the three levies are put before their transfers, and says so.
    expect(wallet!.row_wise_reconcilable).toBe(true);
    expect(wallet!.checks).toMatchObject({ row_chain: true, totals_match: true, count_match: true, closing_balance_match: true });
    expect(wallet!.checks.notes.join(" ")).toContain("3 pair(s) of adjacent rows stamped seconds apart");
    // "N--" and "No transaction records": an empty section whose 0.00 is an assumption, never a row.
    expect(owealth!.transactions).toEqual([]);
    expect(owealth!.checks.assumed?.length).toBeGreaterThan(0);
    expect(owealth!.checks.verdict).toBe("partial");
  });
});

describe("OPay 2025: wallet payments topped up from OWealth (auto-draw)", () => {
  test("opay_owealth_autodraw.pdf parses exactly; both sections reconcile through their links", async () => {
    const truth = loadTruth("opay_owealth_autodraw.pdf");
    const r = await parseReplica("opay_owealth_autodraw.pdf");
    expect(replicaDifferences(r, truth)).toEqual([]);
    const [wallet, owealth] = r.accounts;
    // The truth's notes list where each naive chain breaks: exactly the linked rows.
    const note = truth.notes.find((n) => n.startsWith("Naive balance-chain breaks"))!;
    const [walletBreaks, owealthBreaks] = [...note.matchAll(/\[([\d, ]+)\]/g)].map((m) => m[1]!.split(", ").map(Number));
    expect(wallet!.checks.cross_section_links?.map((l) => l.row)).toEqual(walletBreaks!);
    expect(owealth!.checks.cross_section_links?.map((l) => l.row)).toEqual(owealthBreaks!);
    expect(wallet!.checks.cross_section_links?.map((l) => l.other_row)).toEqual(owealthBreaks!);
    // What OWealth supplied to each wallet payment is the truth's shortfall.
    const cases = JSON.parse(truth.notes.find((n) => n.startsWith("OWealth auto-draw"))!.match(/(\[\{.*\}\])/)![1]!) as { amount: string; from_owealth: string }[];
    expect(wallet!.checks.cross_section_links?.map((l) => l.amount)).toEqual(cases.map((c) => c.from_owealth));
    for (const a of [wallet!, owealth!]) {
      expect(a.checks.row_chain).toBe(true);
      expect(a.row_wise_reconcilable).toBe(true);
    }
    // The header card's totals and counts cover both sections.
    expect(wallet!.checks).toMatchObject({ totals_match: true, count_match: true, statement_totals_match: true });
    expect(wallet!.checks.notes.join(" ")).toContain("cover all 2 sections together");
    // Every printed number is kept: the wallet row prints the full payment, its balance 0.00.
    const payment = wallet!.transactions[walletBreaks![0]!]!;
    expect([payment.debit, payment.balance]).toEqual([cases[0]!.amount, "0.00"]);
  });
});

describe("OPay 2026: funding withdrawals and stamp duty stamped after the row they were posted before", () => {
  test("opay_levy_order.pdf parses exactly; the wallet chains once the pairs are swapped, each move reported", async () => {
    const truth = loadTruth("opay_levy_order.pdf");
    const r = await parseReplica("opay_levy_order.pdf");
    expect(replicaDifferences(r, truth)).toEqual([]);
    const [wallet, savings] = r.accounts;
    expect(wallet!.checks).toMatchObject({ row_chain: true, totals_match: true, count_match: true, closing_balance_match: true, verdict: "verified" });
    expect(savings!.checks).toMatchObject({ row_chain: true, closing_balance_match: true });
    const swaps = wallet!.checks.swapped_rows!;
    // 4 stamp duties and the funding withdrawals stamped after their payment (some share its
    // second and are ordered as a group instead); every swap within the documented window.
    expect(swaps.length).toBeGreaterThanOrEqual(20);
    expect(swaps.every((s) => s.seconds <= 15)).toBe(true);
    for (const s of swaps) {
      // The row returned first of each pair is the one the balance moved by first: a levy or a withdrawal.
      expect(wallet!.transactions[s.row]!.narration).toMatch(/^(?:Stamp Duty|OWealth Withdrawal)/);
    }
    expect(wallet!.checks.notes.join(" ")).toContain(`${swaps.length} pair(s) of adjacent rows stamped seconds apart`);
  });
});

describe("a time wrapped after its colon", () => {
  const heading: [number, ...[number, string][]] = [100, [20, "Trans. Time"], [110, "Description"], [300, "Debit/Credit(₦)"], [380, "Balance(₦)"]];
  test("rejoins its date, never the narration, also over a page end", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          heading,
          [120, [20, "2025 Aug 03"], [72, "07:45:"]],
          [126, [110, "Transfer from ADA"], [300, "+1,000.00"], [380, "1,000.00"]],
          [132, [20, "31"]],
          [150, [20, "2025 Aug 03"], [72, "09:"]],
          [156, [110, "Airtime"], [300, "-200.00"], [380, "800.00"]],
          [162, [20, "10:08"]],
          [800, [20, "2025 Aug 04"], [72, "13:09:"]],
        ]),
        page(2, [[40, [20, "47"], [110, "Card Payment"], [300, "-300.00"], [380, "500.00"]]]),
      ),
    );
    expect(r.transactions.map((t) => [t.date, t.narration])).toEqual([
      ["2025-08-03T07:45:31+01:00", "Transfer from ADA"],
      ["2025-08-03T09:10:08+01:00", "Airtime"],
      ["2025-08-04T13:09:47+01:00", "Card Payment"],
    ]);
  });

  test("a number under the date that does not complete a time is left where it is", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          heading,
          [120, [20, "2025 Aug 03"], [72, "07:45:"]],
          [126, [110, "Transfer from ADA"], [300, "+1,000.00"], [380, "1,000.00"]],
          [132, [20, "75"]],
        ]),
      ),
    );
    expect(r.transactions.map((t) => t.date)).toEqual(["2025-08-03T00:00:00+01:00"]);
  });
});

describe("OPay 2026 centred rows", () => {
  const heading: [number, ...[number, string][]] = [100, [20, "Trans. Time"], [120, "Description"], [300, "Debit(₦)"], [360, "Credit(₦)"], [420, "Balance(₦)"]];
  type L = [number, ...[number, string][]];
  const dated = (y: number, time: string, debit: string, credit: string, balance: string, text?: string): L => [y, [20, `05 Mar 2026 ${time}`], ...(text ? [[120, text] as [number, string]] : []), [300, debit], [360, credit], [420, balance]];
  // Glyphs are 8 pt. Row A's description, in a taller font, wraps at 21-22 pt (2.6-2.7 glyph
  // heights) around its amount line; rows lie 30 pt or more apart.
  const first: L[] = [
    heading,
    dated(130, "18:00:00", "100.00", "--", "900.00", "Airtime"),
    [160.3, [120, "Transfer from ADA |"]],
    [181.3, [120, "MONIE POINT |"]],
    dated(192, "18:35:00", "--", "1,000.00", "1,900.00"),
    [202.7, [120, "AT121-Transfer"]],
    [224.4, [120, "from ADA"]],
  ];
  const rowC: L[] = [[319.4, [120, "Card Payment |"]], dated(330, "20:00:00", "300.00", "--", "1,200.00"), [340.6, [120, "SHOP"]]];

  test("a description wrapped at a taller font's pitch stays with its row", () => {
    const r = assembleStatement(pdfDoc(page(1, [...first, [261.4, [120, "Transfer to EMEKA |"]], dated(272, "19:00:00", "400.00", "--", "1,500.00"), [282.7, [120, "UBA"]], ...rowC])));
    expect(r.transactions.map((t) => t.narration)).toEqual(["Airtime", "Transfer from ADA | MONIE POINT | AT121-Transfer from ADA", "Transfer to EMEKA | UBA", "Card Payment | SHOP"]);
    expect(r.row_wise_reconcilable).toBe(true);
  });

  test("lines at a page's foot, apart from its last row, head the next page's first row", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [...first, [261.4, [120, "Transfer to EMEKA |"]]]),
        page(2, [dated(40, "19:00:00", "400.00", "--", "1,500.00"), [50.6, [120, "UBA"]], ...rowC.map(([y, ...c]): L => [y - 200, ...c])]),
      ),
    );
    expect(r.transactions.map((t) => t.narration)).toEqual(["Airtime", "Transfer from ADA | MONIE POINT | AT121-Transfer from ADA", "Transfer to EMEKA | UBA", "Card Payment | SHOP"]);
  });
});
