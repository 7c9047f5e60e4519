import { emptyStatement } from "../../errors.ts";
import type { BankProfile } from "../banks/profile.ts";
import { completePartialDate, dateSortKey, formatLagos, inferDayMonthOrder, type RawDate, resolveDate, scanPartialDate } from "../dates.ts";
import { inferColumns } from "../layout/infer.ts";
import type { Line } from "../layout/lines.ts";
import { CLOSING_LABEL, OPENING_LABEL, scanTable, type TableScan } from "../layout/rows.ts";
import { accountScrubber, extractHeaderFacts, type HeaderFacts, maskAccountNumber, missingFactNotes } from "../metadata/index.ts";
import { absKobo, formatKobo, isEmptyAmount, type Kobo, parseAmount } from "../money.ts";
import { type LedgerRow, type PrintedFigures, reconcile } from "../reconcile.ts";
import type { AccountSection, Checks, Transaction } from "../types.ts";
import { settleVerdict } from "../verdict.ts";
import { squeezeSpaces } from "../whitespace.ts";
import { rowDate, sideless, sides, signedBalance } from "./cells.ts";

/** One account section's table as the layout stage read it. */
export interface SectionScan {
  scan: TableScan;
  /** The columns were read from the body: the table prints no headings. */
  headerless: boolean;
}

/** Statement facts are printed on the first pages (header, summary) or the last (totals). */
const METADATA_HEAD_PAGES = 3;
const METADATA_TAIL_PAGES = 2;

const SUBTOTAL = /\btotals?\s+for\b|\bsub\s*-?\s*totals?\b|\bpage\s+totals?\b/i;
/** A closing-balance or carried-forward label (not a totals line). */
const CARRIED = /closing\s*bal|bal(?:ance)?\.?\s*c\/?f|carried\s*f(?:or)?w(?:ar)?d|ending\s+balance|final\s+balance/i;
const TOTALS_ROW = /^\s*(?:grand\s+|sub\s*-?\s*)?totals?\b/i;

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

interface DraftTxn extends LedgerRow {
  raw: RawDate;
  narration: string;
  reference: string;
  currency: string;
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
  const { scan, headerless } = s;
  const columns = scan.columns!;
  const firstRow = scan.rows[0];
  const own = extractHeaderFacts(metadataLines(scan.outside), firstRow ? { page: firstRow.page, y: firstRow.y } : undefined);
  const facts: HeaderFacts = ctx.primary
    ? {
        ...own,
        accountNumber: own.accountNumber ?? ctx.primary.accountNumber,
        holder: own.holder ?? ctx.primary.holder,
        holderLabelled: own.holder ? own.holderLabelled : ctx.primary.holderLabelled,
        period: own.period ?? ctx.primary.period,
        currency: own.currency ?? ctx.primary.currency,
      }
    : own;
  const coverage = ctx.coverage;

  // Opening-balance and closing rows that carry a date are not transactions.
  const openingRowBalances: Kobo[] = [];
  let closingRowBalance: Kobo | null = null;
  const amountless: string[] = [];
  const drafts = scan.rows.filter((r, i) => {
    const text = `${r.cells.narration ?? ""} ${r.cells.reference ?? ""} ${r.cells.other ?? ""}`;
    // A dated line with no amount anywhere (a note inside the table) moves no money: reported, not a row.
    if (!r.cells.debit && !r.cells.credit && !r.cells.amount && !r.cells.balance) {
      amountless.push(`${r.dateText} ${text.trim()}`.trim());
      return false;
    }
    const noMovement = sideless(r.cells);
    if (noMovement && OPENING_LABEL.test(text)) {
      if (i === 0) {
        const b = r.cells.balance ? parseAmount(r.cells.balance) : null;
        if (b) openingRowBalances.push(signedBalance(b.kobo, b.marker));
      }
      return false;
    }
    if (noMovement && CLOSING_LABEL.test(text)) {
      const b = r.cells.balance ? parseAmount(r.cells.balance) : null;
      if (b && i === scan.rows.length - 1) closingRowBalance = signedBalance(b.kobo, b.marker);
      return false;
    }
    // A dated totals row ("31-Jan-2024 TOTAL 1,000.00 2,000.00") sums the rows; it is not one.
    return !(TOTALS_ROW.test(r.cells.narration ?? "") && !r.cells.balance);
  });
  if (drafts.length === 0) throw emptyStatement("The statement table has no transactions", coverage);

  // Day/month order from every date of the document: rows and the printed period.
  const raws = drafts.map((r) => rowDate(r.cells, r.dateText));
  const all: RawDate[] = raws.filter((d): d is RawDate => d !== null);
  if (facts.period) all.push(...facts.period);
  const order = inferDayMonthOrder(all);
  // Rows printed without a year ("02 Dec") take it from the statement period.
  const fallbackYear = all[0]?.year ?? new Date().getUTCFullYear();
  drafts.forEach((r, i) => {
    if (raws[i]) return;
    const partial = scanPartialDate(r.dateText);
    if (partial) raws[i] = completePartialDate(partial, facts.period ? [resolveDate(facts.period[0], order), resolveDate(facts.period[1], order)] : null, fallbackYear);
  });

  // Trailer and leader lines (undated, with amounts) carry the opening/closing balance and totals.
  // Only a labelled B/F or C/F figure is the table's own opening or closing (see preferTable).
  let tableOpening: Kobo | null = openingRowBalances[0] ?? null;
  let tableClosing: Kobo | null = closingRowBalance;
  let labelledOpening: Kobo | null = tableOpening;
  let labelledClosing: Kobo | null = tableClosing;
  let tableDebit: Kobo | null = null;
  let tableCredit: Kobo | null = null;
  const skipped: string[] = [];
  for (const a of scan.amountLines) {
    const bal = a.cells.balance ? parseAmount(a.cells.balance) : null;
    if (a.rowIndex === 0 || OPENING_LABEL.test(a.text)) {
      if (bal && tableOpening === null && a.rowIndex === 0) {
        tableOpening = signedBalance(bal.kobo, bal.marker);
        if (OPENING_LABEL.test(a.text)) labelledOpening = tableOpening;
      }
      continue;
    }
    // Mid-table amount lines are page carry-forwards (C/F, B/F), not the statement's figures; an
    // unlabelled one is reported, since it might be a row the layout could not date.
    if (a.rowIndex < scan.rows.length) {
      if (!OPENING_LABEL.test(a.text) && !CLOSING_LABEL.test(a.text)) skipped.push(a.text);
      continue;
    }
    if (bal) {
      tableClosing = signedBalance(bal.kobo, bal.marker);
      if (CARRIED.test(a.text)) labelledClosing = tableClosing;
    }
    // Subtotals of a month or a page are not the statement's totals.
    if (SUBTOTAL.test(a.text)) continue;
    const d = a.cells.debit ? parseAmount(a.cells.debit) : null;
    const c = a.cells.credit ? parseAmount(a.cells.credit) : null;
    if (d) tableDebit = absKobo(d.kobo);
    if (c) tableCredit = absKobo(c.kobo);
  }

  const currency = facts.currency ?? "NGN";
  const signed = drafts.some((r) => r.cells.amount && /^\s*[-(]|[-)]\s*$/.test(r.cells.amount));
  const money = (t: string | undefined) => (t && !isEmptyAmount(t) ? parseAmount(t) : null);
  const build = (swapSides: boolean): DraftTxn[] => {
    const txns: DraftTxn[] = [];
    drafts.forEach((r, i) => {
      const raw = raws[i];
      if (!raw) return;
      const date = resolveDate(raw, order);
      const cells = swapSides ? { ...r.cells, debit: r.cells.credit, credit: r.cells.debit } : r.cells;
      const { debit, credit, unsided } = sides(cells, signed);
      const b = money(r.cells.balance);
      const before = money(r.cells.balance_before);
      txns.push({
        raw: date,
        sortKey: dateSortKey(date),
        debit,
        credit,
        unsided,
        balance: b ? signedBalance(b.kobo, b.marker) : null,
        balanceBefore: before ? signedBalance(before.kobo, before.marker) : null,
        narration: squeezeSpaces(r.cells.narration ?? ""),
        reference: squeezeSpaces(r.cells.reference ?? ""),
        currency: r.cells.currency?.trim() || currency,
      });
    });
    return txns;
  };
  const txns = build(false);
  if (txns.length === 0) throw emptyStatement("The statement table has no readable transactions", coverage);

  const tableNotes: string[] = [];
  const printed: PrintedFigures = {
    opening: preferTable("opening", labelledOpening, facts.opening, tableNotes) ?? tableOpening,
    closing: preferTable("closing", labelledClosing, facts.closing, tableNotes) ?? tableClosing,
    totalDebit: facts.totalDebit ?? tableDebit,
    totalCredit: facts.totalCredit ?? tableCredit,
    debitCount: facts.debitCount,
    creditCount: facts.creditCount,
    creditTotalMayIncludeOpening: ctx.profile?.quirks.creditTotalIncludesOpening ?? facts.totalCredit === null,
    openingCandidates: facts.openingCandidates,
    closingCandidates: facts.closingCandidates,
  };
  let result = reconcile(txns, printed);
  if (headerless && columns.some((c) => c.role === "debit") && columns.some((c) => c.role === "credit")) {
    // Without headings, which amount column is the debit side is read off the balance movements.
    const swapped = reconcile(build(true), printed);
    if (breaks(swapped) < breaks(result)) result = swapped;
    result.checks.notes.push("The table has no column headings; debit and credit columns were told apart by the balance movements.");
  }
  const notes = result.checks.notes;
  notes.push(...tableNotes);
  if (amountless.length > 0) notes.push(`Dated lines without any amount were not read as transactions: ${listed(amountless, 3)}.`);
  if (skipped.length > 0) notes.push(`Undated lines with amounts between rows were not read as transactions: ${listed(skipped, 3)}.`);
  const strays = drafts.flatMap((r) => r.dropped);
  if (strays.length > 0) notes.push(`Text that fit no column was left out: ${listed(strays, 5)}.`);
  // Facts neither this section nor the first one prints are left empty (metadata/index.ts), and said so.
  const absent = { "account holder": !facts.holder, "account number": !facts.accountNumber, "statement period": !facts.period };
  notes.push(...missingFactNotes(facts.missing.filter((m) => absent[m])));
  const account = facts.accountNumber;
  if (scan.otherAccount && scan.otherAccount !== account) notes.push(`A section for another account (${maskAccountNumber(scan.otherAccount)}) follows; only the first account's transactions were read.`);
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
        bank: ctx.profile?.id ?? "unknown",
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
