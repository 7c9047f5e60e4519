/** The balance chain as a signal while rows are assembled (src/engine/chain/*): pure functions. */
import { describe, expect, test } from "bun:test";
import { assignSidesByChain } from "../../src/engine/chain/assign.ts";
import { type ChainRow, linkOf } from "../../src/engine/chain/link.ts";
import { orderByChain, sameTimeGroups } from "../../src/engine/chain/order.ts";

const row = (sortKey: number, debit: bigint, credit: bigint, balance: bigint | null, extra: Partial<ChainRow> = {}): ChainRow => ({ sortKey, debit, credit, balance, ...extra });

describe("linkOf", () => {
  test("exact, 1 kobo off, and anything more is a break", () => {
    expect(linkOf(1000n, row(1, 100n, 0n, 900n))).toBe("exact");
    expect(linkOf(1000n, row(1, 100n, 0n, 899n))).toBe("kobo");
    expect(linkOf(1000n, row(1, 100n, 0n, 901n))).toBe("kobo");
    expect(linkOf(1000n, row(1, 100n, 0n, 898n))).toBe("break");
  });

  test("a printed Balance Before checks the row on its own and joins it to the previous balance", () => {
    expect(linkOf(null, row(1, 100n, 0n, 900n, { balanceBefore: 1000n }))).toBe("exact");
    expect(linkOf(1000n, row(1, 100n, 0n, 900n, { balanceBefore: 1000n }))).toBe("exact");
    expect(linkOf(1200n, row(1, 100n, 0n, 900n, { balanceBefore: 1000n }))).toBe("break");
    expect(linkOf(null, row(1, 100n, 0n, 950n, { balanceBefore: 1000n }))).toBe("break");
  });

  test("an unsided amount links either way", () => {
    expect(linkOf(1000n, row(1, 0n, 0n, 1100n, { unsided: 100n }))).toBe("exact");
    expect(linkOf(1000n, row(1, 0n, 0n, 900n, { unsided: 100n }))).toBe("exact");
    expect(linkOf(1000n, row(1, 0n, 0n, 950n, { unsided: 100n }))).toBe("break");
  });
});

describe("orderByChain", () => {
  test("fee, VAT and stamp duty printed before their parent are put after it; other timestamps stay", () => {
    const rows = [
      row(1, 0n, 500n, 1500n), // 0: earlier timestamp, chains from 1000
      row(2, 8n, 0n, 1392n), // 1: VAT (after fee)
      row(2, 100n, 0n, 1400n), // 2: fee (after parent)
      row(2, 0n, 0n, 1500n), // 3: zero row keeps the balance (first after row 0)
      row(3, 2n, 0n, 1390n), // 4
    ];
    const out = orderByChain(rows, 1000n);
    expect(out.order).toEqual([0, 3, 2, 1, 4]);
    expect(out.reorderedGroups).toEqual([{ first: 1, size: 3 }]);
  });

  test("a group that already chains is left as printed", () => {
    const rows = [row(1, 100n, 0n, 900n), row(1, 100n, 0n, 800n), row(1, 0n, 50n, 850n)];
    expect(orderByChain(rows, 1000n)).toEqual({ order: [0, 1, 2], reorderedGroups: [] });
  });

  test("a group no order can chain keeps its printed order", () => {
    const rows = [row(1, 100n, 0n, 900n), row(1, 100n, 0n, 777n), row(1, 0n, 50n, 123n)];
    expect(orderByChain(rows, 1000n)).toEqual({ order: [0, 1, 2], reorderedGroups: [] });
  });

  test("the order must also lead into the next timestamp", () => {
    // [1, 0] chains from 1000 (900, then 1000), but the next timestamp's row cannot follow from
    // 1000: an order that only moves the break to the next group is not taken.
    const rows = [row(1, 0n, 100n, 1000n), row(1, 100n, 0n, 900n), row(2, 5n, 0n, 500n)];
    expect(orderByChain(rows, 1000n).reorderedGroups).toEqual([]);
  });

  test("an unknown (or wrong) opening: the group may start with any row", () => {
    const rows = [row(1, 50n, 0n, 1950n), row(1, 0n, 1000n, 2000n), row(2, 0n, 10n, 1960n)];
    expect(orderByChain(rows, null).order).toEqual([1, 0, 2]);
    // The printed opening is the balance after the first row: no order chains from it.
    expect(orderByChain(rows, 2000n).order).toEqual([1, 0, 2]);
  });

  test("Balance Before / After rows are chained by their own before and after", () => {
    const rows = [
      row(7, 30n, 0n, 940n, { balanceBefore: 970n }),
      row(7, 0n, 0n + 70n, 970n, { balanceBefore: 900n }),
      row(7, 100n, 0n, 900n, { balanceBefore: 1000n }),
    ];
    expect(orderByChain(rows, null).order).toEqual([2, 1, 0]);
  });

  test("a large group is ordered by following the chain, within the step budget", () => {
    // 400 rows at one timestamp, printed in reverse: factorial enumeration would never finish.
    const n = 400;
    const chain: ChainRow[] = [];
    let bal = 1_000_000n;
    for (let i = 0; i < n; i++) {
      const d = BigInt(100 + i);
      bal -= d;
      chain.push(row(9, d, 0n, bal));
    }
    const printed = [...chain].reverse();
    const out = orderByChain(printed, 1_000_000n);
    expect(out.order.map((i) => printed[i])).toEqual(chain);
  });

  test("same-time groups are runs of equal sort keys", () => {
    expect(sameTimeGroups([row(1, 0n, 0n, 0n), row(1, 0n, 0n, 0n), row(2, 0n, 0n, 0n), row(1, 0n, 0n, 0n)])).toEqual([[0, 2], [2, 3], [3, 4]]);
  });
});

describe("assignSidesByChain", () => {
  test("an amount placed on the wrong side is moved when only the other side chains", () => {
    const rows = [row(1, 0n, 100n, 1100n), row(2, 0n, 40n, 1060n), row(3, 10n, 0n, 1050n)];
    expect(assignSidesByChain(rows, 1000n)).toEqual([1]);
    expect([rows[1]!.debit, rows[1]!.credit]).toEqual([40n, 0n]);
  });

  test("a row that chains under neither side keeps its position", () => {
    const rows = [row(1, 0n, 100n, 1100n), row(2, 0n, 40n, 1234n)];
    expect(assignSidesByChain(rows, 1000n)).toEqual([]);
    expect([rows[1]!.debit, rows[1]!.credit]).toEqual([0n, 40n]);
  });

  test("without a balance before the first row, the first row is not judged", () => {
    const rows = [row(1, 100n, 0n, 1100n)];
    expect(assignSidesByChain(rows, null)).toEqual([]);
  });
});
