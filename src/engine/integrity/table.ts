import type { ParseResponse } from "../types.ts";
import type { InfoFacts, IntegritySignal } from "./types.ts";

/**
 * What the statement's own figures say: a row dated after the period it claims to cover or after
 * the file was made, a balance chain that breaks although the printed totals still agree (a
 * balance changed and the totals left alone), printed totals or counts the rows do not add up to.
 * A parse can disagree with a genuine statement too, so these are "warn": worth a human look.
 */

/** Days a row may pass the period end or the creation date: time zones and end-of-day batches. */
const GRACE_DAYS = 1;
/**
 * An edit adds or re-dates a row or two; many rows past the date mean the date itself is off (a
 * generator's fixed or wrong clock, a misread period), which is no sign of editing.
 */
const MAX_LATE_ROWS = 3;
const MAX_LATE_SHARE = 0.1;
const fewLate = (late: number, all: number) => late > 0 && late <= MAX_LATE_ROWS && late <= MAX_LATE_SHARE * all;
const DAY_MS = 86_400_000;

const day = (iso: string): number => Date.parse(iso.slice(0, 10));

export function tableSignals(r: ParseResponse, info: InfoFacts): IntegritySignal[] {
  const out: IntegritySignal[] = [];
  const dated = r.transactions.map((t, i) => ({ i, at: day(t.date) })).filter((t) => Number.isFinite(t.at));
  const end = r.metadata.statement_period_end ? day(r.metadata.statement_period_end) : Number.NaN;
  if (Number.isFinite(end)) {
    const late = dated.filter((t) => t.at > end + GRACE_DAYS * DAY_MS);
    if (fewLate(late.length, dated.length)) {
      out.push({ code: "date_after_period_end", severity: "warn", detail: `${count(late.length, "row")} dated after the printed period end (${r.metadata.statement_period_end.slice(0, 10)}), first at row ${late[0]!.i + 1}.` });
    }
  }
  const created = info.created_at ? day(info.created_at) : Number.NaN;
  if (Number.isFinite(created)) {
    const late = dated.filter((t) => t.at > created + GRACE_DAYS * DAY_MS);
    if (fewLate(late.length, dated.length)) {
      out.push({ code: "date_after_creation", severity: "warn", detail: `${count(late.length, "row")} dated after the PDF was created (${info.created_at!.slice(0, 10)}), first at row ${late[0]!.i + 1}.` });
    }
  }
  const { checks } = r;
  if (!checks.row_chain && !checks.balances_derived && checks.totals_match === true) {
    const at = checks.first_break_index;
    out.push({ code: "balance_chain_break", severity: "warn", detail: `The running balance breaks${at === null ? "" : ` at row ${at + 1}`} although the printed totals agree with the rows: a balance may have been changed.` });
  }
  if (checks.totals_match === false) out.push({ code: "totals_mismatch", severity: "warn", detail: "The printed debit/credit totals do not agree with the rows." });
  if (checks.count_match === false) out.push({ code: "count_mismatch", severity: "warn", detail: "The printed transaction count does not agree with the rows." });
  return out;
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? " is" : "s are"}`;
