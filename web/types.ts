/** The response shapes the page reads (a subset of the server's published schemas, see /openapi.json). */

export interface Progress { stage: string; current: number; total: number }

export interface Transaction { date: string; narration: string; debit: string; credit: string; balance: string; reference: string; currency: string }

export interface Checks {
  row_chain?: boolean;
  first_break_index?: number | null;
  balances_derived?: boolean;
  totals_match?: boolean | null;
  closing_balance_match?: boolean | null;
  count_match?: boolean | null;
  reversed?: boolean;
  opening_balance_source?: string;
  kobo_rounding_rows?: number[];
  marker_coverage?: number;
  notes?: string[];
  /** The engine's one verdict on the figures (absent in results made before it existed). */
  verdict?: "verified" | "partial" | "unverified";
  /** Facts taken without a printed figure to back them. */
  assumed?: string[];
}

/** One account section of a statement (the top level of a response is the first one). */
export interface Section {
  metadata: Record<string, string>;
  totals: { credit: string; debit: string };
  row_wise_reconcilable: boolean;
  transactions: Transaction[];
  checks?: Checks;
}

export interface IntegritySignal { code: string; severity: "info" | "warn" | "high"; detail: string; page?: number }
export interface Integrity {
  verdict: "no_signals" | "review" | "likely_edited";
  signals: IntegritySignal[];
  producer?: string;
  creator?: string;
  created_at?: string | null;
  modified_at?: string | null;
  incremental_updates?: number;
}

export interface ParseResponse extends Section {
  format_version: string;
  /** The canned sample (a key past its free monthly cap): the document was not read. */
  sample?: true;
  accounts?: Section[];
  integrity?: Integrity;
}

export interface Envelope { error: string; error_class: string; marker_coverage?: number }
/** A redact job's `result` event: where the document is, not a ParseResponse. */
export interface RedactRef { result_url?: string; redactions?: number; content_type?: string }
export type Outcome = ParseResponse | RedactRef | Envelope;
export const isEnvelope = (o: Outcome): o is Envelope => "error_class" in o;
export const isParse = (o: Outcome): o is ParseResponse => "transactions" in o;

export interface Snapshot {
  state: string;
  progress?: Progress;
  result?: ParseResponse;
  result_url?: string;
  redactions?: number;
  sample?: boolean;
  error?: string;
  error_class?: string;
}
export interface JobRef { job_id: string; stream_url: string; poll_url: string }
/** `GET /v1/banks`: the ids a response's `metadata.bank` takes, with their names. */
export interface BankList { banks: { id: string; name: string }[] }
export type Output = "json" | "csv" | "redact";
