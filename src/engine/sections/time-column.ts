/**
 * A second date-headed column that prints only times of day (`Date | Timestamp` with `14:05:09`
 * under Timestamp) is the rows' time column: its heading cannot tell it from a value date
 * (`Timestamp` and `Trans. Time` head full dates and times on some exports), its cells can.
 */
import { scanDate, scanTimeOfDay } from "../dates.ts";
import type { RowDraft } from "../layout/rows.ts";

/** Share of the column's filled cells that must be times (a stray wrapped line may be something else). */
const TIMES_SHARE = 0.9;

/** The rows with a times-only value-date column read as their time column; the rows themselves when there is none. */
export function withTimeColumn(rows: RowDraft[]): RowDraft[] {
  if (rows.some((r) => r.cells.time) || !timesOnly(rows)) return rows;
  return rows.map((r) => {
    const { value_date, ...cells } = r.cells;
    return value_date === undefined ? r : { ...r, cells: { ...cells, time: value_date } };
  });
}

function timesOnly(rows: RowDraft[]): boolean {
  const texts = rows.map((r) => r.cells.value_date?.trim() ?? "").filter((t) => t !== "");
  if (texts.length < 2) return false;
  const times = texts.filter((t) => scanTimeOfDay(t) !== null && scanDate(t) === null).length;
  return times >= TIMES_SHARE * texts.length;
}
