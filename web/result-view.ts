/**
 * The result section for one parsed statement: the honest headline, the bank by name, a tab per
 * account section (told apart by type when the response names one, and by number), the metadata,
 * the checks, the charts and the paged table.
 */
import type { Charts } from "./charts.ts";
import { renderChecks } from "./checks.ts";
import { $, node } from "./dom.ts";
import { day, money, plural } from "./format.ts";
import type { TransactionTable } from "./table.ts";
import type { ParseResponse, Section } from "./types.ts";
import { statementHeadline } from "./verdict.ts";

const METADATA_LABELS: [string, string][] = [
  ["bank", "Bank"],
  ["account_holder", "Account holder"],
  ["account_number_masked", "Account number"],
  ["statement_period_start", "Period start"],
  ["statement_period_end", "Period end"],
  ["opening_balance", "Opening balance"],
  ["closing_balance", "Closing balance"],
];

/** Metadata fields a response may carry to name an account's kind (none are required). */
const TYPE_FIELDS = ["account_type", "account_name", "section_title"] as const;

/** "Wallet · ******1234", or "Account 2 of 3 · ******1234" when the response names no kind. */
export function sectionLabel(s: Section, i: number, count: number): string {
  const kind = TYPE_FIELDS.map((k) => s.metadata[k]).find((v) => v && v.trim() !== "");
  return [kind ?? `Account ${i + 1} of ${count}`, s.metadata.account_number_masked || "no number printed"].join(" · ");
}

export class ResultView {
  private readonly el = {
    result: $<HTMLElement>("result"),
    source: $<HTMLParagraphElement>("result-source"),
    tabs: $<HTMLDivElement>("sections"),
    badge: $<HTMLSpanElement>("badge"),
    reasons: $<HTMLUListElement>("verdict-reasons"),
    metadata: $<HTMLDListElement>("metadata"),
    checks: $<HTMLElement>("checks"),
    rowCount: $<HTMLParagraphElement>("row-count"),
    details: $<HTMLElement>("details"),
    sampleNote: $<HTMLParagraphElement>("sample-note"),
    totalDebit: $<HTMLTableCellElement>("total-debit"),
    totalCredit: $<HTMLTableCellElement>("total-credit"),
  };

  constructor(private readonly table: TransactionTable, private readonly charts: Charts) {}

  get visible(): boolean {
    return !this.el.result.hidden;
  }

  hide(): void {
    this.el.result.hidden = true;
  }

  /** Brings the result into view (after a parse the page would otherwise stay on the form). */
  scrollTo(): void {
    this.el.result.scrollIntoView({ block: "start" });
  }

  /** A parsed statement, or (no response) a redact job's downloads only. */
  show(fileName: string, r: ParseResponse | undefined, banks: Map<string, string>, redactHint?: string): void {
    const el = this.el;
    el.result.hidden = false;
    el.source.textContent = fileName;
    el.sampleNote.hidden = r?.sample !== true;
    el.details.hidden = !r;
    el.badge.hidden = !r;
    el.reasons.hidden = !r;
    this.charts.clear();
    if (!r) {
      el.tabs.replaceChildren();
      el.tabs.hidden = true;
      el.metadata.replaceChildren();
      el.checks.replaceChildren();
      el.rowCount.textContent = redactHint ?? "The redacted document is ready.";
      return;
    }
    // One headline for the whole statement: green only when every section is verified.
    const h = statementHeadline(r, sectionLabel);
    el.badge.textContent = h.text;
    el.badge.className = `badge headline ${h.level}`;
    el.badge.dataset.level = h.level;
    el.reasons.replaceChildren(...h.reasons.map((x) => node("li", x)));
    const sections: Section[] = r.accounts && r.accounts.length > 0 ? r.accounts : [r];
    el.tabs.hidden = sections.length < 2;
    el.tabs.replaceChildren(
      ...sections.map((s, i) => {
        const b = node("button", `${sectionLabel(s, i, sections.length)} · ${plural(s.transactions.length, "row")}`, "tab");
        b.type = "button";
        b.setAttribute("role", "tab");
        b.addEventListener("click", () => this.section(sections, i, r, banks));
        return b;
      }),
    );
    this.section(sections, 0, r, banks);
  }

  private section(sections: Section[], i: number, r: ParseResponse, banks: Map<string, string>): void {
    const el = this.el;
    const s = sections[i] ?? r;
    Array.from(el.tabs.children).forEach((b, j) => b.setAttribute("aria-selected", String(j === i)));
    el.metadata.replaceChildren(
      ...METADATA_LABELS.flatMap(([k, label]) => {
        const v = s.metadata[k] ?? "";
        const shown = k === "bank" ? bankName(v, banks) : k.endsWith("_balance") ? money(v) : k.startsWith("statement_period") ? day(v) : v;
        return [node("dt", label), node("dd", shown || "—")];
      }),
    );
    // Integrity is about the whole document, so it is shown with every section.
    renderChecks(el.checks, s, r.integrity);
    const breakAt = s.row_wise_reconcilable ? null : (s.checks?.first_break_index ?? null);
    const notes = [
      breakAt !== null ? `The balance chain first breaks at row ${breakAt + 1} (highlighted).` : "",
      s.checks?.balances_derived ? "The statement has no balance column: balances were derived from the opening balance." : "",
    ].filter(Boolean);
    el.rowCount.textContent = [plural(s.transactions.length, "transaction"), ...notes].join(" · ");
    this.table.show(s.transactions, { breakAt, roundingRows: s.checks?.kobo_rounding_rows ?? [] });
    el.totalDebit.textContent = money(s.totals.debit);
    el.totalCredit.textContent = money(s.totals.credit);
    this.charts.show(s.transactions);
  }
}

/** "Zenith Bank (zenith)"; the id alone when the list has no name for it. */
export function bankName(id: string, banks: Map<string, string>): string {
  if (id === "unknown") return "Not recognised (read with the generic layout rules)";
  const name = banks.get(id);
  return name && name !== id ? `${name} (${id})` : id;
}
