/**
 * PURE: a scanned document's OCR'd pages, merged in page order with its pages that kept the text
 * path (a mixed document), to a ParseResponse through the same layout and assembly as a text PDF,
 * with the balance chain deciding what is trusted (repair.ts), each OCR'd row's confidence, and
 * `checks.ocr`. A reading too unsure to hand out is refused with scanned_document, saying what was
 * tried: the chain threshold counts only the links that touch a row OCR read, and an OCR'd page
 * that shows table lines but gave no row refuses the document (its rows would be missing).
 */
import { assembleStatement } from "../assemble.ts";
import { AppError, scannedDocument } from "../../errors.ts";
import { formatKobo, groupThousands, type Kobo } from "../money.ts";
import type { AccountSection, OcrRepair, PageText, ParseResponse } from "../types.ts";
import { assume, settleVerdict } from "../verdict.ts";
import { normalizePages, type Rewrite } from "./normalize.ts";
import { ocrPageText, type OcrPage } from "./page-text.ts";
import { type ChainRepair, chainRepairs, chainShare, rowChains } from "./repair.ts";
import { settleRowDates } from "./row-dates.ts";
import { lineOf, type OcrLine, ocrLines, rowAmount, rowLine, wordKobo } from "./row-lines.ts";
import { meanConfidence } from "./words.ts";

export interface OcrReadOptions {
  producer: string;
  bank?: string;
  pageCount: number;
  /** Refuse below this mean word confidence (0..100). */
  minConfidence?: number;
  /** Refuse when fewer than this share of the links touching an OCR'd row hold after repairs. */
  minChainShare?: number;
  /** Pages that kept the text path, merged with the OCR'd pages in page order. */
  textPages?: readonly PageText[];
}

export const DEFAULT_MIN_CONFIDENCE = 60;
/** Any break refuses: a break is a misread figure or a lost row, and every number must be exact or the statement refused. */
export const DEFAULT_MIN_CHAIN_SHARE = 1;

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Pages with fewer words are not judged on their own confidence (a signature, a page number). */
const MIN_WORDS_JUDGED = 20;

export function readOcrStatement(pages: readonly OcrPage[], opts: OcrReadOptions): ParseResponse {
  const confidence = round1(meanConfidence(pages.flatMap((p) => p.words)));
  const textPages = opts.textPages ?? [];
  const which = textPages.length === 0 ? "" : ` (${pageList(pages.map((p) => p.number))} of ${opts.pageCount}; the other pages were read as text)`;
  const tried = `OCR read ${pages.length} page(s) at a mean word confidence of ${confidence}%${which}`;
  const min = opts.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  if (confidence < min) {
    throw scannedDocument(`The PDF has no usable text layer. ${tried}, below the ${min}% needed to trust its figures; send a clearer scan or the bank's own export`);
  }
  for (const p of pages) {
    const own = round1(meanConfidence(p.words));
    if (p.words.length >= MIN_WORDS_JUDGED && own < min) {
      throw scannedDocument(`The PDF has no usable text layer. ${tried}; page ${p.number} alone was read at ${own}%, below the ${min}% needed to trust its figures`);
    }
  }
  const { pages: normalized, rewrites } = normalizePages(pages);
  const first = assemble(normalized, opts, tried);
  const firstText = textRows(first, textPages);
  // A row read as text is exact: only rows OCR read are repaired.
  const repairs = first.accounts.map((s, i) => chainRepairs(s).filter((r) => !firstText[i]![r.row]));
  let final = first;
  let used = normalized;
  let applied: ChainRepair[][] = first.accounts.map(() => []);
  if (repairs.some((r) => r.length > 0)) {
    const rewritten = rewriteRepairs(normalized, first, repairs);
    const again = rewritten && assembleOrNull(rewritten.pages, opts);
    // Kept only if every repaired row and the row after it now chain, and no total disagrees that did not before.
    if (rewritten && again && confirmed(first, again, rewritten.applied)) {
      final = again;
      used = rewritten.pages;
      applied = rewritten.applied;
    }
  }
  const lines = ocrLines(used);
  const read = { pages, textPages: textPages.map((p) => p.number), confidence };
  const text = textRows(final, textPages);
  const found = final.accounts.map((s, i) => annotate(s, lines, applied[i]!, rewrites, read, text[i]!));
  // The top level repeats the first section; its flag is a copy, so it follows the section's.
  final.row_wise_reconcilable = final.accounts[0]!.row_wise_reconcilable;
  refuseMissingPages(used, lines, found.flat(), tried);
  refuseIfBroken(final, opts, tried, text, textPages.length > 0);
  return final;
}

const pageList = (n: readonly number[]) => (n.length === 1 ? `page ${n[0]}` : `pages ${n.join(", ")}`);

/**
 * Per section, which rows were read from a text page: both the row's balance and its amount are
 * figures of one text page (text rows are exact; OCR'd rows are the ones the chain must judge).
 */
function textRows(r: ParseResponse, textPages: readonly PageText[]): boolean[][] {
  if (textPages.length === 0) return r.accounts.map((s) => s.transactions.map(() => false));
  const figures = textPages.map((p) => new Set(p.items.map((i) => wordKobo(i.str)).filter((v) => v !== null)));
  return r.accounts.map((s) =>
    s.transactions.map((t) => {
      const balance = wordKobo(t.balance);
      const amount = rowAmount(t);
      return balance !== null && figures.some((f) => f.has(balance) && (amount === null || f.has(amount)));
    }),
  );
}

/** A line of an OCR'd page with two figures or more (a table row's amount and balance). */
const FIGURE = /\d[.,:]\d\d(?:\b|$)/;
const tableLine = (l: OcrLine) => l.words.filter((w) => FIGURE.test(w.text)).length >= 2;
/** Table lines an OCR'd page must show before its giving no row means rows are missing. */
const MIN_TABLE_LINES = 2;

/**
 * An OCR'd page that shows table lines but on which no row's figures were found lost its rows to
 * the reading (a table OCR could not line up): refused, never a statement with a page missing.
 */
function refuseMissingPages(pages: readonly OcrPage[], lines: readonly OcrLine[], found: readonly OcrLine[], tried: string): void {
  const withRows = new Set(found.map((l) => l.words[0]!.page));
  for (const p of pages) {
    if (withRows.has(p.number)) continue;
    const table = lines.filter((l) => l.words[0]!.page === p.number && tableLine(l)).length;
    if (table >= MIN_TABLE_LINES) {
      throw scannedDocument(`The PDF has no usable text layer on some pages. ${tried}; page ${p.number} shows ${table} lines of figures but none of them was read as a statement row`);
    }
  }
}

/** The OCR'd pages as text pages, with the pages that kept the text path, in page order. */
function merged(pages: readonly OcrPage[], opts: OcrReadOptions): PageText[] {
  return [...pages.map(ocrPageText), ...(opts.textPages ?? [])].sort((a, b) => a.number - b.number);
}

function assemble(pages: readonly OcrPage[], opts: OcrReadOptions, tried: string): ParseResponse {
  try {
    return assembleStatement({ kind: "pdf", pageCount: opts.pageCount, producer: opts.producer, pages: merged(pages, opts) }, { bank: opts.bank });
  } catch (e) {
    if (e instanceof AppError && (e.errorClass === "layout_unrecognized" || e.errorClass === "empty_statement" || e.errorClass === "scanned_document")) {
      throw scannedDocument(`The PDF has no usable text layer. ${tried}, but no statement table was found in what it read`);
    }
    throw e;
  }
}

function assembleOrNull(pages: readonly OcrPage[], opts: OcrReadOptions): ParseResponse | null {
  try {
    return assembleStatement({ kind: "pdf", pageCount: opts.pageCount, producer: opts.producer, pages: merged(pages, opts) }, { bank: opts.bank });
  } catch {
    return null;
  }
}

/** The printed words of the repairs rewritten with the values the chain asks for; null when a repair's word cannot be found exactly once. */
function rewriteRepairs(pages: readonly OcrPage[], response: ParseResponse, repairs: ChainRepair[][]): { pages: OcrPage[]; applied: ChainRepair[][] } | null {
  const lines = ocrLines(pages);
  const out = pages.map((p) => ({ ...p, words: [...p.words] }));
  const applied: ChainRepair[][] = repairs.map(() => []);
  repairs.forEach((list, s) => {
    for (const r of list) {
      const t = response.accounts[s]!.transactions[r.row]!;
      const amount = rowAmount(t);
      if (amount === null) continue;
      const balance = wordKobo(t.balance)!;
      const line = r.field === "balance" ? lineOf(lines, r.printed < 0n ? -r.printed : r.printed, amount) : lineOf(lines, balance, r.printed);
      const target = line && onlyWord(line, r.printed < 0n ? -r.printed : r.printed, r.field === "balance" ? amount : balance);
      if (!target) continue;
      const page = out.find((p) => p.number === target.page)!;
      const word = page.words[target.word]!;
      page.words[target.word] = { ...word, text: word.text.replace(/\d[\d,.:]*\d|\d/, groupThousands(formatKobo(r.used < 0n ? -r.used : r.used))) };
      applied[s]!.push(r);
    }
  });
  return applied.some((a) => a.length > 0) ? { pages: out, applied } : null;
}

/** The one word of the line reading `value`; null when the line's other figure reads the same (which one was misread is then unknown). */
function onlyWord(line: OcrLine, value: Kobo, other: Kobo): OcrLine["words"][number] | null {
  const hits = line.words.filter((w) => wordKobo(w.text) === value);
  return hits.length === 1 && value !== other ? hits[0]! : null;
}

function confirmed(before: ParseResponse, after: ParseResponse, applied: ChainRepair[][]): boolean {
  if (after.accounts.length !== before.accounts.length) return false;
  return after.accounts.every((s, i) => {
    const b = before.accounts[i]!;
    if (s.transactions.length !== b.transactions.length) return false;
    if (s.checks.totals_match === false && b.checks.totals_match !== false) return false;
    const share = chainShare(s);
    const old = chainShare(b);
    return share.holding - old.holding >= applied[i]!.length;
  });
}

interface ReadFacts {
  pages: readonly OcrPage[];
  /** Pages kept on the text path. */
  textPages: number[];
  confidence: number;
}

/** Confidence, repairs, dates and `checks.ocr` of one section; returns the OCR lines its rows were found on. */
function annotate(s: AccountSection, lines: readonly OcrLine[], applied: ChainRepair[], rewrites: readonly Rewrite[], read: ReadFacts, text: readonly boolean[]): OcrLine[] {
  const repaired: OcrRepair[] = applied.map((r) => ({
    row: r.row,
    field: r.field,
    printed: formatKobo(r.printed),
    used: formatKobo(r.used),
    reason: r.confusion,
  }));
  // A row read from a text page has no OCR line (a coincidence of figures must not give it one).
  const rowLines = s.transactions.map((t, i) => (text[i] ? null : rowLine(lines, t)));
  s.transactions.forEach((t, i) => {
    const line = rowLines[i];
    if (!line) return;
    t.ocr_confidence = round1(meanConfidence(line.words));
    for (const w of rewrites) {
      if (line.words.some((x) => x.page === w.page && x.word === w.word)) {
        repaired.push({ row: i, field: "figure", printed: w.printed, used: w.used, reason: w.reason });
      }
    }
  });
  const dates = settleRowDates(s.transactions, rowLines);
  repaired.push(...dates.repairs);
  repaired.sort((a, b) => a.row - b.row);
  const readPages = read.pages.map((p) => ({ page: p.number, mean_confidence: round1(meanConfidence(p.words)) }));
  s.checks.ocr = {
    pages: read.pages.length,
    mean_confidence: read.confidence,
    read_pages: readPages,
    text_pages: read.textPages,
    repaired_rows: repaired,
    dates_unconfirmed: dates.unconfirmed,
  };
  for (const i of dates.unconfirmed) {
    // A date printed on the row's line contradicts the one it has: not reconcilable (issue 24 class 8).
    s.checks.notes.push(`Row ${i + 1}: its date ${s.transactions[i]!.date.slice(0, 10)} is not among the dates OCR read on its line, and none of them can stand in for it.`);
    s.row_wise_reconcilable = false;
  }
  const also = read.textPages.length === 0 ? "" : `; ${pageList(read.textPages)} read as text`;
  s.checks.notes.push(`Read by OCR: ${pageList(readPages.map((p) => p.page))} (${read.pages.length} page(s)), mean word confidence ${read.confidence}%${also}.`);
  for (const r of repaired) {
    // A rewritten word (field "figure") is confirmed only when the row chains on both sides with it;
    // otherwise its row stays a break and the note says so.
    const confirmedBy =
      r.field === "date" ? "the statement's date columns agree on every other row" : r.field !== "figure" || rowChains(s, r.row) ? "confirmed by the balance chain" : "NOT confirmed: the row does not chain with it";
    const note = `Row ${r.row + 1}: OCR read ${r.field} "${r.printed}", ${r.used} used (${r.reason.replaceAll("_", " ")}; ${confirmedBy})`;
    s.checks.notes.push(`${note}.`);
    assume(s.checks, note);
  }
  settleVerdict(s);
  return rowLines.filter((l) => l !== null);
}

/**
 * Too few links hold to hand the reading out, or nothing can check it (no balance column read and
 * no totals that agree): refused. Only links touching a row OCR read count (a row read from a text
 * page, and the link between two of them, are exact and would dilute a broken OCR'd page).
 */
function refuseIfBroken(r: ParseResponse, opts: OcrReadOptions, tried: string, text: readonly (readonly boolean[])[], hasTextPages: boolean): void {
  const min = opts.minChainShare ?? DEFAULT_MIN_CHAIN_SHARE;
  let holding = 0;
  let checked = 0;
  r.accounts.forEach((s, k) => {
    const isText = text[k]!;
    // Rows whose balance OCR read on their figure line (annotate gave them a confidence) or that were
    // read as text; a balance OCR missed on a few rows is derived by the engine and still checked by
    // the next row's link.
    const printedBalances = s.transactions.filter((t, i) => t.ocr_confidence !== undefined || isText[i]).length;
    if (s.checks.balances_derived && printedBalances < s.transactions.length / 2) {
      if (s.checks.totals_match === true) return;
      throw scannedDocument(`The PDF has no usable text layer. ${tried}; the statement prints no balances and no totals that agree, so nothing can confirm the figures read`);
    }
    const share = chainShare(s, (i) => !isText[i] || (i > 0 && !isText[i - 1]));
    holding += share.holding;
    checked += share.checked;
  });
  // Every row was read from a text page: a scanned letter or signature page beside a text statement,
  // or a scanned page of rows OCR could not read at all. Only the printed closing balance met by the
  // last row (and every row chaining) tells the first from the second: nothing can be missing.
  const complete = r.accounts.every((s) => s.checks.row_chain && s.checks.closing_balance_match === true);
  if (checked === 0 && hasTextPages && complete) return;
  if (checked === 0 || holding / checked < min) {
    throw scannedDocument(`The PDF has no usable text layer. ${tried}; only ${holding} of ${checked} rows read by OCR chain with their balances (at least ${Math.round(min * 100)}% are needed)`);
  }
}
