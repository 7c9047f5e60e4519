/**
 * chain/reorder.ts: adjacent rows stamped seconds apart swap places only when the printed order
 * breaks the balance chain and the swapped order chains through both rows and into the next.
 */
import { describe, expect, test } from "bun:test";
import type { ChainRow } from "../../src/engine/chain/link.ts";
import { REORDER_WINDOW_S, swapWithinWindow } from "../../src/engine/chain/reorder.ts";

/** A row at `s` seconds past midnight of one day (dates.ts sortKey units). */
const at = (s: number, debit: bigint, credit: bigint, balance: bigint): ChainRow => ({ sortKey: 20260305_00000 + s, debit, credit, balance });
const balances = (rows: ChainRow[]) => rows.map((r) => r.balance);

describe("swapWithinWindow", () => {
  // Credit 15,500 at 18:35:00; a 50.00 levy taken before the 6,600 transfer at 18:35:06 (whose
  // balance already has it) but stamped 18:35:07 and printed after it, with the balance before it.
  const credit = at(66900, 0n, 1550000n, 1550000n);
  const transfer = at(66906, 660000n, 0n, 885000n);
  const levy = at(66907, 5000n, 0n, 1545000n);

  test("a levy stamped a second after the transfer it was taken before goes first", () => {
    const out = swapWithinWindow([credit, transfer, levy], 0n);
    expect(balances(out.rows)).toEqual([1550000n, 1545000n, 885000n]);
    expect(out.swaps).toEqual([{ at: 1, seconds: 1 }]);
  });

  test("a savings withdrawal stamped seconds after the payment it funded goes first", () => {
    // Wallet at 2,000; a 3,500 payment prints balance 0.00; the 1,500 withdrawal 10 s later prints 3,500.
    const payment = at(71728, 350000n, 0n, 0n);
    const withdrawal = at(71738, 0n, 150000n, 350000n);
    const next = at(80000, 0n, 10000n, 10000n);
    const out = swapWithinWindow([payment, withdrawal, next], 200000n);
    expect(balances(out.rows)).toEqual([350000n, 0n, 10000n]);
    expect(out.swaps).toEqual([{ at: 0, seconds: 10 }]);
  });

  test("a swap whose order does not chain either is not made", () => {
    const wrongLevy = at(66907, 5000n, 0n, 1545100n); // one naira off
    const out = swapWithinWindow([credit, transfer, wrongLevy], 0n);
    expect(out.swaps).toEqual([]);
    expect(balances(out.rows)).toEqual([1550000n, 885000n, 1545100n]);
  });

  test("a swap after which the next row no longer follows is not made", () => {
    const next = at(70000, 100n, 0n, 1544900n); // follows the levy's printed balance, not the transfer's
    const out = swapWithinWindow([credit, transfer, levy, next], 0n);
    expect(out.swaps).toEqual([]);
  });

  test("rows that chain as printed stay as printed", () => {
    const out = swapWithinWindow([credit, at(66907, 5000n, 0n, 1545000n), at(66908, 660000n, 0n, 885000n)], 0n);
    expect(out.swaps).toEqual([]);
  });

  test("rows further apart than the window never move", () => {
    const late = at(66906 + REORDER_WINDOW_S + 1, 5000n, 0n, 1545000n);
    const out = swapWithinWindow([credit, transfer, late], 0n);
    expect(out.swaps).toEqual([]);
  });

  test("rows of different days never move, whatever their times", () => {
    const nextDay = { ...levy, sortKey: 20260306_00000 + 1 };
    const out = swapWithinWindow([credit, { ...transfer, sortKey: 20260305_00000 + 86399 }, nextDay], 0n);
    expect(out.swaps).toEqual([]);
  });
});
