import { formatKobo, type Kobo } from "./money.ts";
import type { LedgerRow, PrintedFigures } from "./ledger.ts";
import { assignSidesByChain } from "./chain/assign.ts";
import { linkOf } from "./chain/link.ts";
import { chainsFromFirst, firstRowVouched, impliedOpening, openingDisagreement } from "./chain/opening.ts";
import { orderByChain } from "./chain/order.ts";
import { swapNote, swapWithinWindow } from "./chain/reorder.ts";
import type { Checks } from "./types.ts";
import { printedContradicts, verdictOf } from "./verdict.ts";

export type { LedgerRow, PrintedFigures, PrintedTotals } from "./ledger.ts";

export interface Reconciled<T extends LedgerRow> {
  rows: (T & { balance: Kobo })[];
  opening: Kobo;
  closing: Kobo;
  totalDebit: Kobo;
  totalCredit: Kobo;
  checks: Checks;
  rowWiseReconcilable: boolean;
  /** Indexes of rows whose debit/credit side was taken from the chain rather than the column. */
  sidesFromChain: number[];
}

/**
 * First-page figures a section did not take as its own (taken to cover the customer's other
 * pockets too), by the section's checks: assembleLines compares them with the sum over sections.
 */
export interface WiderFigures {
  opening: Kobo | null;
  closing: Kobo | null;
}
const widerBySection = new WeakMap<Checks, WiderFigures>();
export const widerFigures = (checks: Checks): WiderFigures | undefined => widerBySection.get(checks);

/** The assumption reconcile lists for a wider first-page figure (settled away by assembleLines when the sections add up to it). */
export const widerAssumption = (what: "opening" | "closing", figure: Kobo) =>
  `The first printed ${what} balance ${formatKobo(figure)} was taken to cover more than this section (the whole customer's pockets).`;

/** What the steps of reconcile write for the caller: `notes` explain, `assumed` lists what was taken on trust. */
interface Report {
  notes: string[];
  assumed: string[];
}

type Balanced<T extends LedgerRow> = T & { balance: Kobo };

/**
 * Orders rows oldest first, puts rows that share a timestamp in the order their balances chain,
 * settles unsided amounts and ambiguous sides from balance movements, fills balances that the
 * statement does not print (and says so), and checks the balance chain and the printed figures.
 * Printed numbers are never changed: a break is reported, not repaired.
 */
export function reconcile<T extends LedgerRow>(input: T[], printedAsGiven: PrintedFigures): Reconciled<T> {
  const report: Report = { notes: [], assumed: [] };
  const listed = oldestFirst(input.map((r) => ({ ...r })), report);
  const own = ownOpening(listed.rows, printedAsGiven, report.notes, report.assumed);
  const printed: PrintedFigures = own;
  const { rows, swappedRows } = chainOrder(listed.rows, printed, report);
  const flipped = settleSides(rows, printed, report);
  const { opening, openingSource } = chooseOpening(rows, printed, report);
  const chained = chainBalances(rows, opening, report);
  const totals = rowTotals(chained.rows);
  const lastBalance = chained.rows.length > 0 ? chained.rows[chained.rows.length - 1]!.balance : opening;
  const figures = checkPrintedFigures(printed, totals, opening, lastBalance, report);

  const rowChain = chained.firstBreak === null;
  // Derived balances chain by construction, so then only the printed figures can vouch for the rows.
  // With no balance column and no printed opening balance the chain starts from an assumed 0.00:
  // the movements are the statement's, the balances are not, and a lender must not read them as
  // checked unless a printed closing balance or total agrees.
  const unvouched = chained.balancesDerived && !chained.hasBalances && openingSource === "assumed_zero" && figures.totalsMatch !== true && figures.closingMatch !== true;
  if (unvouched) report.notes.push("Balances were counted from an assumed 0.00 and no printed figure confirms them; they are not the account's balances.");
  // The rows must chain and nothing the statement prints about itself may contradict them: a chain
  // of a few rows under a header that counts 129 debits is not the statement.
  const contradicted = printedContradicts({ totals_match: figures.totalsMatch, closing_balance_match: figures.closingMatch, count_match: figures.countMatch });
  const rowWiseReconcilable = rowChain && !unvouched && !contradicted;
  const checks: Checks = {
    row_chain: rowChain,
    first_break_index: chained.firstBreak,
    balances_derived: chained.balancesDerived,
    totals_match: figures.totalsMatch,
    closing_balance_match: figures.closingMatch,
    reversed: listed.reversed,
    count_match: figures.countMatch,
    opening_balance_source: openingSource,
    kobo_rounding_rows: chained.koboRows,
    ...(swappedRows.length > 0 ? { swapped_rows: swappedRows } : {}),
    notes: report.notes,
    assumed: report.assumed,
    verdict: verdictOf(
      { row_chain: rowChain, totals_match: figures.totalsMatch, closing_balance_match: figures.closingMatch, count_match: figures.countMatch, assumed: report.assumed },
      rowWiseReconcilable,
    ),
  };
  const wider = { opening: own.widerOpening ?? null, closing: figures.widerClosing };
  if (wider.opening !== null || wider.closing !== null) widerBySection.set(checks, wider);
  return {
    rows: chained.rows,
    opening,
    closing: figures.printedClosing ?? lastBalance,
    totalDebit: totals.debit,
    totalCredit: totals.credit,
    rowWiseReconcilable,
    sidesFromChain: flipped,
    checks,
  };
}

/** The rows oldest first: a statement listed newest first (or, on one day, whose balances chain only backwards) is turned round. */
function oldestFirst<T extends LedgerRow>(rows: T[], report: Report): { rows: T[]; reversed: boolean } {
  let reversed = false;
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first && last && first.sortKey > last.sortKey) {
    reversed = true;
  } else if (first && last && first.sortKey === last.sortKey && rows.length > 1 && rows.every((r) => r.balance !== null)) {
    // Same-day statement: the listing order under which the balances chain wins.
    reversed = chainBreaks([...rows].reverse(), null) < chainBreaks(rows, null);
  }
  if (reversed) {
    rows.reverse();
    report.notes.push("Rows were listed newest first and have been put oldest first.");
  }
  return { rows, reversed };
}

/** Rows sharing a timestamp in the order their balances chain, then adjacent rows seconds apart posted the other way round (chain/reorder.ts). */
function chainOrder<T extends LedgerRow>(rows: T[], printed: PrintedFigures, report: Report): { rows: T[]; swappedRows: { row: number; seconds: number }[] } {
  const ordering = orderByChain(rows, printed.opening);
  if (ordering.reorderedGroups.length > 0) {
    rows = ordering.order.map((i) => rows[i]!);
    const described = ordering.reorderedGroups.slice(0, 5).map((g) => `rows ${g.first + 1}-${g.first + g.size}`).join(", ");
    report.notes.push(
      `${ordering.reorderedGroups.length} group(s) of rows sharing one timestamp were printed out of balance order and are returned in the order their balances chain (${described}${ordering.reorderedGroups.length > 5 ? ", ..." : ""}); no row moved across timestamps.`,
    );
  }
  const swapped = swapWithinWindow(rows, printed.opening ?? rows[0]?.balanceBefore ?? null);
  if (swapped.swaps.length > 0) {
    rows = swapped.rows;
    report.notes.push(swapNote(swapped.swaps));
  }
  return { rows, swappedRows: swapped.swaps.map((s) => ({ row: s.at, seconds: s.seconds })) };
}

/** Amounts without a side, and sides the columns leave ambiguous, taken from the balance movements; returns the rows whose side the chain decided. */
function settleSides(rows: LedgerRow[], printed: PrintedFigures, report: Report): number[] {
  settleUnsided(rows, printed.opening ?? rows[0]?.balanceBefore ?? null, report.notes);
  // The first row's side is checked against the printed opening only when one side fits it
  // exactly; a printed opening that fits neither side is judged later.
  const flipped = assignSidesByChain(rows, rows[0]?.balanceBefore ?? printed.opening);
  if (flipped.length > 0) report.notes.push(`Row(s) ${flipped.slice(0, 5).map((i) => i + 1).join(", ")}${flipped.length > 5 ? ", ..." : ""}: the amount's column was ambiguous; the side under which the balance chains was taken.`);
  return flipped;
}

/** The balance the chain starts from: the printed one, the one the first row implies, or 0.00 assumed; and where it came from. */
function chooseOpening(rows: LedgerRow[], printed: PrintedFigures, { notes, assumed }: Report): { opening: Kobo; openingSource: Checks["opening_balance_source"] } {
  const head = rows[0];
  const implied = head ? impliedOpening(head) : null;
  if (printed.opening !== null && head && implied !== null && implied !== printed.opening && linkOf(printed.opening, head) === "break" && chainsFromFirst(rows) && firstRowVouched(rows, printed)) {
    // Some apps print the balance after the first row as the opening; the rows vouch for theirs.
    notes.push(openingDisagreement(printed, implied, rows));
    assumed.push(`The opening balance ${formatKobo(implied)} is the one the first row implies; the printed ${formatKobo(printed.opening)} was taken to be the balance after the first row.`);
    return { opening: implied, openingSource: "derived" };
  }
  if (printed.opening !== null) return { opening: printed.opening, openingSource: "statement" };
  if (head && implied !== null) {
    // The first row's printed Balance Before is a printed figure: the opening is the statement's.
    notes.push(head.balanceBefore != null ? "No opening balance is printed; the first row's balance before was taken." : "No opening balance is printed; it was derived from the first row.");
    if (head.balanceBefore == null) assumed.push(`The opening balance ${formatKobo(implied)} was worked back from the first row's balance and amount (none is printed).`);
    return { opening: implied, openingSource: head.balanceBefore != null ? "statement" : "derived" };
  }
  notes.push("No opening balance is printed; 0.00 was assumed.");
  assumed.push("The opening balance 0.00 was assumed (none is printed and the rows print no balance).");
  return { opening: 0n, openingSource: "assumed_zero" };
}

interface Chained<T extends LedgerRow> {
  rows: Balanced<T>[];
  hasBalances: boolean;
  balancesDerived: boolean;
  firstBreak: number | null;
  koboRows: number[];
}

/** Walks the chain from `opening`: each row's printed balance checked against the one before, a missing one counted from it. */
function chainBalances<T extends LedgerRow>(rows: T[], opening: Kobo, { notes, assumed }: Report): Chained<T> {
  const hasBalances = rows.some((r) => r.balance !== null);
  let balancesDerived = false;
  let firstBreak: number | null = null;
  const koboRows: number[] = [];
  let prev = opening;
  const out = rows.map((r, i) => {
    const expected = (r.balanceBefore ?? prev) + r.credit - r.debit;
    let balance: Kobo;
    if (r.balance === null) {
      balance = expected;
      balancesDerived = true;
    } else {
      balance = r.balance;
      const link = linkOf(prev, r);
      if (link === "kobo") koboRows.push(i);
      if (link === "break" && firstBreak === null) {
        firstBreak = i;
        const from = r.balanceBefore != null && r.balanceBefore !== prev ? `balance before ${formatKobo(r.balanceBefore)} is not the previous balance ${formatKobo(prev)}` : `balance ${formatKobo(balance)} but ${formatKobo(r.balanceBefore ?? prev)} + ${formatKobo(r.credit)} - ${formatKobo(r.debit)} = ${formatKobo(expected)}`;
        notes.push(`Row ${i + 1}: ${from}.`);
      }
    }
    prev = balance;
    return { ...r, balance };
  });
  if (balancesDerived) {
    notes.push(hasBalances ? "Some rows print no balance; theirs were derived from the chain." : "The statement has no balance column; balances were derived from the opening balance.");
    assumed.push(hasBalances ? "Balances of rows that print none were counted from the previous balance." : "Every balance was counted from the opening balance (the statement prints none).");
  }
  if (koboRows.length > 0) {
    const listedRows = `${koboRows.slice(0, 5).map((i) => i + 1).join(", ")}${koboRows.length > 5 ? ", ..." : ""}`;
    notes.push(`Row(s) ${listedRows}: the printed balance is 1 kobo off the row's amounts (rounded half-kobo charges) and was accepted.`);
    assumed.push(`Row(s) ${listedRows}: a rounded half-kobo charge was assumed where the printed balance is 1 kobo off.`);
  }
  return { rows: out, hasBalances, balancesDerived, firstBreak, koboRows };
}

interface RowTotals {
  debit: Kobo;
  credit: Kobo;
  debits: number;
  credits: number;
}

function rowTotals(rows: readonly LedgerRow[]): RowTotals {
  const t: RowTotals = { debit: 0n, credit: 0n, debits: 0, credits: 0 };
  for (const r of rows) {
    t.debit += r.debit;
    t.credit += r.credit;
    if (r.debit > 0n) t.debits++;
    if (r.credit > 0n) t.credits++;
  }
  return t;
}

interface FigureChecks {
  totalsMatch: boolean | null;
  closingMatch: boolean | null;
  countMatch: boolean | null;
  /** The printed closing balance that is this section's (null when none is printed). */
  printedClosing: Kobo | null;
  /** A first-page closing balance taken to cover more than this section. */
  widerClosing: Kobo | null;
}

/** What the statement prints about itself (totals, closing balance, counts) against the rows; null where it prints nothing. */
function checkPrintedFigures(printed: PrintedFigures, totals: RowTotals, opening: Kobo, lastBalance: Kobo, { notes, assumed }: Report): FigureChecks {
  let totalsMatch: boolean | null = null;
  if (printed.totalDebit !== null || printed.totalCredit !== null) {
    const abs = (k: Kobo) => (k < 0n ? -k : k);
    const debitOk = printed.totalDebit === null || abs(printed.totalDebit) === totals.debit;
    const creditOk =
      printed.totalCredit === null ||
      abs(printed.totalCredit) === totals.credit ||
      (printed.creditTotalMayIncludeOpening && abs(printed.totalCredit) === totals.credit + opening);
    totalsMatch = debitOk && creditOk;
    if (!debitOk) notes.push(`Printed total debit ${formatKobo(printed.totalDebit!)} differs from the rows' ${formatKobo(totals.debit)}.`);
    if (!creditOk) notes.push(`Printed total credit ${formatKobo(printed.totalCredit!)} differs from the rows' ${formatKobo(totals.credit)}.`);
  }
  let closingMatch: boolean | null = null;
  let printedClosing = printed.closing;
  let widerClosing: Kobo | null = null;
  if (printedClosing !== null && printedClosing !== lastBalance && printed.closingCandidates?.includes(lastBalance)) {
    // A first page may sum every pocket of the customer before the section's own summary: the
    // section's closing is the labelled figure its rows end on; the other is reported, not used.
    notes.push(`The closing balance printed first (${formatKobo(printedClosing)}) is not this section's; its own printed closing balance ${formatKobo(lastBalance)} agrees with the rows and was used.`);
    assumed.push(widerAssumption("closing", printedClosing));
    widerClosing = printedClosing;
    printedClosing = lastBalance;
  }
  if (printedClosing !== null) {
    closingMatch = printedClosing === lastBalance;
    if (!closingMatch) notes.push(`Printed closing balance ${formatKobo(printedClosing)} differs from the last row's ${formatKobo(lastBalance)}.`);
  }
  let countMatch: boolean | null = null;
  if (printed.debitCount !== null || printed.creditCount !== null) {
    countMatch = (printed.debitCount === null || printed.debitCount === totals.debits) && (printed.creditCount === null || printed.creditCount === totals.credits);
    if (!countMatch) notes.push(`Printed counts (${printed.debitCount ?? "-"} debits, ${printed.creditCount ?? "-"} credits) differ from the rows (${totals.debits}, ${totals.credits}).`);
  }
  return { totalsMatch, closingMatch, countMatch, printedClosing, widerClosing };
}

/** Number of rows whose printed balance does not follow from the previous one. */
function chainBreaks(rows: LedgerRow[], opening: Kobo | null): number {
  let breaks = 0;
  let prev = opening;
  for (const r of rows) {
    if (r.balance === null) continue;
    const sided = r.unsided === null ? r.credit - r.debit : null;
    if (prev !== null && sided !== null && prev + sided !== r.balance) breaks++;
    if (prev !== null && sided === null && r.unsided !== null && prev + r.unsided !== r.balance && prev - r.unsided !== r.balance) breaks++;
    prev = r.balance;
  }
  return breaks;
}

/** An unsigned amount is a credit when the balance rose by it and a debit when it fell by it. */
function settleUnsided(rows: LedgerRow[], opening: Kobo | null, notes: string[]): void {
  let prev = opening;
  let unresolved = 0;
  for (const r of rows) {
    if (r.unsided !== null) {
      const amt = r.unsided;
      const before = prev;
      if (before !== null && r.balance !== null && r.balance === before + amt) r.credit = amt;
      else if (before !== null && r.balance !== null && r.balance === before - amt) r.debit = amt;
      else {
        r.debit = amt;
        unresolved++;
      }
      r.unsided = null;
    }
    prev = r.balance ?? (prev === null ? null : prev + r.credit - r.debit);
  }
  if (unresolved > 0) notes.push(`${unresolved} unsigned amount(s) could not be placed from the balance movement and were read as debits.`);
}

/**
 * A first page may sum every pocket of the customer (opening and closing) before the section's own
 * summary. When the opening printed first does not lead into the first row and exactly one other
 * labelled opening does, that one is the section's; the first is reported and taken to be wider.
 */
function ownOpening<T extends LedgerRow>(rows: T[], printed: PrintedFigures, notes: string[], assumed: string[]): PrintedFigures & { widerOpening?: Kobo } {
  const head = rows[0];
  const first = printed.opening;
  if (!head || first === null || !printed.openingCandidates || head.balanceBefore != null) return printed;
  // Rows of the first timestamp may be printed out of balance order: any of them may be the first.
  const leading = rows.filter((r) => r.sortKey === head.sortKey);
  const opens = (k: Kobo) => leading.some((r) => linkOf(k, r) !== "break");
  if (opens(first)) return printed;
  const own = printed.openingCandidates.filter((k) => k !== first && opens(k));
  if (own.length !== 1) return printed;
  notes.push(`The opening balance printed first (${formatKobo(first)}) does not lead into the rows; the section's own printed opening balance ${formatKobo(own[0]!)} does and was used.`);
  assumed.push(widerAssumption("opening", first));
  return { ...printed, opening: own[0]!, widerOpening: first };
}
