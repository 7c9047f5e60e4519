/** How one table row's cells read as a date and money. */
import { type RawDate, scanDate } from "../dates.ts";
import type { RoleTexts } from "../layout/rows.ts";
import { absKobo, isEmptyAmount, type Kobo, parseAmount } from "../money.ts";

/**
 * The row's date: the date column with whatever continuation lines added to it (a year or a time
 * on the next line) and the time column, else the date cell of the row's own line.
 */
export function rowDate(cells: RoleTexts, dateText: string): RawDate | null {
  // A date broken mid-number ("01/10/202" + "4", "03 Jan 20" + "24") joins its digits back.
  let date = cells.date;
  if (date && !scanDate(date)) {
    const glued = date.replace(/(\d)\s+(?=\d)/g, "$1");
    if (scanDate(glued)) date = glued;
  }
  // A spreadsheet's typed date of the day alone (`2026-01-02T00:00:00`, src/engine/xlsx/cell-text.ts
  // dateText) beside a time column takes that column's time.
  if (date && cells.time && TYPED_DAY.test(date)) date = date.slice(0, 10);
  // Halves of a date broken over two lines join without the line break ("03/01/" + "2024").
  const joined = [date, cells.time].filter(Boolean).join(" ").replace(/([-/.])\s+(?=\d)/g, "$1");
  return scanDate(joined) ?? scanDate(dateText + (cells.time ? ` ${cells.time}` : "")) ?? scanDate(dateText);
}

const TYPED_DAY = /^\d{4}-\d\d-\d\dT00:00:00$/;

/** A balance marked DR is overdrawn (negative); CR or no marker keeps the printed sign. */
export function signedBalance(kobo: Kobo, marker: "DR" | "CR" | null): Kobo {
  return marker === "DR" && kobo > 0n ? -kobo : kobo;
}

/** True when the row moves no money (both sides empty or zero). */
export function sideless(cells: RoleTexts): boolean {
  const { debit, credit, unsided } = sides(cells, true);
  return debit === 0n && credit === 0n && (unsided === null || unsided === 0n);
}

const DEBIT_WORD = /^(?:dr|d|debit|withdrawal|out)\.?$/i;
const CREDIT_WORD = /^(?:cr|c|credit|deposit|in)\.?$/i;

/**
 * Debit and credit of a row from whichever columns the statement has: separate debit/credit
 * columns (sign ignored: "-4100.00" under Money Out is a debit of 4100.00), one signed amount
 * column, or an amount with a DR/CR column or suffix. An amount whose side nothing tells is
 * returned as `unsided` for the reconciler to place from the balance movement.
 */
export function sides(cells: RoleTexts, signedColumn: boolean): { debit: Kobo; credit: Kobo; unsided: Kobo | null } {
  const read = (t: string | undefined) => (t && !isEmptyAmount(t) ? parseAmount(t) : null);
  let debit = 0n;
  let credit = 0n;
  let unsided: Kobo | null = null;
  const d = read(cells.debit);
  const c = read(cells.credit);
  if (d) debit += absKobo(d.kobo);
  if (c) credit += absKobo(c.kobo);
  const a = read(cells.amount);
  if (a) {
    const word = (cells.drcr ?? "").trim();
    const abs = absKobo(a.kobo);
    if (a.marker === "DR" || DEBIT_WORD.test(word)) debit += abs;
    else if (a.marker === "CR" || CREDIT_WORD.test(word)) credit += abs;
    else if (a.kobo < 0n) debit += abs;
    else if (a.signed || signedColumn) credit += abs;
    else unsided = abs;
  }
  return { debit, credit, unsided };
}
