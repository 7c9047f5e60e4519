import { chainsWithLinks, crossSectionLinks, type SectionLedger } from "../chain/cross-section.ts";
import { formatKobo, type Kobo, parseAmount } from "../money.ts";
import type { AccountSection } from "../types.ts";
import { printedContradicts } from "../verdict.ts";
import type { ReadSection } from "./read.ts";

/**
 * Checks that need every section of a statement at once (a wallet and its savings pocket):
 * - breaks of two sections explained by each other (chain/cross-section.ts: an auto-draw that paid
 *   one transaction from both), reported in `checks.cross_section_links`;
 * - header totals and counts printed once for the whole statement, which agree with the sum of the
 *   sections rather than with the first section alone.
 * Both only ever turn a disagreement into an explained agreement when the figures match to the
 * kobo; no printed number is changed.
 */
export function checkAcrossSections(read: ReadSection[]): void {
  if (read.length < 2) return;
  linkSections(read.map((r) => r.section));
  checkStatementTotals(read);
}

const kobo = (text: string): Kobo => parseAmount(text)?.kobo ?? 0n;

/** Sections whose every balance is printed (a derived balance chains by construction and says nothing). */
function ledgerOf(s: AccountSection): SectionLedger | null {
  if (s.transactions.length === 0 || s.checks.balances_derived) return null;
  return {
    opening: kobo(s.metadata.opening_balance),
    rows: s.transactions.map((t) => ({ time: t.date, debit: kobo(t.debit), credit: kobo(t.credit), balance: kobo(t.balance) })),
  };
}

function linkSections(sections: AccountSection[]): void {
  const ledgers = sections.map(ledgerOf);
  const present = ledgers.flatMap((l, s) => (l ? [s] : []));
  if (present.length < 2) return;
  const links = crossSectionLinks(present.map((s) => ledgers[s]!)).map((l) => ({ ...l, section: present[l.section]!, otherSection: present[l.otherSection]! }));
  if (links.length === 0) return;
  sections.forEach((section, s) => {
    const own = links.filter((l) => l.section === s);
    if (own.length === 0) return;
    const c = section.checks;
    c.cross_section_links = own.map((l) => ({ row: l.row, other_section: l.otherSection, other_row: l.otherRow, amount: formatKobo(l.amount) }));
    const rowsListed = own.slice(0, 5).map((l) => `row ${l.row + 1} (${formatKobo(l.amount)} from row ${l.otherRow + 1} of section ${l.otherSection + 1})`).join(", ");
    c.notes.push(`${own.length} row(s) break this section's chain by exactly what a row of another section at the same time moved (one transaction paid from both): ${rowsListed}${own.length > 5 ? ", ..." : ""}; see cross_section_links. No number was changed.`);
    if (c.row_chain || !chainsWithLinks(ledgers[s]!, s, links)) return;
    const firstBreak = c.first_break_index;
    c.row_chain = true;
    c.first_break_index = null;
    // The reconciler's note on the first break is answered by the link.
    if (firstBreak !== null) c.notes = c.notes.filter((n) => !n.startsWith(`Row ${firstBreak + 1}: balance`));
    section.row_wise_reconcilable = !printedContradicts(c);
  });
}

/**
 * The first section's printed totals and counts are the statement's (a header card above every
 * section) when they disagree with its own rows and agree with all sections' rows together.
 */
function checkStatementTotals(read: ReadSection[]): void {
  const first = read[0]!;
  const c = first.section.checks;
  const f = first.facts;
  if (c.totals_match !== false && c.count_match !== false) return;
  if (f.totalDebit === null && f.totalCredit === null && f.debitCount === null && f.creditCount === null) return;
  let debit = 0n;
  let credit = 0n;
  let debits = 0;
  let credits = 0;
  for (const r of read) {
    for (const t of r.section.transactions) {
      const d = kobo(t.debit);
      const k = kobo(t.credit);
      debit += d;
      credit += k;
      if (d > 0n) debits++;
      if (k > 0n) credits++;
    }
  }
  const abs = (k: Kobo) => (k < 0n ? -k : k);
  const agree = (f.totalDebit === null || abs(f.totalDebit) === debit) && (f.totalCredit === null || abs(f.totalCredit) === credit) && (f.debitCount === null || f.debitCount === debits) && (f.creditCount === null || f.creditCount === credits);
  if (!agree) return;
  const printed = [f.totalDebit !== null ? `total debit ${formatKobo(abs(f.totalDebit))}` : "", f.totalCredit !== null ? `total credit ${formatKobo(abs(f.totalCredit))}` : "", f.debitCount !== null ? `${f.debitCount} debits` : "", f.creditCount !== null ? `${f.creditCount} credits` : ""].filter(Boolean).join(", ");
  c.notes = c.notes.filter((n) => !/^Printed (?:total debit|total credit|counts) /.test(n));
  c.notes.push(`The printed ${printed} cover all ${read.length} sections together and agree with the sum of their rows.`);
  if (f.totalDebit !== null || f.totalCredit !== null) c.totals_match = true;
  if (f.debitCount !== null || f.creditCount !== null) c.count_match = true;
  c.statement_totals_match = true;
  if (c.row_chain && !printedContradicts(c) && !first.section.checks.balances_derived) first.section.row_wise_reconcilable = true;
}
