/**
 * Row readings (sections/ledger-rows.ts: each row's sides, date and balances from its own cells)
 * made ahead of time, by each thread for the rows of its own part of a split PDF while the other
 * thread works on its part. A row's cells may still change once the parts are joined (a
 * continuation line attached to it), so each reading keeps the cell texts it was read from and
 * is used only when the row's are still the same: the reading is a function of exactly those.
 */
import type { RawDate } from "../dates.ts";
import type { RowDraft } from "../layout/rows.ts";
import { readRow, type RowReading } from "../sections/ledger-rows.ts";

/** The texts readRow reads: dateText and the cells date, time, debit, credit, amount, drcr, balance, balance_before. */
type Key = readonly [string, ...(string | undefined)[]];

const keyOf = (r: RowDraft): Key => {
  const c = r.cells;
  return [r.dateText, c.date, c.time, c.debit, c.credit, c.amount, c.drcr, c.balance, c.balance_before];
};

function sameKey(k: Key, r: RowDraft): boolean {
  const c = r.cells;
  return k[0] === r.dateText && k[1] === c.date && k[2] === c.time && k[3] === c.debit && k[4] === c.credit && k[5] === c.amount && k[6] === c.drcr && k[7] === c.balance && k[8] === c.balance_before;
}

/** A reading with the texts it was made from. */
export interface Prediction {
  key: Key;
  reading: RowReading;
}

/** PURE: readings of the rows as their cells are now. */
export const predictReadings = (rows: RowDraft[]): Prediction[] => rows.map((r) => ({ key: keyOf(r), reading: readRow(r) }));

/** PURE: the readings still true of the rows' cells now, by row. */
export function confirmReadings(predicted: Map<RowDraft, Prediction>): Map<RowDraft, RowReading> {
  const out = new Map<RowDraft, RowReading>();
  for (const [row, p] of predicted) if (sameKey(p.key, row)) out.set(row, p.reading);
  return out;
}

/**
 * A reading as JSON can carry it, flat: kobo as a number while it is a safe integer (else as
 * decimal text), the date as its seven fields (or null); the key is the row's cells, sent with the row.
 */
type WireKobo = number | string | null;
type WireReading = (WireKobo | boolean)[];

const wireKobo = (k: bigint | null): WireKobo => (k === null ? null : Number.isSafeInteger(Number(k)) ? Number(k) : k.toString());
const kobo = (t: WireKobo): bigint | null => (t === null ? null : BigInt(t));

/** PURE: the readings of a helper's rows, for the wire. */
export const encodeReadings = (rows: RowDraft[]): WireReading[] =>
  rows.map((r) => {
    const { sides, raw, balance, balanceBefore } = readRow(r);
    const kobos = [wireKobo(sides.debit), wireKobo(sides.credit), wireKobo(sides.unsided), wireKobo(balance), wireKobo(balanceBefore)];
    return raw ? [...kobos, raw.year, raw.month, raw.day, raw.ambiguous, raw.hour, raw.minute, raw.second] : kobos;
  });

/**
 * PURE: a helper's readings paired with its rows as received (before anything joined to them
 * could change their cells). Dates come back frozen, as scanDate hands them out.
 */
export function decodeReadings(rows: RowDraft[], wire: WireReading[]): Prediction[] {
  return rows.map((r, i) => {
    const w = wire[i]! as WireKobo[];
    const d = wire[i]! as number[];
    // Fields in scanDate's order.
    const raw: RawDate | null = w.length > 5 ? Object.freeze({ year: d[5]!, month: d[6]!, day: d[7]!, ambiguous: wire[i]![8] as boolean, hour: d[9]!, minute: d[10]!, second: d[11]! }) : null;
    const reading: RowReading = { sides: { debit: kobo(w[0]!)!, credit: kobo(w[1]!)!, unsided: kobo(w[2]!) }, raw, balance: kobo(w[3]!), balanceBefore: kobo(w[4]!) };
    return { key: keyOf(r), reading };
  });
}
