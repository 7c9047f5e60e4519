import type { Kobo } from "../money.ts";
import { balanceAfter, type ChainRow, linkOf } from "./link.ts";

/**
 * Rows that share a timestamp (or a date, when no time is printed) happened "at once" as far as
 * the statement says: fee, VAT and stamp-duty rows, auto-save sweeps are often printed before
 * their parent. Within such a group the order under which the balance chain holds is the order
 * they happened in. Rows never move across different timestamps and no number changes.
 */

/** Search steps allowed per group: the chain picks the next row, so a real group needs about one per row. */
const STEP_BUDGET = 20_000;
/** Larger groups (a date-only statement's busiest day) are left as printed: the search recurses once per row. */
const MAX_SEARCHED_GROUP = 5_000;

export interface Ordering {
  /** Indexes into the input, in chain order. */
  order: number[];
  /** Groups whose rows were put in a different order than printed. */
  reorderedGroups: { first: number; size: number }[];
}

/** Runs of consecutive rows with the same sortKey, as [start, end) index pairs. */
export function sameTimeGroups(rows: readonly ChainRow[]): [number, number][] {
  const out: [number, number][] = [];
  for (let s = 0; s < rows.length; ) {
    let e = s + 1;
    while (e < rows.length && rows[e]!.sortKey === rows[s]!.sortKey) e++;
    out.push([s, e]);
    s = e;
  }
  return out;
}

/**
 * The chain order of rows already sorted oldest first. `opening`: the balance before the first row
 * when known; a first group that cannot follow from it may start anywhere (the printed opening can
 * be wrong, see reconcile). A group is reordered only when its printed order breaks the chain and
 * another order chains through the whole group and into the next one.
 */
export function orderByChain(rows: readonly ChainRow[], opening: Kobo | null): Ordering {
  const order: number[] = [];
  const reorderedGroups: Ordering["reorderedGroups"] = [];
  const groups = sameTimeGroups(rows);
  let prev: Kobo | null = opening;
  groups.forEach(([s, e], g) => {
    const members = range(s, e);
    const next = groups[g + 1];
    const accepts = (bal: Kobo | null) => !next || range(next[0], next[1]).some((j) => linkOf(bal, rows[j]!) !== "break");
    let chosen = members;
    if (e - s > 1 && members.every((i) => rows[i]!.balance !== null) && !chains(rows, members, prev, accepts)) {
      const start = prev !== null && members.some((i) => linkOf(prev, rows[i]!) !== "break") ? prev : null;
      // A printed opening can be wrong (the balance after the first row): then any row may go first.
      const found = searchOrder(rows, members, start, accepts) ?? (start !== null ? searchOrder(rows, members, null, accepts) : null);
      if (found && found.some((v, k) => v !== members[k])) {
        chosen = found;
        reorderedGroups.push({ first: s, size: e - s });
      }
    }
    for (const i of chosen) {
      order.push(i);
      prev = balanceAfter(prev, rows[i]!);
    }
  });
  return { order, reorderedGroups };
}

function range(s: number, e: number): number[] {
  return Array.from({ length: e - s }, (_, k) => s + k);
}

function chains(rows: readonly ChainRow[], seq: number[], prev: Kobo | null, accepts: (b: Kobo | null) => boolean): boolean {
  let bal = prev;
  for (const i of seq) {
    if (linkOf(bal, rows[i]!) === "break") return false;
    bal = balanceAfter(bal, rows[i]!);
  }
  return accepts(bal);
}

/**
 * Depth-first: the next row is one that follows from the current balance (exact links tried
 * before 1-kobo ones), found through an index of the rows by their balance before, so the
 * branching is the number of rows that happen to fit, not the group size. Gives up after
 * STEP_BUDGET steps. With an unknown start balance any row may go first.
 */
function searchOrder(rows: readonly ChainRow[], members: number[], start: Kobo | null, accepts: (b: Kobo | null) => boolean): number[] | null {
  if (members.length > MAX_SEARCHED_GROUP) return null;
  const byBefore = new Map<Kobo, number[]>();
  const loose: number[] = [];
  for (const i of members) {
    const b = beforeOf(rows[i]!);
    if (b === null) loose.push(i);
    else byBefore.set(b, [...(byBefore.get(b) ?? []), i]);
  }
  let steps = 0;
  const used = new Set<number>();
  const path: number[] = [];
  const candidates = (bal: Kobo | null): number[] => {
    const near = bal === null ? members : [...(byBefore.get(bal) ?? []), ...(byBefore.get(bal - 1n) ?? []), ...(byBefore.get(bal + 1n) ?? []), ...loose];
    const fits = near.filter((i) => !used.has(i) && linkOf(bal, rows[i]!) !== "break");
    return fits.sort((a, b) => rank(linkOf(bal, rows[a]!)) - rank(linkOf(bal, rows[b]!)) || a - b);
  };
  const walk = (bal: Kobo | null): boolean => {
    if (++steps > STEP_BUDGET) return false;
    if (path.length === members.length) return accepts(bal);
    for (const i of candidates(bal)) {
      used.add(i);
      path.push(i);
      if (walk(balanceAfter(bal, rows[i]!))) return true;
      path.pop();
      used.delete(i);
      if (steps > STEP_BUDGET) return false;
    }
    return false;
  };
  if (start !== null) return walk(start) ? [...path] : null;
  // Unknown start: a row whose balance before is no other member's balance after is likely first.
  const afters = new Set(members.map((i) => rows[i]!.balance));
  const firsts = [...members].sort((a, b) => Number(afters.has(beforeOf(rows[a]!))) - Number(afters.has(beforeOf(rows[b]!))) || a - b);
  for (const f of firsts) {
    used.add(f);
    path.push(f);
    if (walk(rows[f]!.balance)) return [...path];
    path.pop();
    used.delete(f);
    if (steps > STEP_BUDGET) return null;
  }
  return null;
}

function beforeOf(r: ChainRow): Kobo | null {
  if (r.balanceBefore != null) return r.balanceBefore;
  if (r.balance === null || (r.unsided != null && r.unsided !== 0n)) return null;
  return r.balance - r.credit + r.debit;
}

const rank = (k: string) => (k === "exact" ? 0 : 1);
