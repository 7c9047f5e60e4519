import { formatKobo } from "../money.ts";
import { foundAny } from "./compile.ts";
import { figure, type Figure } from "./figure.ts";
import { dayNumber } from "./rows.ts";
import type { InsightRow } from "./types.ts";

/** How far back (rows, and days) a reversal's original is looked for. */
const LOOK_BACK_ROWS = 50;
const LOOK_BACK_DAYS = 14;

export interface ReturnedItem {
  row: number;
  kind: "reversal" | "bounced";
  amount: string;
  /** The earlier row of the same amount the other way, within 14 days, that it undoes; null when none is found. */
  reverses: number | null;
}

export interface Returned {
  /** Money given back to the account. */
  reversed_in: Figure;
  /** Money taken back from it. */
  reversed_out: Figure;
  items: ReturnedItem[];
}


function original(rows: readonly InsightRow[], r: InsightRow, dayOf: (day: string) => number): number | null {
  const day = dayOf(r.day);
  for (let j = r.index - 1; j >= Math.max(0, r.index - LOOK_BACK_ROWS); j--) {
    const p = rows[j];
    if (!p || p.section !== r.section) continue;
    if (day - dayOf(p.day) > LOOK_BACK_DAYS) break;
    if ((r.credit > 0n && p.debit === r.credit) || (r.debit > 0n && p.credit === r.debit)) return p.index;
  }
  return null;
}

/** Reversed and bounced (returned unpaid, failed) items, each with the row it undoes when found. */
export function returnedItems(rows: readonly InsightRow[], bounced: Set<string>): Returned {
  // Rows of one narration share their phrase set (insightRows): each set is looked up once.
  const bouncedSets = new Map<ReadonlySet<string>, boolean>();
  const isBounced = (r: InsightRow): boolean => {
    let is = bouncedSets.get(r.found);
    if (is === undefined) bouncedSets.set(r.found, (is = foundAny(r.found, bounced)));
    return is;
  };
  const items = rows.filter((r) => r.enrichment.category === "reversal" || isBounced(r));
  // Each item looks back up to LOOK_BACK_ROWS rows: a statement has few distinct days, each read once.
  const days = new Map<string, number>();
  const dayOf = (day: string): number => {
    let n = days.get(day);
    if (n === undefined) days.set(day, (n = dayNumber(day)));
    return n;
  };
  return {
    reversed_in: figure(items.filter((r) => r.credit > 0n), "credit"),
    reversed_out: figure(items.filter((r) => r.debit > 0n), "debit"),
    items: items.map((r) => ({
      row: r.index,
      // A returned cheque is a bounce even where its words also read as a reversal.
      kind: isBounced(r) ? "bounced" : "reversal",
      amount: formatKobo(r.credit > 0n ? r.credit : r.debit),
      reverses: original(rows, r, dayOf),
    })),
  };
}
