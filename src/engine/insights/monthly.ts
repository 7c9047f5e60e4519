import { figure, type Figure } from "./figure.ts";
import type { InsightRow } from "./types.ts";

export interface MonthFlow {
  month: string;
  inflow: Figure;
  outflow: Figure;
}

/** Money in and out per calendar month (YYYY-MM), every row counted, in date order. */
export function monthlyFlows(rows: readonly InsightRow[]): MonthFlow[] {
  // One pass: each month's credits and debits, in row order.
  const months = new Map<string, { credits: InsightRow[]; debits: InsightRow[] }>();
  for (const r of rows) {
    if (r.month.length !== 7) continue;
    let month = months.get(r.month);
    if (month === undefined) months.set(r.month, (month = { credits: [], debits: [] }));
    if (r.credit > 0n) month.credits.push(r);
    if (r.debit > 0n) month.debits.push(r);
  }
  return [...months.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([month, { credits, debits }]) => ({ month, inflow: figure(credits, "credit"), outflow: figure(debits, "debit") }));
}
