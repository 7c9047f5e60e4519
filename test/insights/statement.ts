import { formatKobo, parseAmount } from "../../src/engine/money.ts";
import type { ParseResponse, Transaction } from "../../src/engine/types.ts";

/** One row: [date "YYYY-MM-DD" or "YYYY-MM-DD HH:MM:SS", narration, debit, credit, reference?]. */
export type RowSpec = [string, string, string, string, string?];

const kobo = (s: string) => parseAmount(s)?.kobo ?? 0n;

/** A ParseResponse of written rows, balances chained from `opening` (what the engine hands the insights). */
export function statement(specs: RowSpec[], options: { holder?: string; bank?: string; opening?: string } = {}): ParseResponse {
  let balance = kobo(options.opening ?? "100000.00");
  const transactions: Transaction[] = specs.map(([when, narration, debit, credit, reference]) => {
    balance += kobo(credit || "0") - kobo(debit || "0");
    const [day, time = "00:00:00"] = when.split(" ");
    return { date: `${day}T${time}+01:00`, narration, debit: debit || "0.00", credit: credit || "0.00", balance: formatKobo(balance), reference: reference ?? "", currency: "NGN" };
  });
  const metadata = {
    bank: options.bank ?? "gtbank",
    account_holder: options.holder ?? "ADAEZE NNEKA OKAFOR",
    account_number_masked: "******1234",
    statement_period_start: transactions[0]?.date ?? "",
    statement_period_end: transactions[transactions.length - 1]?.date ?? "",
    opening_balance: options.opening ?? "100000.00",
    closing_balance: formatKobo(balance),
  };
  const checks = {
    row_chain: true, first_break_index: null, balances_derived: false, totals_match: null, closing_balance_match: null, reversed: false, count_match: null,
    opening_balance_source: "statement", kobo_rounding_rows: [], notes: [], verdict: "verified", assumed: [],
  } as ParseResponse["checks"];
  const totals = { credit: "0.00", debit: "0.00" };
  return { format_version: "test", metadata, totals, row_wise_reconcilable: true, transactions, checks, accounts: [{ metadata, totals, row_wise_reconcilable: true, checks, transactions }] };
}
