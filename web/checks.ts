/**
 * The checks panel: what the engine compared and whether it agreed, every note in plain words, and
 * the document's integrity verdict with its signals. A green badge never hides a note.
 */
import { node } from "./dom.ts";
import { money, plural } from "./format.ts";
import type { Integrity, Section } from "./types.ts";

type Status = "ok" | "bad" | "none";

function item(label: string, status: Status, text: string): HTMLLIElement {
  const li = node("li", undefined, `check ${status}`);
  li.append(node("span", status === "ok" ? "✓" : status === "bad" ? "✗" : "–", "mark"), node("span", label, "check-label"), node("span", text, "check-text"));
  return li;
}

const OPENING_SOURCE: Record<string, string> = {
  statement: "printed on the statement",
  derived: "derived from the first row",
  assumed_zero: "not printed; 0.00 was assumed",
};

/** One line per comparison the checks made, in the order a reader would verify them by hand. */
export function checkItems(s: Section): HTMLLIElement[] {
  const c = s.checks ?? {};
  const out: HTMLLIElement[] = [];
  const breakAt = c.first_break_index ?? null;
  out.push(
    s.row_wise_reconcilable
      ? item("Balance chain", "ok", `every balance follows from the one before (${plural(s.transactions.length, "row")})`)
      : item("Balance chain", "bad", breakAt !== null ? `breaks at row ${breakAt + 1}` : "does not hold"),
  );
  out.push(item("Computed totals", "none", `money in ${money(s.totals.credit)} · money out ${money(s.totals.debit)}`));
  const tri = (label: string, v: boolean | null | undefined, yes: string, no: string, absent: string) =>
    out.push(v === true ? item(label, "ok", yes) : v === false ? item(label, "bad", no) : item(label, "none", absent));
  tri("Printed totals", c.totals_match, "agree with the rows", "do not agree with the rows", "none printed");
  tri("Closing balance", c.closing_balance_match, `matches the printed ${money(s.metadata.closing_balance ?? "")}`, "differs from the printed closing balance", "none printed");
  tri("Transaction count", c.count_match, "matches the printed count", "differs from the printed count", "none printed");
  if (c.opening_balance_source) {
    out.push(item("Opening balance", c.opening_balance_source === "assumed_zero" ? "bad" : "ok", OPENING_SOURCE[c.opening_balance_source] ?? c.opening_balance_source));
  }
  if (c.kobo_rounding_rows?.length) out.push(item("Kobo rounding", "ok", `${plural(c.kobo_rounding_rows.length, "row")} off by ₦0.01 (rows ${c.kobo_rounding_rows.map((i) => i + 1).join(", ")})`));
  if (c.reversed) out.push(item("Order", "ok", "listed newest first on the statement; shown oldest first"));
  if (c.balances_derived) out.push(item("Balances", "none", "no balance column: balances were derived from the opening balance"));
  if (typeof c.marker_coverage === "number") out.push(item("Bank detection", c.marker_coverage > 0 ? "ok" : "none", `${c.marker_coverage}% of the bank's markers found`));
  return out;
}

const VERDICT_WORDS: Record<Integrity["verdict"], string> = {
  no_signals: "No signs of editing",
  review: "Review: some signs worth a look",
  likely_edited: "Likely edited after the bank made it",
};

export function renderChecks(target: HTMLElement, s: Section, integrity: Integrity | undefined): void {
  const list = node("ul", undefined, "checks-list");
  list.append(...checkItems(s));
  const parts: HTMLElement[] = [node("h3", "What was checked"), list];
  const notes = s.checks?.notes ?? [];
  if (notes.length > 0) {
    const ul = node("ul", undefined, "notes");
    ul.append(...notes.map((n) => node("li", n)));
    parts.push(node("h3", "Notes"), ul);
  }
  if (integrity) {
    const head = node("h3", "Document integrity ");
    head.append(node("span", VERDICT_WORDS[integrity.verdict] ?? integrity.verdict, `badge verdict ${integrity.verdict}`));
    parts.push(head);
    if (integrity.signals.length > 0) {
      const ul = node("ul", undefined, "signals");
      ul.append(...integrity.signals.map((g) => node("li", `${g.severity.toUpperCase()} · ${g.code}${g.page ? ` (page ${g.page})` : ""}: ${g.detail}`, `signal ${g.severity}`)));
      parts.push(ul);
    }
    const facts = [integrity.producer && `producer ${integrity.producer}`, integrity.creator && `creator ${integrity.creator}`, integrity.incremental_updates ? plural(integrity.incremental_updates, "incremental update") : ""].filter(Boolean);
    if (facts.length) parts.push(node("p", facts.join(" · "), "hint"));
  }
  target.replaceChildren(...parts);
}
