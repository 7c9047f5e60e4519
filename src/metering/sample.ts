import { sniff } from "../engine/sniff.ts";
import type { ParseResponse } from "../engine/types.ts";
import { FORMAT_VERSION } from "../version.ts";

/** The canned sample as sent: a ParseResponse that says it is the sample (as X-Sample does). */
export type SampleResponse = ParseResponse & { sample: true };

/**
 * The sample stands in only for a document the engine would read: a file that is no statement at
 * all (empty, an image, a .docx) gets its real error (422 unsupported_format, encrypted_source)
 * past the cap too, from the same content check the engine starts with. Cheap: headers only.
 */
export function refuseNonStatement(bytes: Uint8Array): void {
  sniff(bytes);
}

/**
 * The canned statement returned instead of a parse once a test key or a first-party end-user IP
 * is past its monthly cap. It is synthetic (no real person or account) and reconciles row by row,
 * so a client can exercise its whole pipeline on it; the engine never runs for it. Dates are in
 * the form real parses use (Lagos, `+01:00`), and `sample: true` marks it in the JSON itself.
 */
export function sampleResponse(): SampleResponse {
  const transactions = [
    { date: "2026-01-02T00:00:00+01:00", narration: "SAMPLE TRANSFER FROM ADA OKAFOR", debit: "0.00", credit: "150000.00", balance: "250000.00", reference: "SAMPLE0001", currency: "NGN" },
    { date: "2026-01-05T00:00:00+01:00", narration: "SAMPLE POS PURCHASE LAGOS", debit: "12500.50", credit: "0.00", balance: "237499.50", reference: "SAMPLE0002", currency: "NGN" },
    { date: "2026-01-09T00:00:00+01:00", narration: "SAMPLE AIRTIME TOP-UP", debit: "2000.00", credit: "0.00", balance: "235499.50", reference: "SAMPLE0003", currency: "NGN" },
    { date: "2026-01-15T00:00:00+01:00", narration: "SAMPLE SALARY JANUARY", debit: "0.00", credit: "450000.00", balance: "685499.50", reference: "SAMPLE0004", currency: "NGN" },
    { date: "2026-01-20T00:00:00+01:00", narration: "SAMPLE ELECTRICITY BILL", debit: "35000.00", credit: "0.00", balance: "650499.50", reference: "SAMPLE0005", currency: "NGN" },
  ];
  const response: Omit<ParseResponse, "accounts"> = {
    format_version: FORMAT_VERSION,
    metadata: {
      bank: "sample",
      account_holder: "SAMPLE ACCOUNT HOLDER",
      account_number_masked: "******0000",
      statement_period_start: "2026-01-01T00:00:00+01:00",
      statement_period_end: "2026-01-31T00:00:00+01:00",
      opening_balance: "100000.00",
      closing_balance: "650499.50",
    },
    totals: { credit: "600000.00", debit: "49500.50" },
    row_wise_reconcilable: true,
    transactions,
    checks: {
      row_chain: true,
      first_break_index: null,
      balances_derived: false,
      totals_match: null,
      closing_balance_match: true,
      reversed: false,
      count_match: null,
      opening_balance_source: "statement",
      kobo_rounding_rows: [],
      notes: ["Synthetic sample statement: returned instead of a parse past the free monthly cap; the document was not read."],
      assumed: [],
      verdict: "verified",
    },
  };
  const { format_version: _, ...section } = response;
  return { ...response, accounts: [section], sample: true };
}
