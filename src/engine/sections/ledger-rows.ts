/** A section's table rows to ledger rows: which rows are transactions, their dates and their sides. */
import { emptyStatement } from "../../errors.ts";
import { completePartialDate, dateSortKey, type DayMonthOrder, inferDayMonthOrder, type RawDate, resolveDate, scanPartialDate, scanTimeOfDay } from "../dates.ts";
import { CLOSING_LABEL, OPENING_LABEL, type RowDraft } from "../layout/rows.ts";
import type { HeaderFacts } from "../metadata/index.ts";
import { isEmptyAmount, type Kobo, parseAmount } from "../money.ts";
import type { LedgerRow } from "../reconcile.ts";
import { squeezeSpaces } from "../whitespace.ts";
import { rowDate, sides, signedBalance } from "./cells.ts";

const TOTALS_ROW = /^\s*(?:grand\s+|sub\s*-?\s*)?totals?\b/i;

export interface DraftTxn extends LedgerRow {
  raw: RawDate;
  narration: string;
  reference: string;
  currency: string;
}

type Sides = ReturnType<typeof sides>;

/** What a row's own cells read as, whatever the rest of the table says: computed once per row. */
export interface RowReading {
  /** sides(cells, false): see sidesFor. */
  sides: Sides;
  /** rowDate(cells, dateText). */
  raw: RawDate | null;
  /** The balance and the balance before the row, signed (a DR balance is negative). */
  balance: Kobo | null;
  balanceBefore: Kobo | null;
}

const money = (t: string | undefined) => (t && !isEmptyAmount(t) ? parseAmount(t) : null);
const signedMoney = (t: string | undefined): Kobo | null => {
  const m = money(t);
  return m ? signedBalance(m.kobo, m.marker) : null;
};

/** PURE: a row's reading from its cells (date, time, debit, credit, amount, drcr, balance, balance_before) and dateText only. */
export function readRow(r: RowDraft): RowReading {
  return { sides: sides(r.cells, false), raw: rowDate(r.cells, r.dateText), balance: signedMoney(r.cells.balance), balanceBefore: signedMoney(r.cells.balance_before) };
}

/** The rows that are transactions, with what the others said. */
export interface KeptRows {
  drafts: RowDraft[];
  /** Each draft's reading. */
  readings: RowReading[];
  /** Balance of a dated opening row first in the table (at most one). */
  openingRowBalances: Kobo[];
  /** Balance of a dated closing row last in the table. */
  closingRowBalance: Kobo | null;
  /** Dated lines with no amount anywhere, as text for a note. */
  amountless: string[];
  /** Rows whose status says the transaction did not go through, as text for a note. */
  failed: string[];
}

/** A status saying the transaction did not go through: an attempt, not a posting. */
const FAILED_STATUS = /^(?:failed|failure|declined|unsuccessful|not successful|cancell?ed|rejected|error)\.?$/i;

/**
 * Opening-balance and closing rows that carry a date are not transactions, nor dated notes
 * without any amount, nor dated totals rows. Throws empty_statement when no row is left.
 * Each row's sides are read once here and kept for the transactions (draftTransactions).
 */
export function keepTransactionRows(rows: RowDraft[], coverage: number): KeptRows {
  const kept: KeptRows = { drafts: [], readings: [], openingRowBalances: [], closingRowBalance: null, amountless: [], failed: [] };
  const text = (r: RowDraft) => `${r.cells.narration ?? ""} ${r.cells.reference ?? ""} ${r.cells.other ?? ""}`;
  rows.forEach((r, i) => {
    // A dated line with no amount anywhere (a note inside the table) moves no money: reported, not a row.
    if (!r.cells.debit && !r.cells.credit && !r.cells.amount && !r.cells.balance) {
      kept.amountless.push(`${r.dateText} ${text(r).trim()}`.trim());
      return;
    }
    // A failed attempt moved no money, whatever amount it shows: app histories list them with the postings.
    if (FAILED_STATUS.test(r.cells.status?.trim() ?? "")) {
      kept.failed.push(`${r.dateText} ${text(r).trim()}`.trim());
      return;
    }
    const reading = readRow(r);
    const s = reading.sides;
    // Moves no money: both sides empty or zero, whatever the amount column's sign convention.
    const noMovement = s.debit === 0n && s.credit === 0n && (s.unsided === null || s.unsided === 0n);
    if (noMovement && OPENING_LABEL.test(text(r))) {
      if (i === 0) {
        const b = r.cells.balance ? parseAmount(r.cells.balance) : null;
        if (b) kept.openingRowBalances.push(signedBalance(b.kobo, b.marker));
      }
      return;
    }
    if (noMovement && CLOSING_LABEL.test(text(r))) {
      const b = r.cells.balance ? parseAmount(r.cells.balance) : null;
      if (b && i === rows.length - 1) kept.closingRowBalance = signedBalance(b.kobo, b.marker);
      return;
    }
    // A dated totals row ("31-Jan-2024 TOTAL 1,000.00 2,000.00") sums the rows; it is not one.
    if (TOTALS_ROW.test(r.cells.narration ?? "") && !r.cells.balance) return;
    kept.drafts.push(r);
    kept.readings.push(reading);
  });
  if (kept.drafts.length === 0) throw emptyStatement("The statement table has no transactions", coverage);
  return kept;
}

/**
 * Each draft's date, and the day/month order read from every date of the document (rows and the
 * printed period). Rows printed without a year ("02 Dec") take it from the statement period.
 */
export function rowDates(kept: KeptRows, period: HeaderFacts["period"]): { raws: (RawDate | null)[]; order: DayMonthOrder } {
  const drafts = kept.drafts;
  const raws: (RawDate | null)[] = kept.readings.map((r) => r.raw);
  const all: RawDate[] = raws.filter((d): d is RawDate => d !== null);
  if (period) all.push(...period);
  const order = inferDayMonthOrder(all);
  const fallbackYear = all[0]?.year ?? new Date().getUTCFullYear();
  drafts.forEach((r, i) => {
    if (raws[i]) return;
    const partial = scanPartialDate(r.dateText);
    const time = r.cells.time ? scanTimeOfDay(r.cells.time) : null;
    if (partial) raws[i] = completePartialDate(partial, period ? [resolveDate(period[0], order), resolveDate(period[1], order)] : null, fallbackYear, time);
  });
  return { raws, order };
}

/**
 * The sides of sides(cells, signedColumn) from the row's sides(cells, false): a signed amount
 * column makes an amount no marker or sign placed a credit instead of leaving it unsided.
 */
const sidesFor = (s: Sides, signedColumn: boolean): Sides =>
  signedColumn && s.unsided !== null ? { debit: s.debit, credit: s.credit + s.unsided, unsided: null } : s;

/** A section's drafts as ledger rows (undated ones left out); `swapSides` reads the debit column as credit and back. */
export function draftTransactions(
  kept: KeptRows,
  dates: { raws: (RawDate | null)[]; order: DayMonthOrder },
  opts: { signed: boolean; currency: string; swapSides: boolean },
): DraftTxn[] {
  const txns: DraftTxn[] = [];
  kept.drafts.forEach((r, i) => {
    const raw = dates.raws[i];
    if (!raw) return;
    const date = resolveDate(raw, dates.order);
    const reading = kept.readings[i]!;
    const { debit, credit, unsided } = opts.swapSides ? sides({ ...r.cells, debit: r.cells.credit, credit: r.cells.debit }, opts.signed) : sidesFor(reading.sides, opts.signed);
    txns.push({
      raw: date,
      sortKey: dateSortKey(date),
      debit,
      credit,
      unsided,
      balance: reading.balance,
      balanceBefore: reading.balanceBefore,
      narration: squeezeSpaces(r.cells.narration ?? ""),
      reference: squeezeSpaces(r.cells.reference ?? ""),
      currency: r.cells.currency?.trim() || opts.currency,
    });
  });
  return txns;
}

/** An amount column prints signs: an unmarked amount in it is a credit. */
export const signedAmountColumn = (drafts: RowDraft[]): boolean => drafts.some((r) => r.cells.amount && /^\s*[-(]|[-)]\s*$/.test(r.cells.amount));
