/**
 * withinOf (src/engine/insights/figure.ts), the amount tolerance of salary and recurring debits,
 * works its bounds out once; it must answer exactly |a - b| * 100 <= b * percent, the rule as
 * docs/insights.md states it, at the edges (one kobo either side of the bound) and for any sign.
 */
import { expect, test } from "bun:test";
import { compareKobo, median, medianKobo, withinOf } from "../../src/engine/insights/figure.ts";
import type { InsightRow } from "../../src/engine/insights/types.ts";

const rule = (a: bigint, b: bigint, percent: bigint) => (a > b ? a - b : b - a) * 100n <= b * percent;

test("the same answer as the rule's arithmetic, edges and random amounts, any sign and percent", () => {
  const bs = [0n, 1n, 9n, 10n, 99n, 100n, 101n, 999n, 123_456_789n, -1n, -100n, -123_457n];
  let checked = 0;
  let state = 42;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return BigInt(state % 2_000_000) - 1_000_000n;
  };
  for (const b of bs) {
    for (const percent of [0n, 1n, 10n, 33n, 100n]) {
      const near = withinOf(b, percent);
      const slack = (b * percent) / 100n;
      const edges = [b - slack - 1n, b - slack, b - slack + 1n, b, b + slack - 1n, b + slack, b + slack + 1n, -b, 0n];
      for (const a of [...edges, ...Array.from({ length: 50 }, random)]) {
        expect([a, b, percent, near(a)]).toEqual([a, b, percent, rule(a, b, percent)]);
        checked++;
      }
    }
  }
  expect(checked).toBe(bs.length * 5 * 59);
});

test("10% of a salary: N90,000 to N110,000 around N100,000, not a kobo more", () => {
  const near = withinOf(10_000_000n, 10n);
  expect([near(9_000_000n), near(11_000_000n), near(8_999_999n), near(11_000_001n)]).toEqual([true, true, false, false]);
});

test("medianKobo (salary and recurring debits) is the comparator's median, beyond 64 bits too", () => {
  const rowsOf = (debits: bigint[]) => debits.map((debit) => ({ debit }) as InsightRow);
  let state = 7;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state;
  };
  for (let n = 1; n <= 40; n++) {
    const values = Array.from({ length: n }, () => BigInt(random()) * BigInt(random() % 1000) - 50_000_000_000n);
    expect(medianKobo(rowsOf(values), (r) => r.debit)).toBe(median(values, compareKobo));
  }
  // 2^64 + 5 kobo would read as 5 in a 64-bit array: such amounts take the comparator.
  const huge = [2n ** 64n + 5n, 2n ** 64n + 7n, 3n];
  expect(medianKobo(rowsOf(huge), (r) => r.debit)).toBe(2n ** 64n + 5n);
  expect(medianKobo(rowsOf([-(2n ** 70n), 1n, 2n]), (r) => r.debit)).toBe(1n);
});
