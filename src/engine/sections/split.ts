import { KOBO_TOLERANCE } from "../chain/link.ts";
import { extractHeaderFacts, type HeaderFacts, labelledAccountNumber } from "../metadata/index.ts";
import { type Kobo, parseAmount } from "../money.ts";
import type { Cell } from "../layout/cells.ts";
import { type Column, type ColumnRole, DATE_ROLES, headerAt } from "../layout/header.ts";
import type { Line } from "../layout/lines.ts";
import { CLOSING_LABEL, OPENING_LABEL } from "../layout/rows.ts";

/**
 * Digital banks export every account of a customer in one file: a wallet, then a savings pocket,
 * each with its own heading, summary box and table. A table header starts a new section when the
 * lines between the previous table's last row and it carry an account number not seen before, or
 * a summary box of their own (two or more of opening, closing, totals, counts) that is not the
 * previous section's repeated on a new page. Each section is then read as a statement of its own,
 * since one balance chain through two ledgers breaks both.
 */

/** A line below the last row within this many glyph heights continues it (a wrapped narration). */
const CONTINUATION_GAP = 2.6;
/** Closing and totals lines within this many glyph heights under the last row end its table. */
const TRAILER_GAP = 6;

/** Lines of the document split into account sections, in print order (one section when there is no split). */
export function splitSections(lines: Line[]): Line[][] {
  const headers: { start: number; end: number; columns: Column[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const h = headerAt(lines, i);
    if (!h) continue;
    headers.push({ start: i, end: i + h.lineCount, columns: h.columns });
    i += h.lineCount - 1;
  }
  if (headers.length === 0) return [lines];
  const starts = [0];
  let current = extractHeaderFacts(lines.slice(0, headers[0]!.start));
  // A page letterhead may repeat the first account's number above a later section's pages.
  const seen = new Set<string>(current.accountNumber ? [current.accountNumber] : []);
  for (let k = 1; k < headers.length; k++) {
    const prev = headers[k - 1]!;
    const cur = headers[k]!;
    let lastRow = prev.end - 1;
    for (let j = cur.start - 1; j >= prev.end; j--) {
      if (isRowLine(lines[j]!, prev.columns)) {
        lastRow = j;
        break;
      }
    }
    const headStart = afterTrailer(lines, lastRow, cur.start);
    if (headStart >= cur.start) continue;
    const head = lines.slice(headStart, cur.start);
    const facts = extractHeaderFacts(head);
    // Only a labelled number opens another account's section: a notice between tables states
    // numbers in words ("… to our collection account 9876543210").
    const number = facts.accountNumberLabelled ? facts.accountNumber : null;
    const otherNumber = number !== null && current.accountNumber !== null && !seen.has(number);
    const summary = figureCount(facts) + blankBalances(head) >= 2;
    // A letterhead and summary repeated on every page repeats the same figures.
    const repeated = sameFigures(facts, current);
    // The chain vetoes a summary-only split: a table whose first row follows from the last row
    // above continues the same ledger (a page header that prints page figures).
    if (!otherNumber && !(summary && !repeated && sameOrNoNumber(facts, current) && !continuesChain(lines[lastRow], firstRowAfter(lines, cur.end, cur.columns)))) continue;
    starts.push(headStart);
    if (number) seen.add(number);
    current = { ...facts, accountNumber: facts.accountNumber ?? current.accountNumber };
  }
  // A last section with a summary box but no table (a savings pocket with "No records"): a
  // titled block after the last table whose figures say nothing moved. A summary of the account
  // above printed after its table (opening, closing, totals of its rows) shows movement.
  const last = headers[headers.length - 1]!;
  let lastRow = last.end - 1;
  for (let j = lines.length - 1; j >= last.end; j--) {
    if (isRowLine(lines[j]!, last.columns)) {
      lastRow = j;
      break;
    }
  }
  const tailStart = afterTrailer(lines, lastRow, lines.length);
  const tail = lines.slice(tailStart);
  const facts = extractHeaderFacts(tail);
  const titled = tail.slice(0, 3).some((l) => l.cells.every((c) => c.kind === "text") && SECTION_TITLE.test(l.text));
  if (titled && figureCount(facts) >= 2 && idle(facts) && !sameFigures(facts, current) && (facts.accountNumber === null || facts.accountNumber === current.accountNumber || !seen.has(facts.accountNumber))) {
    starts.push(tailStart);
  }
  return starts.map((s, k) => lines.slice(s, starts[k + 1] ?? lines.length));
}

/**
 * Opening and closing balances a summary box prints as an empty mark ("N--" under "Opening
 * Balance"): an account with nothing to show, whose box still opens a section of its own.
 */
function blankBalances(head: Line[]): number {
  let n = 0;
  head.forEach((l, k) => {
    const values = head[k + 1];
    if (!values || values.page !== l.page) return;
    for (const label of l.cells) {
      if (label.kind !== "text" || !(OPENING_LABEL.test(label.text) || CLOSING_LABEL.test(label.text))) continue;
      if (values.cells.some((c) => c.kind === "empty" && Math.min(c.x1, label.x1) - Math.max(c.x0, label.x0) > 0)) n++;
    }
  });
  return n;
}

/** The title of an account section ("Savings Account", "Wallet"). */
const SECTION_TITLE = /\b(?:account|savings|wallet|pocket)\b/i;

/** A summary box of an account with no transactions: zero totals and counts, opening equal to closing. */
const idle = (f: HeaderFacts) =>
  (f.totalDebit ?? 0n) === 0n && (f.totalCredit ?? 0n) === 0n && (f.debitCount ?? 0) === 0 && (f.creditCount ?? 0) === 0 && (f.opening === null || f.closing === null || f.opening === f.closing);

const figureCount = (f: HeaderFacts) => [f.opening, f.closing, f.totalDebit, f.totalCredit, f.debitCount, f.creditCount].filter((v) => v !== null).length;

const sameFigures = (a: HeaderFacts, b: HeaderFacts) =>
  a.opening === b.opening && a.closing === b.closing && a.totalDebit === b.totalDebit && a.totalCredit === b.totalCredit && a.debitCount === b.debitCount && a.creditCount === b.creditCount;

const sameOrNoNumber = (a: HeaderFacts, b: HeaderFacts) => a.accountNumber === null || b.accountNumber === null || a.accountNumber === b.accountNumber;

/** The first row line from index `from` on, before the next header. */
function firstRowAfter(lines: Line[], from: number, columns: Column[]): Line | undefined {
  for (let j = from; j < lines.length; j++) {
    if (isRowLine(lines[j]!, columns)) return lines[j];
    if (headerAt(lines, j)) return undefined;
  }
  return undefined;
}

/**
 * Whether `next` (a row line) follows from `above`'s balance: one of next's amounts moves the
 * balance printed last on `above` to the one printed last on `next` (within the 1-kobo rule).
 * Lines whose amounts cannot be read that way say nothing (false).
 */
function continuesChain(above: Line | undefined, next: Line | undefined): boolean {
  const amounts = (l: Line | undefined) => (l ? l.cells.filter((c) => c.kind === "money").map((c) => parseAmount(c.text)).filter((a) => a !== null).map((a) => a.kobo) : []);
  const a = amounts(above);
  const b = amounts(next);
  if (a.length === 0 || b.length < 2) return false;
  const prev = a[a.length - 1]!;
  const bal = b[b.length - 1]!;
  const near = (x: Kobo) => x - bal <= KOBO_TOLERANCE && bal - x <= KOBO_TOLERANCE;
  return b.slice(0, -1).some((m) => m !== 0n && (near(prev + m) || near(prev - m)));
}

/**
 * A table row's first line: a date under one of the table's date headings and an amount on one
 * line. A summary box's values line ("N182.40  N56,005.21  11 Jun 2025  08 May 2025") prints
 * dates and amounts too, but under its own labels, not the table's date columns.
 */
function isRowLine(line: Line, columns: Column[]): boolean {
  const dateColumns = columns.filter((c) => DATE_ROLES.has(c.role));
  const underDate = (c: Cell) => dateColumns.length === 0 || dateColumns.some((d) => Math.min(d.x1, c.x1) - Math.max(d.x0, c.x0) > 0);
  return line.cells.some((c) => c.kind === "date" && underDate(c)) && line.cells.some((c) => c.kind === "money");
}


/**
 * First line after the last row that is not the end of the table: a wrapped narration right under
 * the row, or a closing/totals line close under it, still belong to the section above.
 */
function afterTrailer(lines: Line[], lastRow: number, end: number): number {
  let j = lastRow + 1;
  let above = lines[lastRow];
  while (j < end && above) {
    const l = lines[j]!;
    if (l.page !== above.page) break;
    const gap = l.y - above.y;
    const opensAccount = OPENING_LABEL.test(l.text) || labelledAccountNumber([l]) !== null;
    const continuation = gap <= CONTINUATION_GAP * l.h && !opensAccount && !l.cells.some((c) => c.kind === "date");
    const trailer = gap <= TRAILER_GAP * l.h && CLOSING_LABEL.test(l.text) && !opensAccount;
    if (!continuation && !trailer) break;
    above = l;
    j++;
  }
  return j;
}
