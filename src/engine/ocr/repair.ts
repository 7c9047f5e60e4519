/**
 * The balance chain as the judge of OCR'd figures. A link is one row's equation: the previous
 * balance plus the row's credit minus its debit equals its balance. A break with a single
 * explanation is repaired:
 * - an amount misread: the links before and after the row hold (both balances around it are
 *   confirmed), and the amount the two balances ask for is a single confusion of the printed one;
 * - a balance misread: the link before holds, the row's link and the next both break, and the
 *   balance its own amount asks for also makes the next row's link hold, and is a single confusion.
 * The first and last rows lean on the printed opening and closing balances for their missing
 * neighbour. A row with no amount read, or a value no single confusion explains, stays a break:
 * nothing is ever assumed about a row that is not there.
 */
import { absKobo, formatKobo, type Kobo, parseAmount } from "../money.ts";
import type { AccountSection } from "../types.ts";
import { type Confusion, confusionOf } from "./confusions.ts";

export interface ChainRepair {
  /** 0-based row index in its section's transactions. */
  row: number;
  field: "debit" | "credit" | "balance";
  /** The figure as read (the engine's reading of the printed word). */
  printed: Kobo;
  used: Kobo;
  confusion: Confusion;
}

const k = (s: string): Kobo => parseAmount(s)?.kobo ?? 0n;

interface Figures {
  debit: Kobo[];
  credit: Kobo[];
  balance: Kobo[];
  /** Printed opening balance, or null (derived or assumed). */
  opening: Kobo | null;
  /** Printed closing balance, or null. */
  closing: Kobo | null;
}

function figuresOf(s: AccountSection): Figures {
  const t = s.transactions;
  const printed = (v: string) => (v.trim() === "" ? null : k(v));
  return {
    debit: t.map((r) => absKobo(k(r.debit))),
    credit: t.map((r) => absKobo(k(r.credit))),
    balance: t.map((r) => k(r.balance)),
    opening: s.checks.opening_balance_source === "statement" ? printed(s.metadata.opening_balance) : null,
    closing: s.checks.closing_balance_match === null ? null : printed(s.metadata.closing_balance),
  };
}

/** Whether row i's link holds, with optional replacement figures; undefined when it has no previous balance. */
function holds(f: Figures, i: number, over: Partial<Record<"debit" | "credit" | "balance", Map<number, Kobo>>> = {}): boolean | undefined {
  const get = (field: "debit" | "credit" | "balance", j: number) => over[field]?.get(j) ?? f[field][j]!;
  const prev = i === 0 ? f.opening : get("balance", i - 1);
  if (prev === null) return undefined;
  return prev + get("credit", i) - get("debit", i) === get("balance", i);
}

/** Links that hold, out of the rows that have one to check (only rows `counted` accepts, when given). */
export function chainShare(s: AccountSection, counted: (row: number) => boolean = () => true): { holding: number; checked: number } {
  const f = figuresOf(s);
  let holding = 0;
  let checked = 0;
  for (let i = 0; i < f.balance.length; i++) {
    if (!counted(i)) continue;
    const h = holds(f, i);
    if (h === undefined) continue;
    checked++;
    if (h) holding++;
  }
  return { holding, checked };
}

/**
 * Row i's link and the next one both hold (the last row: its balance meets the printed closing, or
 * none is printed): the row's figures are confirmed by the balances on both sides of it.
 */
export function rowChains(s: AccountSection, i: number): boolean {
  const f = figuresOf(s);
  if (holds(f, i) !== true) return false;
  if (i + 1 < f.balance.length) return holds(f, i + 1) === true;
  return f.closing === null || f.closing === f.balance[i];
}

/** The single-explanation repairs of one section's breaks (none when its balances were not printed). */
export function chainRepairs(s: AccountSection): ChainRepair[] {
  if (s.checks.balances_derived) return [];
  const f = figuresOf(s);
  const n = f.balance.length;
  const out: ChainRepair[] = [];
  for (let i = 0; i < n; i++) {
    if (holds(f, i) !== false) continue;
    // The balance before the row is confirmed by its own link (or is the printed opening).
    const before = i === 0 ? f.opening !== null : holds(f, i - 1) === true;
    if (!before) continue;
    const prev = i === 0 ? f.opening! : f.balance[i - 1]!;
    const next = i + 1 < n ? holds(f, i + 1) : f.closing === null ? undefined : f.closing === f.balance[i];
    const repair = next === true ? amountRepair(f, i, prev) : balanceRepair(f, i, prev);
    if (repair) out.push(repair);
  }
  return out;
}

/** The balances around row i are both confirmed: the amount they ask for, if one confusion explains the printed one. */
function amountRepair(f: Figures, i: number, prev: Kobo): ChainRepair | null {
  const delta = f.balance[i]! - prev;
  const field = f.debit[i]! !== 0n && f.credit[i]! === 0n ? "debit" : f.credit[i]! !== 0n && f.debit[i]! === 0n ? "credit" : null;
  if (field === null) return null;
  const used = field === "debit" ? -delta : delta;
  if (used <= 0n) return null;
  const confusion = confusionOf(f[field][i]!, used);
  return confusion ? { row: i, field, printed: f[field][i]!, used, confusion } : null;
}

/** Row i's balance, as its own amount asks, if it also makes the next link hold (or meets the printed closing) and one confusion explains it. */
function balanceRepair(f: Figures, i: number, prev: Kobo): ChainRepair | null {
  const used = prev + f.credit[i]! - f.debit[i]!;
  const n = f.balance.length;
  const confirmed = i + 1 < n ? holds(f, i + 1, { balance: new Map([[i, used]]) }) === true : f.closing !== null && f.closing === used;
  if (!confirmed) return null;
  const confusion = confusionOf(f.balance[i]!, used);
  return confusion ? { row: i, field: "balance", printed: f.balance[i]!, used, confusion } : null;
}

export const repairText = (r: ChainRepair) => formatKobo(r.used);
