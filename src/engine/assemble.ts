import { AppError, emptyStatement, layoutUnrecognized, scannedDocument } from "../errors.ts";
import { FORMAT_VERSION } from "../version.ts";
import type { BankProfile } from "./banks/profile.ts";
import { detectBank, profileById } from "./banks/detect.ts";
import { completePartialDate, dateSortKey, formatLagos, inferDayMonthOrder, type RawDate, resolveDate, scanDate, scanPartialDate } from "./dates.ts";
import { type Line, pageLines, sheetLines } from "./layout/lines.ts";
import { inferColumns } from "./layout/infer.ts";
import { stitchBrokenDates } from "./layout/stitch.ts";
import { CLOSING_LABEL, OPENING_LABEL, type RoleTexts, scanTable } from "./layout/rows.ts";
import { accountScrubber, extractHeaderFacts, maskAccountNumber, missingFactNotes } from "./metadata/index.ts";
import { absKobo, formatKobo, isEmptyAmount, type Kobo, parseAmount } from "./money.ts";
import { type LedgerRow, reconcile } from "./reconcile.ts";
import type { ExtractedDocument, ParseResponse, Transaction } from "./types.ts";

/** Statement facts are printed on the first pages (header, summary) or the last (totals). */
const METADATA_HEAD_PAGES = 3;
const METADATA_TAIL_PAGES = 2;

/** The lines searched for labelled facts: a long statement's middle pages hold only rows and footers. */
function metadataLines(outside: Line[]): Line[] {
  const lastPage = outside.reduce((m, l) => Math.max(m, l.page), 0);
  return outside.filter((l) => l.page <= METADATA_HEAD_PAGES || l.page > lastPage - METADATA_TAIL_PAGES);
}

const SUBTOTAL = /\btotals?\s+for\b|\bsub\s*-?\s*totals?\b|\bpage\s+totals?\b/i;

const TOTALS_ROW = /^\s*(?:grand\s+|sub\s*-?\s*)?totals?\b/i;

/** Lines of the whole document in reading order. */
export function documentLines(doc: ExtractedDocument): Line[] {
  if (doc.kind === "pdf") return doc.pages.flatMap(pageLines);
  return doc.sheets.flatMap((s, i) => sheetLines(s, i));
}

interface DraftTxn extends LedgerRow {
  raw: RawDate;
  narration: string;
  reference: string;
  currency: string;
}

/**
 * PURE: an extracted document to a ParseResponse. Throws layout_unrecognized when no transaction
 * table is found and empty_statement when the table has no rows, both with the marker coverage.
 */
export function assembleStatement(doc: ExtractedDocument, opts: { bank?: string } = {}): ParseResponse {
  // Also checked here for callers that extracted the pages themselves.
  if (doc.kind === "pdf" && doc.pages.length > 0 && doc.pages.every((p) => p.items.length === 0)) throw scannedDocument();
  return assembleLines(documentLines(doc), doc.producer, opts);
}

/**
 * PURE: assembleStatement over the document's lines already built (pageLines of each page, in
 * page order), so a large PDF's lines can be built in parallel, a page range per worker.
 */
export function assembleLines(pageLinesInOrder: Line[], producer: string, opts: { bank?: string } = {}): ParseResponse {
  const lines = stitchBrokenDates(pageLinesInOrder);
  let scan = scanTable(lines);
  let headerless = false;
  if (!scan.columns) {
    const inferred = inferColumns(lines);
    if (inferred) {
      scan = scanTable(lines, inferred);
      headerless = true;
    }
  }
  const outsideText = scan.outside.map((l) => l.text).join("\n");
  const detection = detectBank(`${outsideText}\n${scan.headerText}\n${producer}`);
  let profile: BankProfile | null = detection.profile;
  if (opts.bank) {
    const chosen = profileById(opts.bank);
    if (!chosen && opts.bank !== "unknown") throw new AppError("validation_error", 422, `Unknown bank "${opts.bank}"; see GET /v1/banks`);
    profile = chosen ?? null;
  }
  const coverage = detection.markerCoverage;
  const columns = scan.columns;
  if (!columns) throw layoutUnrecognized("No transaction table was found in the document", coverage);

  const firstRow = scan.rows[0];
  const facts = extractHeaderFacts(metadataLines(scan.outside), firstRow ? { page: firstRow.page, y: firstRow.y } : undefined);

  // Opening-balance and closing rows that carry a date are not transactions.
  let drafts = scan.rows;
  const openingRowBalances: Kobo[] = [];
  let closingRowBalance: Kobo | null = null;
  const amountless: string[] = [];
  drafts = drafts.filter((r, i) => {
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
  let tableOpening: Kobo | null = openingRowBalances[0] ?? null;
  let tableClosing: Kobo | null = closingRowBalance;
  let tableDebit: Kobo | null = null;
  let tableCredit: Kobo | null = null;
  const skipped: string[] = [];
  for (const a of scan.amountLines) {
    const bal = a.cells.balance ? parseAmount(a.cells.balance) : null;
    if (a.rowIndex === 0 || OPENING_LABEL.test(a.text)) {
      if (bal && tableOpening === null && a.rowIndex === 0) tableOpening = signedBalance(bal.kobo, bal.marker);
      continue;
    }
    // Mid-table amount lines are page carry-forwards (C/F, B/F), not the statement's figures; an
    // unlabelled one is reported, since it might be a row the layout could not date.
    if (a.rowIndex < scan.rows.length) {
      if (!OPENING_LABEL.test(a.text) && !CLOSING_LABEL.test(a.text)) skipped.push(a.text);
      continue;
    }
    if (bal) tableClosing = signedBalance(bal.kobo, bal.marker);
    // Subtotals of a month or a page are not the statement's totals.
    if (SUBTOTAL.test(a.text)) continue;
    const d = a.cells.debit ? parseAmount(a.cells.debit) : null;
    const c = a.cells.credit ? parseAmount(a.cells.credit) : null;
    if (d) tableDebit = absKobo(d.kobo);
    if (c) tableCredit = absKobo(c.kobo);
  }

  const currency = facts.currency ?? "NGN";
  const signed = drafts.some((r) => r.cells.amount && /^\s*[-(]|[-)]\s*$/.test(r.cells.amount));
  const build = (swapSides: boolean): DraftTxn[] => {
    const txns: DraftTxn[] = [];
    drafts.forEach((r, i) => {
      const raw = raws[i];
      if (!raw) return;
      const date = resolveDate(raw, order);
      const cells = swapSides ? { ...r.cells, debit: r.cells.credit, credit: r.cells.debit } : r.cells;
      const { debit, credit, unsided } = sides(cells, signed);
      const b = r.cells.balance && !isEmptyAmount(r.cells.balance) ? parseAmount(r.cells.balance) : null;
      txns.push({
        raw: date,
        sortKey: dateSortKey(date),
        debit,
        credit,
        unsided,
        balance: b ? signedBalance(b.kobo, b.marker) : null,
        narration: tidy(r.cells.narration ?? ""),
        reference: tidy(r.cells.reference ?? ""),
        currency: r.cells.currency?.trim() || currency,
      });
    });
    return txns;
  };
  const txns = build(false);
  if (txns.length === 0) throw emptyStatement("The statement table has no readable transactions", coverage);

  const printed = {
    opening: facts.opening ?? tableOpening,
    closing: facts.closing ?? tableClosing,
    totalDebit: facts.totalDebit ?? tableDebit,
    totalCredit: facts.totalCredit ?? tableCredit,
    debitCount: facts.debitCount,
    creditCount: facts.creditCount,
    creditTotalMayIncludeOpening: profile?.quirks.creditTotalIncludesOpening ?? facts.totalCredit === null,
  };
  let result = reconcile(txns, printed);
  if (headerless && columns.some((c) => c.role === "debit") && columns.some((c) => c.role === "credit")) {
    // Without headings, which amount column is the debit side is read off the balance movements.
    const swapped = reconcile(build(true), printed);
    if (breaks(swapped) < breaks(result)) result = swapped;
    result.checks.notes.push("The table has no column headings; debit and credit columns were told apart by the balance movements.");
  }

  if (amountless.length > 0) result.checks.notes.push(`Dated lines without any amount were not read as transactions: ${amountless.slice(0, 3).map((t) => JSON.stringify(t)).join(", ")}${amountless.length > 3 ? ", ..." : ""}.`);
  if (skipped.length > 0) result.checks.notes.push(`Undated lines with amounts between rows were not read as transactions: ${skipped.slice(0, 3).map((t) => JSON.stringify(t)).join(", ")}${skipped.length > 3 ? ", ..." : ""}.`);
  const strays = drafts.flatMap((r) => r.dropped);
  if (strays.length > 0) result.checks.notes.push(`Text that fit no column was left out: ${strays.slice(0, 5).map((t) => JSON.stringify(t)).join(", ")}${strays.length > 5 ? ", ..." : ""}.`);
  // Facts the statement does not print are left empty (metadata/index.ts), and said so.
  result.checks.notes.push(...missingFactNotes(facts.missing));
  const account = facts.accountNumber;
  if (scan.otherAccount && scan.otherAccount !== account) result.checks.notes.push(`A section for another account (${maskAccountNumber(scan.otherAccount)}) follows; only the first account's transactions were read.`);
  const scrub = accountScrubber(account);
  const transactions: Transaction[] = result.rows.map((r) => ({
    date: formatLagos(r.raw),
    narration: scrub(r.narration),
    debit: formatKobo(r.debit),
    credit: formatKobo(r.credit),
    balance: formatKobo(r.balance),
    reference: scrub(r.reference),
    currency: r.currency,
  }));
  const firstDate = result.rows[0]!.raw;
  const lastDate = result.rows[result.rows.length - 1]!.raw;
  const period = facts.period ? facts.period.map((d) => resolveDate(d, order)) : [firstDate, lastDate];
  return {
    format_version: FORMAT_VERSION,
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
    transactions,
    checks: result.checks,
  };
}

/**
 * The row's date: the date column with whatever continuation lines added to it (a year or a time
 * on the next line) and the time column, else the date cell of the row's own line.
 */
function rowDate(cells: RoleTexts, dateText: string): RawDate | null {
  // A date broken mid-number ("01/10/202" + "4", "03 Jan 20" + "24") joins its digits back.
  let date = cells.date;
  if (date && !scanDate(date)) {
    const glued = date.replace(/(\d)\s+(?=\d)/g, "$1");
    if (scanDate(glued)) date = glued;
  }
  // Halves of a date broken over two lines join without the line break ("03/01/" + "2024").
  const joined = [date, cells.time].filter(Boolean).join(" ").replace(/([-/.])\s+(?=\d)/g, "$1");
  return scanDate(joined) ?? scanDate(dateText + (cells.time ? ` ${cells.time}` : "")) ?? scanDate(dateText);
}

/** How badly a reading reconciles: chain break first, then disagreeing printed figures. */
function breaks(r: { checks: { row_chain: boolean; totals_match: boolean | null; closing_balance_match: boolean | null } }): number {
  return (r.checks.row_chain ? 0 : 4) + (r.checks.totals_match === false ? 2 : 0) + (r.checks.closing_balance_match === false ? 1 : 0);
}

const dayStart = (d: RawDate): RawDate => ({ ...d, hour: 0, minute: 0, second: 0 });

const tidy = (s: string) => s.replace(/\s+/g, " ").trim();

/** A balance marked DR is overdrawn (negative); CR or no marker keeps the printed sign. */
function signedBalance(kobo: Kobo, marker: "DR" | "CR" | null): Kobo {
  return marker === "DR" && kobo > 0n ? -kobo : kobo;
}

/** True when the row moves no money (both sides empty or zero). */
function sideless(cells: RoleTexts): boolean {
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
function sides(cells: RoleTexts, signedColumn: boolean): { debit: Kobo; credit: Kobo; unsided: Kobo | null } {
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
