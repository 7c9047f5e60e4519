import { emptyStatement } from "../../errors.ts";
import type { BankProfile } from "../banks/profile.ts";
import { formatLagos, inferDayMonthOrder, type RawDate, resolveDate } from "../dates.ts";
import { inferColumns } from "../layout/infer.ts";
import type { Line } from "../layout/lines.ts";
import { scanTable, type TableScan } from "../layout/rows.ts";
import { accountScrubber, extractHeaderFacts, type HeaderFacts, maskAccountNumber, missingFactNotes } from "../metadata/index.ts";
import { formatKobo, type Kobo } from "../money.ts";
import { type PrintedFigures, reconcile, type Reconciled } from "../reconcile.ts";
import type { AccountSection, Checks, Transaction } from "../types.ts";
import { settleVerdict } from "../verdict.ts";
import { type DraftTxn, draftTransactions, type KeptRows, keepTransactionRows, rowDates, signedAmountColumn } from "./ledger-rows.ts";
import { dateOrderNote, daysOutOfOrder, daysOutsidePeriod, outsidePeriodNote } from "./date-order.ts";
import { type TableFigures, tableFigures } from "./table-figures.ts";
import { withTimeColumn } from "./time-column.ts";

/** One account section's table as the layout stage read it. */
export interface SectionScan {
  scan: TableScan;
  /** The columns were read from the body: the table prints no headings. */
  headerless: boolean;
}

/** Statement facts are printed on the first pages (header, summary) or the last (totals). */
const METADATA_HEAD_PAGES = 3;
const METADATA_TAIL_PAGES = 2;

/** The lines searched for labelled facts: a long statement's middle pages hold only rows and footers. */
function metadataLines(outside: Line[]): Line[] {
  const firstPage = outside.reduce((m, l) => Math.min(m, l.page), Infinity);
  const lastPage = outside.reduce((m, l) => Math.max(m, l.page), 0);
  return outside.filter((l) => l.page < firstPage + METADATA_HEAD_PAGES || l.page > lastPage - METADATA_TAIL_PAGES);
}

/** The section's table: under its header, or with columns inferred from the body when it has none. */
export function scanSection(lines: Line[]): SectionScan {
  const scan = scanTable(lines, undefined, { oneAccount: true });
  if (scan.columns) return { scan, headerless: false };
  const inferred = inferColumns(lines);
  return inferred ? { scan: scanTable(lines, inferred, { oneAccount: true }), headerless: true } : { scan, headerless: false };
}

export interface SectionContext {
  profile: BankProfile | null;
  coverage: number;
  /** The first section's facts: a later section prints only its own account's (holder and period are the statement's). */
  primary?: HeaderFacts;
}

/** A section read as a statement of its own, with the facts its header printed. */
export interface ReadSection {
  section: AccountSection;
  facts: HeaderFacts;
}

/**
 * PURE: one section's table to its transactions, metadata, totals and checks. Throws
 * empty_statement when the table has no rows.
 */
export function readSection(s: SectionScan, ctx: SectionContext): ReadSection {
  const { scan } = s;
  const facts = sectionFacts(scan, ctx.primary);
  const kept = keepTransactionRows(withTimeColumn(scan.rows), ctx.coverage);
  const dates = rowDates(kept, facts.period);
  const figures = tableFigures(scan.amountLines, scan.rows.length, kept.openingRowBalances[0] ?? null, kept.closingRowBalance);
  const result = reconcileSection(s, kept, dates, figures, facts, ctx);
  sectionNotes(result.checks.notes, { scan, kept, figures, facts });
  const out = sectionOutput(result, facts, dates.order, ctx.profile);
  out.section.checks.notes.push(...dateNotes(out.section, facts.period !== null));
  return out;
}

/**
 * Notes on dates the chain cannot vouch for (sections/date-order.ts): out of the rows' order, or
 * outside the period the section prints (`periodPrinted`; otherwise its period is its rows' own).
 */
function dateNotes(section: AccountSection, periodPrinted: boolean): string[] {
  const dates = section.transactions.map((t) => t.date);
  const days = dates.map((d) => d.slice(0, 10));
  const [start, end] = [section.metadata.statement_period_start.slice(0, 10), section.metadata.statement_period_end.slice(0, 10)];
  const notes = [dateOrderNote(daysOutOfOrder(days), dates), periodPrinted ? outsidePeriodNote(daysOutsidePeriod(days, start, end), dates, start, end) : null];
  return notes.filter((n) => n !== null);
}

/** The facts the section's header prints, completed by the first section's where it prints none. */
function sectionFacts(scan: TableScan, primary: HeaderFacts | undefined): HeaderFacts {
  const firstRow = scan.rows[0];
  const own = extractHeaderFacts(metadataLines(scan.outside), firstRow ? { page: firstRow.page, y: firstRow.y } : undefined);
  if (!primary) return own;
  return {
    ...own,
    accountNumber: own.accountNumber ?? primary.accountNumber,
    holder: own.holder ?? primary.holder,
    holderLabelled: own.holder ? own.holderLabelled : primary.holderLabelled,
    period: own.period ?? primary.period,
    currency: own.currency ?? primary.currency,
  };
}

type Dates = ReturnType<typeof rowDates>;

/**
 * The ledger rows reconciled against the printed figures. A table without headings is read both
 * ways round (which amount column is the debit side) and the reading that reconciles better kept.
 */
function reconcileSection(s: SectionScan, kept: KeptRows, dates: Dates, figures: TableFigures, facts: HeaderFacts, ctx: SectionContext): Reconciled<DraftTxn> {
  const opts = { signed: signedAmountColumn(kept.drafts), currency: facts.currency ?? "NGN" };
  const txns = draftTransactions(kept, dates, { ...opts, swapSides: false });
  if (txns.length === 0) throw emptyStatement("The statement table has no readable transactions", ctx.coverage);
  const tableNotes: string[] = [];
  const printed: PrintedFigures = {
    opening: preferTable("opening", figures.labelledOpening, facts.opening, tableNotes) ?? figures.opening,
    closing: preferTable("closing", figures.labelledClosing, facts.closing, tableNotes) ?? figures.closing,
    totalDebit: facts.totalDebit ?? figures.debit,
    totalCredit: facts.totalCredit ?? figures.credit,
    debitCount: facts.debitCount,
    creditCount: facts.creditCount,
    creditTotalMayIncludeOpening: ctx.profile?.quirks.creditTotalIncludesOpening ?? facts.totalCredit === null,
    openingCandidates: facts.openingCandidates,
    closingCandidates: facts.closingCandidates,
  };
  let result = reconcile(txns, printed);
  const columns = s.scan.columns!;
  if (s.headerless && columns.some((c) => c.role === "debit") && columns.some((c) => c.role === "credit")) {
    // Without headings, which amount column is the debit side is read off the balance movements.
    const swapped = reconcile(draftTransactions(kept, dates, { ...opts, swapSides: true }), printed);
    if (breaks(swapped) < breaks(result)) result = swapped;
    result.checks.notes.push("The table has no column headings; debit and credit columns were told apart by the balance movements.");
  }
  result.checks.notes.push(...tableNotes);
  return result;
}

/** What was left out of the rows, and which facts the statement does not print, said in the notes. */
function sectionNotes(notes: string[], { scan, kept, figures, facts }: { scan: TableScan; kept: KeptRows; figures: TableFigures; facts: HeaderFacts }): void {
  if (kept.amountless.length > 0) notes.push(`Dated lines without any amount were not read as transactions: ${listed(kept.amountless, 3)}.`);
  if (kept.failed.length > 0) notes.push(`${kept.failed.length} row(s) marked as failed were not read as transactions: ${listed(kept.failed, 3)}.`);
  if (figures.skipped.length > 0) notes.push(`Undated lines with amounts between rows were not read as transactions: ${listed(figures.skipped, 3)}.`);
  const strays = kept.drafts.flatMap((r) => r.dropped);
  if (strays.length > 0) notes.push(`Text that fit no column was left out: ${listed(strays, 5)}.`);
  // Facts neither this section nor the first one prints are left empty (metadata/index.ts), and said so.
  const absent = { "account holder": !facts.holder, "account number": !facts.accountNumber, "statement period": !facts.period };
  notes.push(...missingFactNotes(facts.missing.filter((m) => absent[m])));
  if (scan.otherAccount && scan.otherAccount !== facts.accountNumber) notes.push(`A section for another account (${maskAccountNumber(scan.otherAccount)}) follows; only the first account's transactions were read.`);
}

/** The reconciled rows and the facts as the response's account section, the account number masked everywhere. */
function sectionOutput(result: Reconciled<DraftTxn>, facts: HeaderFacts, order: Dates["order"], profile: BankProfile | null): ReadSection {
  const account = facts.accountNumber;
  const scrub = accountScrubber(account);
  const transactions: Transaction[] = result.rows.map((r) => ({
    date: formatLagos(r.raw),
    narration: scrub(r.narration),
    debit: formatKobo(r.debit),
    credit: formatKobo(r.credit),
    balance: formatKobo(r.balance),
    reference: scrub(r.reference, "reference"),
    currency: r.currency,
  }));
  const firstDate = result.rows[0]!.raw;
  const lastDate = result.rows[result.rows.length - 1]!.raw;
  const period = facts.period ? facts.period.map((d) => resolveDate(d, order)) : [firstDate, lastDate];
  return {
    facts,
    section: {
      metadata: {
        bank: profile?.id ?? "unknown",
        account_holder: scrub(facts.holder ?? ""),
        account_number_masked: maskAccountNumber(account),
        statement_period_start: formatLagos(dayStart(period[0]!)),
        statement_period_end: formatLagos(dayStart(period[1]!)),
        opening_balance: formatKobo(result.opening),
        closing_balance: formatKobo(result.closing),
      },
      totals: { credit: formatKobo(result.totalCredit), debit: formatKobo(result.totalDebit) },
      row_wise_reconcilable: result.rowWiseReconcilable,
      checks: result.checks,
      transactions,
    },
  };
}

/**
 * A section whose table has no rows (a savings pocket never used in the period): its printed
 * figures, no transactions. Reconcilable only when its printed opening and closing agree.
 */
export function emptySection(s: SectionScan, ctx: SectionContext & { primary: HeaderFacts; primaryPeriod: [string, string] }): ReadSection {
  const own = extractHeaderFacts(metadataLines(s.scan.outside));
  const facts: HeaderFacts = { ...own, accountNumber: own.accountNumber ?? ctx.primary.accountNumber, holder: own.holder ?? ctx.primary.holder, period: own.period ?? ctx.primary.period };
  const opening = own.opening ?? own.closing ?? 0n;
  const closing = own.closing ?? opening;
  const checks: Checks = {
    row_chain: true,
    first_break_index: null,
    balances_derived: false,
    totals_match: own.totalDebit === null && own.totalCredit === null ? null : (own.totalDebit ?? 0n) === 0n && (own.totalCredit ?? 0n) === 0n,
    closing_balance_match: own.closing === null ? null : own.closing === opening,
    reversed: false,
    count_match: null,
    opening_balance_source: own.opening !== null ? "statement" : "assumed_zero",
    kobo_rounding_rows: [],
    notes: ["The section's table has no transactions."],
    assumed: own.opening === null && own.closing === null ? ["The section's balance 0.00 was assumed (it prints none)."] : [],
    verdict: "unverified",
  };
  const order = inferDayMonthOrder(facts.period ? [...facts.period] : []);
  const scrub = accountScrubber(facts.accountNumber);
  const out: ReadSection = {
    facts,
    section: {
      metadata: {
        bank: ctx.profile?.id ?? "unknown",
        account_holder: scrub(facts.holder ?? ""),
        account_number_masked: maskAccountNumber(facts.accountNumber),
        statement_period_start: facts.period ? formatLagos(dayStart(resolveDate(facts.period[0], order))) : ctx.primaryPeriod[0],
        statement_period_end: facts.period ? formatLagos(dayStart(resolveDate(facts.period[1], order))) : ctx.primaryPeriod[1],
        opening_balance: formatKobo(opening),
        closing_balance: formatKobo(closing),
      },
      totals: { credit: "0.00", debit: "0.00" },
      row_wise_reconcilable: opening === closing && checks.totals_match !== false,
      checks,
      transactions: [],
    },
  };
  settleVerdict(out.section);
  return out;
}

/**
 * The table's own B/F or C/F row is the ledger's figure; a header label may round it or belong
 * to another date. Both printed and different: the table's wins, and a note says so.
 */
function preferTable(what: "opening" | "closing", table: Kobo | null, header: Kobo | null, notes: string[]): Kobo | null {
  if (table !== null && header !== null && table !== header) {
    notes.push(`The table's own ${what} balance ${formatKobo(table)} differs from the ${what} balance printed in the header ${formatKobo(header)}; the table's was used.`);
  }
  return table ?? header;
}

/**
 * How badly a reading reconciles: chain break first, then disagreeing printed figures; a reading
 * that needed rows moved to the other side to chain loses a tie to one that chains as read.
 */
function breaks(r: { sidesFromChain: number[]; checks: { row_chain: boolean; totals_match: boolean | null; closing_balance_match: boolean | null } }): number {
  return (r.checks.row_chain ? 0 : 4) + (r.checks.totals_match === false ? 2 : 0) + (r.checks.closing_balance_match === false ? 1 : 0) + (r.sidesFromChain.length > 0 ? 0.5 : 0);
}

const listed = (items: string[], n: number) => `${items.slice(0, n).map((t) => JSON.stringify(t)).join(", ")}${items.length > n ? ", ..." : ""}`;

const dayStart = (d: RawDate): RawDate => ({ ...d, hour: 0, minute: 0, second: 0 });
