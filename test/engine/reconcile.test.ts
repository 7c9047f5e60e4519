import { describe, expect, test } from "bun:test";
import { REORDER_WINDOW_S } from "../../src/engine/chain/reorder.ts";
import { type LedgerRow, type PrintedFigures, reconcile } from "../../src/engine/reconcile.ts";

const none: PrintedFigures = { opening: null, closing: null, totalDebit: null, totalCredit: null, debitCount: null, creditCount: null, creditTotalMayIncludeOpening: false };
const r = (sortKey: number, debit: bigint, credit: bigint, balance: bigint | null, unsided: bigint | null = null): LedgerRow => ({ sortKey, debit, credit, balance, unsided });

describe("reconcile", () => {
  test("a good chain from the printed opening balance", () => {
    const out = reconcile([r(1, 0n, 500n, 1500n), r(2, 200n, 0n, 1300n)], { ...none, opening: 1000n, closing: 1300n, totalDebit: 200n, totalCredit: 500n });
    expect(out.rowWiseReconcilable).toBe(true);
    expect(out.checks).toMatchObject({ row_chain: true, first_break_index: null, totals_match: true, closing_balance_match: true, reversed: false, balances_derived: false, opening_balance_source: "statement" });
    expect([out.totalDebit, out.totalCredit, out.closing]).toEqual([200n, 500n, 1300n]);
  });

  test("a broken chain is reported where it breaks, and the printed numbers are kept", () => {
    const out = reconcile([r(1, 0n, 500n, 1500n), r(2, 200n, 0n, 1350n), r(3, 50n, 0n, 1300n)], { ...none, opening: 1000n });
    expect(out.rowWiseReconcilable).toBe(false);
    expect(out.checks.row_chain).toBe(false);
    expect(out.checks.first_break_index).toBe(1);
    expect(out.rows.map((x) => x.balance)).toEqual([1500n, 1350n, 1300n]);
    expect(out.checks.notes.join(" ")).toContain("Row 2");
  });

  test("newest-first rows are reversed to oldest-first", () => {
    const out = reconcile([r(3, 100n, 0n, 700n), r(2, 0n, 300n, 800n), r(1, 0n, 0n + 500n, 500n)], none);
    expect(out.checks.reversed).toBe(true);
    expect(out.rows.map((x) => x.sortKey)).toEqual([1, 2, 3]);
    expect(out.opening).toBe(0n);
    expect(out.checks.opening_balance_source).toBe("derived");
    expect(out.rowWiseReconcilable).toBe(true);
  });

  test("same-day rows: the listing order whose balances chain wins", () => {
    const out = reconcile([r(5, 100n, 0n, 400n), r(5, 0n, 0n + 200n, 500n), r(5, 0n, 300n, 300n)], { ...none, opening: 0n });
    expect(out.checks.reversed).toBe(true);
    expect(out.rows.map((x) => x.balance)).toEqual([300n, 500n, 400n]);
    expect(out.checks.row_chain).toBe(true);
  });

  test("no balance column: balances derived from the opening balance, and said so", () => {
    const out = reconcile([r(1, 0n, 500n, null), r(2, 200n, 0n, null)], { ...none, opening: 1000n, totalDebit: 200n, totalCredit: 500n });
    expect(out.rows.map((x) => x.balance)).toEqual([1500n, 1300n]);
    expect(out.checks.balances_derived).toBe(true);
    expect(out.rowWiseReconcilable).toBe(true);
  });

  test("derived balances whose printed totals disagree do not reconcile", () => {
    const out = reconcile([r(1, 0n, 500n, null)], { ...none, opening: 0n, totalCredit: 600n });
    expect(out.checks.totals_match).toBe(false);
    expect(out.rowWiseReconcilable).toBe(false);
  });

  test("no opening balance and no balances: zero is assumed and said so", () => {
    const out = reconcile([r(1, 0n, 500n, null)], none);
    expect(out.checks.opening_balance_source).toBe("assumed_zero");
    expect(out.rows[0]!.balance).toBe(500n);
  });

  test("an unsigned amount is placed by the balance movement", () => {
    const out = reconcile([r(1, 0n, 0n, 1500n, 500n), r(2, 0n, 0n, 1300n, 200n)], { ...none, opening: 1000n });
    expect(out.rows.map((x) => [x.debit, x.credit])).toEqual([[0n, 500n], [200n, 0n]]);
    expect(out.rowWiseReconcilable).toBe(true);
  });

  test("printed counts and a credit total that includes the opening balance", () => {
    const out = reconcile([r(1, 0n, 500n, 1500n), r(2, 200n, 0n, 1300n)], { ...none, opening: 1000n, totalCredit: 1500n, totalDebit: 200n, debitCount: 1, creditCount: 1, creditTotalMayIncludeOpening: true });
    expect(out.checks.totals_match).toBe(true);
    expect(out.checks.count_match).toBe(true);
    const strict = reconcile([r(1, 0n, 500n, 1500n)], { ...none, opening: 1000n, totalCredit: 1500n });
    expect(strict.checks.totals_match).toBe(false);
  });
});

describe("reconcile: the chain while rows are assembled", () => {
  const bb = (sortKey: number, debit: bigint, credit: bigint, before: bigint, after: bigint): LedgerRow => ({ sortKey, debit, credit, balance: after, unsided: null, balanceBefore: before });

  test("a row off by exactly 1 kobo reconciles and is listed; 2 kobo is a break", () => {
    const ok = reconcile([r(1, 1075n, 0n, 98925n), r(2, 81n, 0n, 98845n), r(3, 0n, 155n, 99000n)], { ...none, opening: 100000n });
    expect(ok.rowWiseReconcilable).toBe(true);
    expect(ok.checks.kobo_rounding_rows).toEqual([1]);
    expect(ok.checks.notes.join(" ")).toContain("1 kobo");
    expect(ok.rows.map((x) => x.balance)).toEqual([98925n, 98845n, 99000n]);
    const off = reconcile([r(1, 1075n, 0n, 98925n), r(2, 81n, 0n, 98842n)], { ...none, opening: 100000n });
    expect(off.rowWiseReconcilable).toBe(false);
    expect(off.checks.first_break_index).toBe(1);
    expect(off.checks.kobo_rounding_rows).toEqual([]);
  });

  test("rows of one timestamp are returned in chain order, and said so", () => {
    const out = reconcile([r(1, 50n, 0n, 8950n), r(1, 1000n, 0n, 9000n), r(2, 0n, 100n, 9050n)], { ...none, opening: 10000n });
    expect(out.rows.map((x) => x.balance)).toEqual([9000n, 8950n, 9050n]);
    expect(out.rowWiseReconcilable).toBe(true);
    expect(out.checks.notes.join(" ")).toContain("sharing one timestamp");
  });

  // Issue 24: adjacent rows seconds apart may swap (chain/reorder.ts); further apart they never move.
  test("rows further apart than the reorder window are never reordered, even when that would chain", () => {
    const out = reconcile([r(1, 50n, 0n, 8950n), r(2 + REORDER_WINDOW_S, 1000n, 0n, 9000n)], { ...none, opening: 10000n });
    expect(out.rows.map((x) => x.balance)).toEqual([8950n, 9000n]);
    expect(out.rowWiseReconcilable).toBe(false);
  });

  test("adjacent rows within the reorder window are swapped when only the swapped order chains, and said so", () => {
    const out = reconcile([r(1, 50n, 0n, 8950n), r(2, 1000n, 0n, 9000n)], { ...none, opening: 10000n });
    expect(out.rows.map((x) => x.balance)).toEqual([9000n, 8950n]);
    expect(out.rowWiseReconcilable).toBe(true);
    expect(out.checks.notes.join(" ")).toContain("rows 1-2 (1 s apart)");
  });

  test("Balance Before / After: each row checks on its own; the closing is the last state", () => {
    const rows = [bb(5, 0n, 500n, 1000n, 1500n), bb(6, 30n, 0n, 1470n, 1440n), bb(6, 0n, 0n, 1500n, 1500n), bb(6, 30n, 0n, 1500n, 1470n)];
    const out = reconcile(rows, { ...none, closing: 1440n });
    expect(out.rows.map((x) => x.balance)).toEqual([1500n, 1500n, 1470n, 1440n]);
    expect(out.opening).toBe(1000n);
    expect(out.closing).toBe(1440n);
    expect(out.checks.closing_balance_match).toBe(true);
    expect(out.rowWiseReconcilable).toBe(true);
    const bad = reconcile([bb(5, 0n, 500n, 1000n, 1600n)], none);
    expect(bad.rowWiseReconcilable).toBe(false);
  });

  test("a printed opening the rows do not follow from: the implied one is reported, the printed one noted", () => {
    // The app printed the balance after the first row (1500) as the opening.
    const out = reconcile([r(1, 0n, 500n, 1500n), r(2, 200n, 0n, 1300n)], { ...none, opening: 1500n, closing: 1300n });
    expect(out.opening).toBe(1000n);
    expect(out.checks.opening_balance_source).toBe("derived");
    expect(out.rowWiseReconcilable).toBe(true);
    const note = out.checks.notes.join(" ");
    expect(note).toContain("15.00");
    expect(note).toContain("agrees with the implied opening");
  });

  test("a printed opening nothing shows wrong stays: a misread first amount must not pass for a wrong opening", () => {
    // Row 1 printed 500.00 but read as 50.00; the printed opening 1000 is right.
    const bare = reconcile([r(1, 0n, 50n, 1500n), r(2, 200n, 0n, 1300n)], { ...none, opening: 1000n, closing: 1300n });
    expect(bare.opening).toBe(1000n);
    expect(bare.rowWiseReconcilable).toBe(false);
    expect(bare.checks.first_break_index).toBe(0);
    // Printed totals that agree with the rows vouch for them.
    const vouched = reconcile([r(1, 0n, 500n, 1500n), r(2, 200n, 0n, 1300n)], { ...none, opening: 900n, totalCredit: 500n, totalDebit: 200n });
    expect(vouched.opening).toBe(1000n);
    expect(vouched.rowWiseReconcilable).toBe(true);
  });

  test("a printed opening with rows that do not chain on their own stays, and the break is reported", () => {
    const out = reconcile([r(1, 0n, 500n, 1500n), r(2, 200n, 0n, 1234n)], { ...none, opening: 1500n });
    expect(out.opening).toBe(1500n);
    expect(out.checks.opening_balance_source).toBe("statement");
    expect(out.rowWiseReconcilable).toBe(false);
  });

  test("an amount on the wrong side is read on the side that chains, and said so", () => {
    const out = reconcile([r(1, 0n, 500n, 1500n), r(2, 0n, 200n, 1300n)], { ...none, opening: 1000n });
    expect(out.rows.map((x) => [x.debit, x.credit])).toEqual([[0n, 500n], [200n, 0n]]);
    expect(out.rowWiseReconcilable).toBe(true);
    expect(out.checks.notes.join(" ")).toContain("ambiguous");
  });
});
