/**
 * withinOf (src/engine/insights/figure.ts), the amount tolerance of salary and recurring debits,
 * works its bounds out once; it must answer exactly |a - b| * 100 <= b * percent, the rule as
 * docs/insights.md states it, at the edges (one kobo either side of the bound) and for any sign.
 */
import { expect, test } from "bun:test";
import { withinOf } from "../../src/engine/insights/figure.ts";

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
