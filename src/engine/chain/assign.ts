import type { Kobo } from "../money.ts";
import { balanceAfter, type ChainRow, linkOf } from "./link.ts";

/**
 * Debit or credit, when the page alone does not say for sure (a short amount between two amount
 * columns, a row wrapped so its amount sits off its column): the side under which the row follows
 * from the balance before it wins. A row that chains as read, or under neither side, keeps its
 * position (and the break is reported by the reconciler).
 */
export function assignSidesByChain<T extends ChainRow>(rows: T[], opening: Kobo | null): number[] {
  const swapped: number[] = [];
  let prev = opening;
  rows.forEach((r, i) => {
    const oneSided = (r.debit === 0n) !== (r.credit === 0n) && (r.unsided == null || r.unsided === 0n);
    if (oneSided && prev !== null && r.balance !== null && linkOf(prev, r) === "break") {
      const flipped = { ...r, debit: r.credit, credit: r.debit };
      if (linkOf(prev, flipped) !== "break") {
        r.debit = flipped.debit;
        r.credit = flipped.credit;
        swapped.push(i);
      }
    }
    prev = balanceAfter(prev, r);
  });
  return swapped;
}
