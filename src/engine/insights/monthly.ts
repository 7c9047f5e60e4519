import { figure, type Figure, groupBy } from "./figure.ts";
import type { InsightRow } from "./types.ts";

export interface MonthFlow {
  month: string;
  inflow: Figure;
  outflow: Figure;
}

/** Money in and out per calendar month (YYYY-MM), every row counted, in date order. */
export function monthlyFlows(rows: readonly InsightRow[]): MonthFlow[] {
  const months = groupBy(rows, (r) => (r.month.length === 7 ? r.month : undefined));
  return [...months.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([month, list]) => ({ month, inflow: figure(list.filter((r) => r.credit > 0n), "credit"), outflow: figure(list.filter((r) => r.debit > 0n), "debit") }));
}
