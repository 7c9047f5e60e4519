/**
 * PURE: a scanned document's OCR'd pages to a ParseResponse, through the same layout and assembly
 * as a text PDF, with the balance chain deciding what is trusted (repair.ts), each row's OCR
 * confidence, and `checks.ocr`. A reading too unsure to hand out is refused with scanned_document,
 * saying what was tried.
 */
import { assembleStatement } from "../assemble.ts";
import { AppError, scannedDocument } from "../../errors.ts";
import { formatKobo, groupThousands, type Kobo } from "../money.ts";
import type { AccountSection, OcrRepair, ParseResponse } from "../types.ts";
import { assume, settleVerdict } from "../verdict.ts";
import { normalizePages, type Rewrite } from "./normalize.ts";
import { ocrPageText, type OcrPage } from "./page-text.ts";
import { type ChainRepair, chainRepairs, chainShare } from "./repair.ts";
import { settleRowDates } from "./row-dates.ts";
import { lineOf, type OcrLine, ocrLines, rowAmount, rowLine, wordKobo } from "./row-lines.ts";
import { meanConfidence } from "./words.ts";

export interface OcrReadOptions {
  producer: string;
  bank?: string;
  pageCount: number;
  /** Refuse below this mean word confidence (0..100). */
  minConfidence?: number;
  /** Refuse when fewer than this share of the rows' links hold after repairs. */
  minChainShare?: number;
}

export const DEFAULT_MIN_CONFIDENCE = 60;
export const DEFAULT_MIN_CHAIN_SHARE = 0.9;

const round1 = (x: number) => Math.round(x * 10) / 10;

export function readOcrStatement(pages: readonly OcrPage[], opts: OcrReadOptions): ParseResponse {
  const confidence = round1(meanConfidence(pages.flatMap((p) => p.words)));
  const tried = `OCR read ${pages.length} page(s) at a mean word confidence of ${confidence}%`;
  if (confidence < (opts.minConfidence ?? DEFAULT_MIN_CONFIDENCE)) {
    throw scannedDocument(`The PDF has no usable text layer. ${tried}, below the ${opts.minConfidence ?? DEFAULT_MIN_CONFIDENCE}% needed to trust its figures; send a clearer scan or the bank's own export`);
  }
  const { pages: normalized, rewrites } = normalizePages(pages);
  const first = assemble(normalized, opts, tried);
  const repairs = first.accounts.map(chainRepairs);
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
  final.accounts.forEach((s, i) => annotate(s, lines, applied[i]!, rewrites, pages.length, confidence));
  // The top level repeats the first section; its flag is a copy, so it follows the section's.
  final.row_wise_reconcilable = final.accounts[0]!.row_wise_reconcilable;
  refuseIfBroken(final, opts, tried);
  return final;
}

function assemble(pages: readonly OcrPage[], opts: OcrReadOptions, tried: string): ParseResponse {
  try {
    return assembleStatement({ kind: "pdf", pageCount: opts.pageCount, producer: opts.producer, pages: pages.map(ocrPageText) }, { bank: opts.bank });
  } catch (e) {
    if (e instanceof AppError && (e.errorClass === "layout_unrecognized" || e.errorClass === "empty_statement" || e.errorClass === "scanned_document")) {
      throw scannedDocument(`The PDF has no usable text layer. ${tried}, but no statement table was found in what it read`);
    }
    throw e;
  }
}

function assembleOrNull(pages: readonly OcrPage[], opts: OcrReadOptions): ParseResponse | null {
  try {
    return assembleStatement({ kind: "pdf", pageCount: opts.pageCount, producer: opts.producer, pages: pages.map(ocrPageText) }, { bank: opts.bank });
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

function annotate(s: AccountSection, lines: readonly OcrLine[], applied: ChainRepair[], rewrites: readonly Rewrite[], pages: number, confidence: number): void {
  const repaired: OcrRepair[] = applied.map((r) => ({
    row: r.row,
    field: r.field,
    printed: formatKobo(r.printed),
    used: formatKobo(r.used),
    reason: r.confusion,
  }));
  const rowLines = s.transactions.map((t) => rowLine(lines, t));
  s.transactions.forEach((t, i) => {
    const line = rowLines[i];
    if (!line) return;
    t.ocr_confidence = round1(meanConfidence(line.words));
    for (const w of rewrites) {
      if (line.words.some((x) => x.page === w.page && x.word === w.word)) {
        repaired.push({ row: i, field: "figure", printed: w.printed, used: w.used, reason: "separator_misread" });
      }
    }
  });
  const dates = settleRowDates(s.transactions, rowLines);
  repaired.push(...dates.repairs);
  repaired.sort((a, b) => a.row - b.row);
  s.checks.ocr = { pages, mean_confidence: confidence, repaired_rows: repaired, dates_unconfirmed: dates.unconfirmed };
  for (const i of dates.unconfirmed) {
    // A date printed on the row's line contradicts the one it has: not reconcilable (issue 24 class 8).
    s.checks.notes.push(`Row ${i + 1}: its date ${s.transactions[i]!.date.slice(0, 10)} is not among the dates OCR read on its line, and none of them can stand in for it.`);
    s.row_wise_reconcilable = false;
  }
  s.checks.notes.push(`Read by OCR: ${pages} page(s), mean word confidence ${confidence}%.`);
  for (const r of repaired) {
    const confirmedBy = r.field === "date" ? "the statement's date columns agree on every other row" : "confirmed by the balance chain";
    const note = `Row ${r.row + 1}: OCR read ${r.field} "${r.printed}", ${r.used} used (${r.reason.replaceAll("_", " ")}; ${confirmedBy})`;
    s.checks.notes.push(`${note}.`);
    assume(s.checks, note);
  }
  settleVerdict(s);
}

/** Too few links hold to hand the reading out, or nothing can check it (no balance column read and no totals that agree): refused. */
function refuseIfBroken(r: ParseResponse, opts: OcrReadOptions, tried: string): void {
  const min = opts.minChainShare ?? DEFAULT_MIN_CHAIN_SHARE;
  const s = r.accounts[0]!;
  // Rows whose balance OCR read on their figure line (annotate gave them a confidence); a balance
  // OCR missed on a few rows is derived by the engine and still checked by the next row's link.
  const printedBalances = s.transactions.filter((t) => t.ocr_confidence !== undefined).length;
  if (s.checks.balances_derived && printedBalances < s.transactions.length / 2) {
    if (s.checks.totals_match === true) return;
    throw scannedDocument(`The PDF has no usable text layer. ${tried}; the statement prints no balances and no totals that agree, so nothing can confirm the figures read`);
  }
  const { holding, checked } = chainShare(s);
  if (checked === 0 || holding / checked < min) {
    throw scannedDocument(`The PDF has no usable text layer. ${tried}; only ${holding} of ${checked} rows chain with their balances (at least ${Math.round(min * 100)}% are needed)`);
  }
}
