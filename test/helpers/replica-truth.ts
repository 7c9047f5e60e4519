/**
 * Compares the engine's reading of a layout replica (fixtures/replicas/NAME.pdf|xlsx) with its truth file.
 * Used by the replica tests and by `bun test/helpers/replica-truth.ts [NAME...]`, which prints a report.
 *
 * Truth rows are in print order; rows a few seconds apart may legitimately come back in the order their balances
 * chain (the replicas' README), so rows are compared as multisets within groups of consecutive truth rows whose
 * timestamps lie within REORDER_GROUP_S of the previous row (date-only rows form one group per print run of a day).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseStatement } from "../../src/engine/index.ts";
import { accountScrubber } from "../../src/engine/metadata/index.ts";
import type { AccountSection, ParseResponse, Transaction } from "../../src/engine/types.ts";
import { squeezeSpaces } from "../../src/engine/whitespace.ts";

export const REPLICAS = join(import.meta.dir, "../../fixtures/replicas");
export const REPLICA_NAMES: string[] = JSON.parse(readFileSync(join(REPLICAS, "manifest.json"), "utf8"));

/** Seconds between adjacent truth rows that still count as one group compared as a set. */
const REORDER_GROUP_S = 60;

export interface TruthRow {
  date: string;
  narration: string;
  debit: string | null;
  credit: string | null;
  balance: string;
  reference: string;
}
export interface TruthSection {
  name: string;
  account_number: string;
  /** null where the section prints no balance ("N--"). */
  opening_balance: string | null;
  closing_balance: string | null;
  total_debit: string;
  total_credit: string;
  debit_count: number;
  credit_count: number;
  transactions: TruthRow[];
}
export interface Truth {
  file: string;
  bank: string;
  account_holder: string;
  period_start: string;
  period_end: string;
  account_number: string;
  sections: TruthSection[];
  notes: string[];
}

export const loadTruth = (name: string): Truth => JSON.parse(readFileSync(join(REPLICAS, name.replace(/\.(pdf|xlsx)$/, ".truth.json")), "utf8"));
export const loadReplica = (name: string) => new Uint8Array(readFileSync(join(REPLICAS, name)));
export const parseReplica = (name: string): Promise<ParseResponse> => parseStatement(loadReplica(name), {});

/** One row as a comparable string: the date to the precision the truth prints, amounts with "0.00" for an empty side. */
function rowKey(r: { date: string; narration: string; debit: string | null; credit: string | null; balance: string; reference: string }, dateLength: number): string {
  return [r.date.slice(0, dateLength), r.narration, r.debit ?? "0.00", r.credit ?? "0.00", r.balance, r.reference].join(" | ");
}

/**
 * A truth row as the engine is documented to print it: whitespace squeezed (a narration cut at 100
 * characters keeps a trailing space in the truth file) and the statement's own account number masked
 * wherever a narration names it (src/engine/metadata/account-number.ts accountScrubber).
 */
function asPrinted(r: TruthRow, accountNumbers: string[]): TruthRow {
  const narration = accountNumbers.reduce((t, n) => accountScrubber(n)(t), squeezeSpaces(r.narration));
  return { ...r, narration };
}

function groups(rows: TruthRow[]): number[][] {
  const out: number[][] = [];
  let prev: number | null = null;
  rows.forEach((r, i) => {
    const t = Date.parse(r.date.length > 10 ? `${r.date}Z` : `${r.date}T00:00:00Z`);
    const last = out.at(-1);
    if (prev === null || last === undefined || Math.abs(t - prev) > REORDER_GROUP_S * 1000) out.push([i]);
    else last.push(i);
    prev = t;
  });
  return out;
}

/** Differences between one parsed section and its truth section (empty when exact). */
export function sectionDifferences(got: Pick<AccountSection, "metadata" | "totals" | "transactions">, want: TruthSection, label: string, accountNumbers: string[] = [want.account_number]): string[] {
  const diffs: string[] = [];
  const m = got.metadata;
  // A section that prints no balance ("N--", truth null) reports 0.00 and lists it in checks.assumed.
  const opening = want.opening_balance ?? "0.00";
  const closing = want.closing_balance ?? "0.00";
  if (m.opening_balance !== opening) diffs.push(`${label}: opening_balance ${m.opening_balance} != ${opening}`);
  if (m.closing_balance !== closing) diffs.push(`${label}: closing_balance ${m.closing_balance} != ${closing}`);
  if (got.totals.debit !== want.total_debit) diffs.push(`${label}: totals.debit ${got.totals.debit} != ${want.total_debit}`);
  if (got.totals.credit !== want.total_credit) diffs.push(`${label}: totals.credit ${got.totals.credit} != ${want.total_credit}`);
  if (!m.account_number_masked.endsWith(want.account_number.slice(-4))) diffs.push(`${label}: account ${m.account_number_masked} does not end like ${want.account_number}`);
  const rows = got.transactions as Transaction[];
  if (rows.length !== want.transactions.length) diffs.push(`${label}: ${rows.length} rows != ${want.transactions.length}`);
  let at = 0;
  for (const g of groups(want.transactions)) {
    const dateLength = want.transactions[g[0] ?? 0]?.date.length ?? 10;
    const wantKeys = g.flatMap((i) => { const t = want.transactions[i]; return t ? [rowKey(asPrinted(t, accountNumbers), dateLength)] : []; }).sort();
    const gotKeys = rows.slice(at, at + g.length).map((r) => rowKey(r, dateLength)).sort();
    for (let k = 0; k < wantKeys.length; k++) {
      if (wantKeys[k] !== gotKeys[k]) {
        diffs.push(`${label}: rows ${at}..${at + g.length - 1}: got ${JSON.stringify(gotKeys[k] ?? null)} want ${JSON.stringify(wantKeys[k])}`);
        break;
      }
    }
    at += g.length;
  }
  return diffs;
}

/** Every difference between the engine's response and the truth: sections, rows, totals, metadata. */
export function replicaDifferences(r: ParseResponse, truth: Truth): string[] {
  const diffs: string[] = [];
  if (r.metadata.bank !== truth.bank) diffs.push(`bank ${r.metadata.bank} != ${truth.bank}`);
  if (r.metadata.account_holder !== truth.account_holder) diffs.push(`holder ${JSON.stringify(r.metadata.account_holder)} != ${JSON.stringify(truth.account_holder)}`);
  if (!r.metadata.statement_period_start.startsWith(truth.period_start)) diffs.push(`period_start ${r.metadata.statement_period_start} != ${truth.period_start}`);
  if (!r.metadata.statement_period_end.startsWith(truth.period_end)) diffs.push(`period_end ${r.metadata.statement_period_end} != ${truth.period_end}`);
  if (r.accounts.length !== truth.sections.length) diffs.push(`${r.accounts.length} sections != ${truth.sections.length}`);
  truth.sections.forEach((s, i) => {
    const got = r.accounts[i];
    if (got) diffs.push(...sectionDifferences(got, s, `section ${i} (${s.name})`, truth.sections.map((t) => t.account_number)));
  });
  return diffs;
}

if (import.meta.main) {
  const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : REPLICA_NAMES;
  let exact = 0;
  for (const name of names) {
    const truth = loadTruth(name);
    let diffs: string[];
    let flag = "";
    try {
      const r = await parseReplica(name);
      diffs = replicaDifferences(r, truth);
      flag = ` reconcilable=${r.row_wise_reconcilable} sections=${r.accounts.map((a) => `${a.transactions.length}:${a.row_wise_reconcilable}`).join(",")}`;
    } catch (e) {
      diffs = [`threw ${(e as Error).message}`];
    }
    if (diffs.length === 0) exact++;
    console.log(`${diffs.length === 0 ? "EXACT" : "DIFF "} ${name}${flag}`);
    for (const d of diffs.slice(0, 12)) console.log(`    ${d}`);
    if (diffs.length > 12) console.log(`    ... ${diffs.length - 12} more`);
  }
  console.log(`${exact}/${names.length} exact`);
}
