/**
 * A second date-headed column that prints only times of day ("Trans. Date | Trans. Time",
 * "Time | Value Date") is the rows' time column: headings alone cannot tell it from a value date
 * (`Trans. Time` heads a full date and time on some exports), its cells can.
 */
import { scanDate, scanTimeOfDay } from "../dates.ts";
import type { RoleTexts, RowDraft } from "../layout/rows.ts";

/** Share of a column's filled cells that must be times (a stray wrapped line may be something else). */
const TIMES_SHARE = 0.9;

type DateRole = "date" | "value_date";

/** The rows with a times-only date column read as their time column; the rows themselves when there is none. */
export function withTimeColumn(rows: RowDraft[]): RowDraft[] {
  if (rows.some((r) => r.cells.time)) return rows;
  const timed = timesOnly(rows, "value_date") ? "value_date" : timesOnly(rows, "date") && holdsDates(rows, "value_date") ? "date" : null;
  if (!timed) return rows;
  return rows.map((r) => ({ ...r, cells: retitled(r.cells, timed), dateText: timed === "date" ? (r.cells.value_date ?? "") : r.dateText }));
}

function retitled(cells: RoleTexts, timed: DateRole): RoleTexts {
  const { value_date, date, ...rest } = cells;
  const out: RoleTexts = { ...rest };
  if (timed === "value_date") {
    if (date !== undefined) out.date = date;
    if (value_date !== undefined) out.time = value_date;
  } else {
    if (value_date !== undefined) out.date = value_date;
    if (date !== undefined) out.time = date;
  }
  return out;
}

const filled = (rows: RowDraft[], role: DateRole): string[] => rows.map((r) => r.cells[role]?.trim() ?? "").filter((t) => t !== "");

function timesOnly(rows: RowDraft[], role: DateRole): boolean {
  const texts = filled(rows, role);
  if (texts.length < 2) return false;
  const times = texts.filter((t) => scanTimeOfDay(t) !== null && scanDate(t) === null).length;
  return times >= TIMES_SHARE * texts.length;
}

const holdsDates = (rows: RowDraft[], role: DateRole): boolean => {
  const texts = filled(rows, role);
  return texts.length > 0 && texts.filter((t) => scanDate(t) !== null).length >= TIMES_SHARE * texts.length;
};
