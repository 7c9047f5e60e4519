/**
 * Shapes shared by every stage of the engine. Positions are in PDF points with the origin at the
 * top-left of the page (y grows downwards), so "below" means a larger y.
 */
import type { Integrity } from "./integrity/types.ts";

import type { PdfExtractorName } from "./pdf/extractor-name.ts";

export interface TextItem {
  str: string;
  x: number;
  /** Top of the glyph box, measured from the top of the page. */
  y: number;
  width: number;
  height: number;
  /** The extractor's id for the item's font: the same for one font within a page (pdf.js: across a document's pages in one reading; never across workers). */
  font?: string;
}

export interface PageText {
  /** 1-based page number. */
  number: number;
  width: number;
  height: number;
  items: TextItem[];
}

/** One worksheet (XLSX) or HTML table, as rows of display strings. */
export interface SheetTable {
  name: string;
  rows: string[][];
}

/** What the extraction stage hands to the pure layout/assembly stage. */
export type ExtractedDocument =
  | { kind: "pdf"; pageCount: number; producer: string; pages: PageText[] }
  | { kind: "sheet"; producer: string; sheets: SheetTable[] };

export interface Progress {
  stage: string;
  current: number;
  total: number;
}
export type ProgressFn = (p: Progress) => void;

export interface Transaction {
  date: string;
  narration: string;
  debit: string;
  credit: string;
  balance: string;
  reference: string;
  currency: string;
  /** OCR'd statements only: mean word confidence (0..100) of the line that printed the row's figures (src/engine/ocr/). */
  ocr_confidence?: number;
}

export interface StatementMetadata {
  bank: string;
  account_holder: string;
  account_number_masked: string;
  statement_period_start: string;
  statement_period_end: string;
  opening_balance: string;
  closing_balance: string;
}

/** Additive reconciliation report; every field says what was compared and whether it agreed. */
export interface Checks {
  /** Every row's balance equals previous balance + credit - debit, from the opening balance. */
  row_chain: boolean;
  /** Index of the first row that breaks the chain, or null. */
  first_break_index: number | null;
  /** Balances were derived from the opening balance because the statement has no balance column. */
  balances_derived: boolean;
  /** The statement's printed totals agree with the rows (null when none are printed). */
  totals_match: boolean | null;
  /** The printed closing balance agrees with the last row's balance (null when not printed). */
  closing_balance_match: boolean | null;
  /** Rows were listed newest first and have been reversed. */
  reversed: boolean;
  /** The statement's own transaction count (when printed) agrees. */
  count_match: boolean | null;
  /** Where the opening balance came from: printed on the statement, derived from the first row, or none (0.00 assumed). */
  opening_balance_source: "statement" | "derived" | "assumed_zero";
  /** 0-based indexes of rows accepted although their balance is off the row's sum by exactly 1 kobo (rounded half-kobo charges); never more than 1 kobo. */
  kobo_rounding_rows: number[];
  /** Human-readable notes on what was compared and where it disagreed. */
  notes: string[];
  /**
   * One overall verdict (src/engine/verdict.ts): "verified" when every row chains, every printed figure
   * agrees and nothing was assumed or derived; "partial" when the rows chain and nothing printed
   * contradicts them but something was assumed or derived (listed in `assumed`); "unverified" otherwise.
   */
  verdict: "verified" | "partial" | "unverified";
  /** Human-readable facts taken without a printed figure to back them (a derived opening, derived balances...). */
  assumed: string[];
  /** 0..100: how sure the bank detection is (as the error envelope's marker_coverage); set by assembleLines. */
  marker_coverage?: number;
  /**
   * Rows of this section whose chain break is exactly what a row of another section at the same
   * time moved (one transaction paid from both, e.g. a wallet payment topped up from savings):
   * `row` (0-based, this section), `other_section` (0-based index in `accounts`), `other_row`, and
   * `amount`, what the other row supplied to this one's chain (src/engine/chain/cross-section.ts).
   */
  cross_section_links?: { row: number; other_section: number; other_row: number; amount: string }[];
  /**
   * Pairs of adjacent rows stamped within seconds of each other (src/engine/chain/reorder.ts) that
   * are returned swapped, because only the swapped order chains: `row` is the 0-based index of the
   * pair's first row in `transactions`, `seconds` how far apart their timestamps are.
   */
  swapped_rows?: { row: number; seconds: number }[];
  /** The first section's printed totals and counts cover every section and agree with their sum (src/engine/sections/combined.ts). */
  statement_totals_match?: boolean;
  /** Present when the statement was read by OCR (src/engine/ocr/read.ts). */
  ocr?: OcrChecks;
}

/** What OCR read and which of its figures the balance chain corrected. */
export interface OcrChecks {
  /** How many pages were read by OCR. */
  pages: number;
  /** Mean word confidence over those pages, 0..100. */
  mean_confidence: number;
  /** The pages read by OCR (1-based, in order), each with its own mean word confidence. */
  read_pages: { page: number; mean_confidence: number }[];
  /** The document's other pages, read from their text (a text page in front of or between scanned pages). */
  text_pages: number[];
  /** Every figure used instead of the one read; each is also listed in `assumed`. */
  repaired_rows: OcrRepair[];
  /** 0-based rows whose date is not among the dates OCR read on their line and could not be taken from it (the chain never checks dates); any makes the statement not reconcilable. */
  dates_unconfirmed: number[];
}

export interface OcrRepair {
  /** 0-based row index in its section. */
  row: number;
  /** The figure corrected ("figure": a word rewritten before the table was read; "date": a date cell OCR missed, taken from the row's other date column). */
  field: "debit" | "credit" | "balance" | "figure" | "date";
  /** The reading as printed by OCR. */
  printed: string;
  /** The value used. */
  used: string;
  /** The single confusion that explains the reading (digit_substituted, decimal_point_lost, ...). */
  reason: string;
}

/** One account section of a statement: a PDF may hold a wallet and a savings account, each with its own table. */
export interface AccountSection {
  metadata: StatementMetadata;
  totals: { credit: string; debit: string };
  row_wise_reconcilable: boolean;
  checks: Checks;
  transactions: Transaction[];
}

export interface ParseResponse {
  format_version: string;
  /** The first (primary) account section; `accounts` lists every section. */
  metadata: StatementMetadata;
  totals: { credit: string; debit: string };
  row_wise_reconcilable: boolean;
  transactions: Transaction[];
  checks: Checks;
  /** Every account section in print order (at least one); the first equals the top level. */
  accounts: AccountSection[];
  /** Document integrity signals (PDF parses; an empty report for sheets). */
  integrity?: Integrity;
}

export interface ParseOptions {
  /** Bank id that overrides detection (the `bank` form field). */
  bank?: string;
  /** User password for an encrypted PDF. */
  password?: string;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /** Resource limits (defaults: the service's configuration defaults). */
  limits?: EngineLimits;
  /** PDF text extractor (PDF_EXTRACTOR); default pdfium. */
  extractor?: PdfExtractorName;
}

export interface EngineLimits {
  /** Most pages a PDF may have. */
  maxPages?: number;
  /** Most rows read from all sheets of an XLSX. */
  maxXlsxRows?: number;
  /** Most bytes an XLSX may inflate to. */
  maxXlsxInflatedBytes?: number;
}
