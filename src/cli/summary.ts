/**
 * The short table `parse` prints on a terminal (unless --format is given): one block per statement
 * with what a reader checks first, the engine's notes, and the integrity verdict when there is one.
 */
import { groupThousands as money } from "../engine/money.ts";
import type { ParseResponse } from "../engine/types.ts";

const VERDICT_WORDS: Record<string, string> = {
  no_signals: "no signs of editing",
  review: "review: some signs worth a look",
  likely_edited: "LIKELY EDITED after the bank made it",
};

const day = (iso: string) => iso.slice(0, 10) || "—";

/** The additive parts the table shows when the engine returns them (account sections, integrity). */
interface Extras {
  accounts?: { metadata: { account_number_masked: string }; transactions: unknown[] }[];
  integrity?: { verdict: string; signals: { code: string; severity: string }[] };
}

interface SummaryInput {
  file: string;
  response: ParseResponse;
}

export function summaryTable({ file, response }: SummaryInput): string {
  const r = response as ParseResponse & Extras;
  const m = r.metadata;
  const rows: [string, string][] = [
    ["bank", m.bank || "unknown"],
    ["account", [m.account_holder, m.account_number_masked].filter(Boolean).join(" · ") || "—"],
    ["period", `${day(m.statement_period_start)} to ${day(m.statement_period_end)}`],
    ["rows", String(r.transactions.length)],
    ["money in", money(r.totals.credit)],
    ["money out", money(r.totals.debit)],
    ["balances", `${money(m.opening_balance || "—")} → ${money(m.closing_balance || "—")}`],
    ["reconciled", r.row_wise_reconcilable ? "yes" : r.checks.first_break_index !== null ? `NO (chain breaks at row ${r.checks.first_break_index + 1})` : "NO"],
  ];
  if (r.accounts && r.accounts.length > 1) rows.push(["accounts", r.accounts.map((a) => `${a.metadata.account_number_masked || "?"} (${a.transactions.length} rows)`).join(", ")]);
  if (r.integrity) {
    const signals = r.integrity.signals.filter((s) => s.severity !== "info").map((s) => s.code);
    rows.push(["integrity", `${VERDICT_WORDS[r.integrity.verdict] ?? r.integrity.verdict}${signals.length ? ` (${signals.join(", ")})` : ""}`]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = [file, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)];
  for (const note of r.checks.notes) lines.push(`  note: ${note}`);
  return `${lines.join("\n")}\n`;
}
