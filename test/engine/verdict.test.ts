/**
 * The honest flag and the overall verdict (src/engine/verdict.ts): row_wise_reconcilable only when
 * the rows chain and nothing printed contradicts them; "partial" whenever a figure was assumed or
 * derived, with the assumption named in checks.assumed.
 */
import { describe, expect, test } from "bun:test";
import { assembleStatement } from "../../src/engine/assemble.ts";
import { type LedgerRow, type PrintedFigures, reconcile } from "../../src/engine/reconcile.ts";
import { settleVerdict, verdictOf } from "../../src/engine/verdict.ts";
import type { Checks } from "../../src/engine/types.ts";
import { page, pdfDoc } from "./layout-helpers.ts";

const none: PrintedFigures = { opening: null, closing: null, totalDebit: null, totalCredit: null, debitCount: null, creditCount: null, creditTotalMayIncludeOpening: false };
const r = (sortKey: number, debit: bigint, credit: bigint, balance: bigint | null): LedgerRow => ({ sortKey, debit, credit, balance, unsided: null });
const rows = [r(1, 0n, 500n, 1500n), r(2, 200n, 0n, 1300n)];

describe("verdict from reconcile", () => {
  test("everything printed and agreeing: verified, nothing assumed", () => {
    const out = reconcile(rows, { ...none, opening: 1000n, closing: 1300n, totalDebit: 200n, totalCredit: 500n, debitCount: 1, creditCount: 1 });
    expect(out.rowWiseReconcilable).toBe(true);
    expect(out.checks.verdict).toBe("verified");
    expect(out.checks.assumed).toEqual([]);
  });

  test("printed counts that disagree with a chaining table: not reconcilable, unverified", () => {
    // The rows chain on their own, but the header counts 129 debits: the table is not the statement.
    const out = reconcile(rows, { ...none, opening: 1000n, debitCount: 129, creditCount: 1 });
    expect(out.checks.row_chain).toBe(true);
    expect(out.checks.count_match).toBe(false);
    expect(out.rowWiseReconcilable).toBe(false);
    expect(out.checks.verdict).toBe("unverified");
  });

  test("printed totals or closing balance that disagree: not reconcilable even with printed balances", () => {
    const totals = reconcile(rows, { ...none, opening: 1000n, totalDebit: 999n });
    expect([totals.rowWiseReconcilable, totals.checks.verdict]).toEqual([false, "unverified"]);
    const closing = reconcile(rows, { ...none, opening: 1000n, closing: 1400n });
    expect([closing.rowWiseReconcilable, closing.checks.verdict]).toEqual([false, "unverified"]);
  });

  test("an opening worked back from the first row: partial, and the assumption is named", () => {
    const out = reconcile(rows, none);
    expect(out.rowWiseReconcilable).toBe(true);
    expect(out.checks.opening_balance_source).toBe("derived");
    expect(out.checks.verdict).toBe("partial");
    expect(out.checks.assumed.join(" ")).toContain("opening balance 10.00");
  });

  test("a printed Balance Before on the first row is a printed opening: verified", () => {
    const out = reconcile([{ ...r(1, 0n, 500n, 1500n), balanceBefore: 1000n }, { ...r(2, 200n, 0n, 1300n), balanceBefore: 1500n }], none);
    expect(out.checks.opening_balance_source).toBe("statement");
    expect(out.checks.verdict).toBe("verified");
  });

  test("derived balances vouched by a printed closing: partial (balances counted, not printed)", () => {
    const out = reconcile([r(1, 0n, 500n, null), r(2, 200n, 0n, null)], { ...none, opening: 1000n, closing: 1300n });
    expect(out.rowWiseReconcilable).toBe(true);
    expect(out.checks.verdict).toBe("partial");
    expect(out.checks.assumed.join(" ")).toContain("counted from the opening balance");
  });

  test("balances from an assumed 0.00 that nothing vouches for: unverified", () => {
    const out = reconcile([r(1, 0n, 500n, null), r(2, 200n, 0n, null)], none);
    expect(out.checks.opening_balance_source).toBe("assumed_zero");
    expect(out.rowWiseReconcilable).toBe(false);
    expect(out.checks.verdict).toBe("unverified");
    expect(out.checks.assumed.join(" ")).toContain("0.00 was assumed");
  });

  test("a 1-kobo rounding accepted: partial", () => {
    const out = reconcile([r(1, 1075n, 0n, 98925n), r(2, 81n, 0n, 98845n)], { ...none, opening: 100000n });
    expect(out.checks.kobo_rounding_rows).toEqual([1]);
    expect(out.checks.verdict).toBe("partial");
  });

  test("a broken chain: unverified", () => {
    const out = reconcile([r(1, 0n, 500n, 1500n), r(2, 200n, 0n, 1350n)], { ...none, opening: 1000n });
    expect(out.checks.verdict).toBe("unverified");
  });
});

describe("settleVerdict after later stages", () => {
  const base = (): { row_wise_reconcilable: boolean; checks: Checks } => ({
    row_wise_reconcilable: true,
    checks: { ...reconcile(rows, { ...none, opening: 1000n }).checks },
  });

  test("an assumption added later makes a verified section partial", () => {
    const s = base();
    expect(s.checks.verdict).toBe("verified");
    s.checks.assumed = ["a later stage assumed something"];
    settleVerdict(s);
    expect([s.row_wise_reconcilable, s.checks.verdict]).toEqual([true, "partial"]);
  });

  test("a contradiction found later clears the flag", () => {
    const s = base();
    s.checks.count_match = false;
    settleVerdict(s);
    expect([s.row_wise_reconcilable, s.checks.verdict]).toEqual([false, "unverified"]);
  });

  test("verdictOf never says verified for a section that is not reconcilable", () => {
    expect(verdictOf({ row_chain: true, totals_match: null, closing_balance_match: null, count_match: null, assumed: [] }, false)).toBe("unverified");
  });
});

describe("verdict through the whole engine", () => {
  // Header counts 129 debits; the table shows one page of two rows that chain.
  const doc = () =>
    pdfDoc(
      page(1, [
        [40, [40, "Account Name"], [160, "ADA OKAFOR"]],
        [52, [40, "Account Number"], [160, "0123456789"]],
        [64, [40, "Number of Debits"], [160, "129"]],
        [76, [40, "Opening Balance"], { r: 220, t: "10.00" }],
        [100, [40, "Date"], [110, "Description"], { r: 380, t: "Debit" }, { r: 460, t: "Credit" }, { r: 560, t: "Balance" }],
        [112, [40, "2024-03-01"], [110, "TRANSFER IN"], { r: 460, t: "5.00" }, { r: 560, t: "15.00" }],
        [124, [40, "2024-03-02"], [110, "POS PURCHASE"], { r: 380, t: "2.00" }, { r: 560, t: "13.00" }],
      ]),
    );

  test("a chaining table under a header whose counts disagree is not reconciled", () => {
    const res = assembleStatement(doc());
    expect(res.transactions).toHaveLength(2);
    expect(res.checks.row_chain).toBe(true);
    expect(res.checks.count_match).toBe(false);
    expect(res.row_wise_reconcilable).toBe(false);
    expect(res.checks.verdict).toBe("unverified");
    expect(res.accounts[0]!.checks.verdict).toBe("unverified");
  });
});
