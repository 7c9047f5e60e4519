import { formatKobo } from "../engine/money.ts";
import type { ParseResponse, Transaction } from "../engine/types.ts";

/**
 * A made-up statement for warming the insights thread (src/output/insights-pool.ts): the rules'
 * code paths (transfers with named parties, charges and their levies, card, airtime, bills, loans,
 * betting, salary, reversals) over enough rows, and enough months, for the JavaScript engine to
 * compile them before a real request needs them. Names and numbers are invented.
 */
const FORMS: [string, number, number][] = [
  ["NIP TRANSFER TO ADA OBI ZENITH BANK 000013250107093011123456789012", 4200000, 0],
  ["NIP TRANSFER COMMISSION + VAT", 2688, 0],
  ["Transfer from CHIDI OKEKE | Access Bank | 0123456789", 0, 1500000],
  ["ELECTRONIC MONEY TRANSFER LEVY", 5000, 0],
  ["POS PURCHASE @ SHOPRITE LEKKI", 1543400, 0],
  ["AIRTIME PURCHASE MTN 08031234567", 50000, 0],
  ["DSTV SUBSCRIPTION 7023456789", 1570000, 0],
  ["SALARY FOR THE MONTH ACME NIGERIA PLC", 0, 35000000],
  ["FAIRMONEY LOAN REPAYMENT", 1200000, 0],
  ["WEB PURCHASE BET9JA.COM", 200000, 0],
  ["SMS ALERT CHARGES", 4000, 0],
  ["VAT ON NIP TRANSFER CHARGE", 188, 0],
  ["REVERSAL OF FAILED POS TRANSACTION", 0, 1543400],
  ["ATM WDL @ ZENITH ATM IKEJA", 2000000, 0],
  ["Transfer to PIGGYVEST | Providus Bank | 9912345678", 1000000, 0],
];

export function warmupStatement(rows = 3000): ParseResponse {
  let balance = 100_000_000n;
  const transactions: Transaction[] = [];
  for (let i = 0; i < rows; i++) {
    const [narration, debit, credit] = FORMS[i % FORMS.length] as [string, number, number];
    balance += BigInt(credit) - BigInt(debit);
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(i / 10) * 86_400_000).toISOString().slice(0, 10);
    transactions.push({ date: `${day}T09:00:${String(i % 60).padStart(2, "0")}+01:00`, narration: `${narration}${i % 7 === 0 ? ` ${i}` : ""}`, debit: formatKobo(BigInt(debit)), credit: formatKobo(BigInt(credit)), balance: formatKobo(balance), reference: "", currency: "NGN" });
  }
  const metadata = { bank: "gtbank", account_holder: "ADAEZE OKAFOR", account_number_masked: "******1234", statement_period_start: transactions[0]?.date ?? "", statement_period_end: transactions[rows - 1]?.date ?? "", opening_balance: "1000000.00", closing_balance: formatKobo(balance) };
  const totals = { credit: "0.00", debit: "0.00" };
  const checks = { row_chain: true, first_break_index: null, balances_derived: false, totals_match: null, closing_balance_match: null, reversed: false, count_match: null, opening_balance_source: "statement", kobo_rounding_rows: [], notes: [], verdict: "verified", assumed: [] } as unknown as ParseResponse["checks"];
  return { format_version: "warmup", metadata, totals, row_wise_reconcilable: true, checks, transactions, accounts: [{ metadata, totals, row_wise_reconcilable: true, checks, transactions }] } as ParseResponse;
}
