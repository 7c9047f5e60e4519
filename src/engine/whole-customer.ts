/**
 * A first page that sums every pocket of the customer (Kuda: Spend plus Save) prints opening and
 * closing balances that no one section has. reconcile.ts takes the section's own figures and lists
 * the first-page ones as assumed to be the whole customer's; here, across sections, that assumption
 * is checked: when the sections' own figures add up to the first-page one exactly, it is a printed
 * figure that agrees, and the assumption gives way to a note.
 */
import { formatKobo, type Kobo, parseAmount } from "./money.ts";
import { widerAssumption, widerFigures } from "./reconcile.ts";
import type { AccountSection } from "./types.ts";

export function settleWholeCustomerFigures(sections: AccountSection[]): void {
  if (sections.length < 2) return;
  const sum = (pick: (s: AccountSection) => string): Kobo | null => {
    let total = 0n;
    for (const s of sections) {
      const k = parseAmount(pick(s))?.kobo;
      if (k === undefined) return null;
      total += k;
    }
    return total;
  };
  const totals = { opening: sum((s) => s.metadata.opening_balance), closing: sum((s) => s.metadata.closing_balance) };
  for (const s of sections) {
    const wider = widerFigures(s.checks);
    if (!wider) continue;
    for (const what of ["opening", "closing"] as const) {
      const figure = wider[what];
      if (figure === null || totals[what] !== figure) continue;
      const assumption = widerAssumption(what, figure);
      s.checks.assumed = s.checks.assumed.filter((a) => a !== assumption);
      s.checks.notes.push(`The first printed ${what} balance ${formatKobo(figure)} is the sum of the ${sections.length} sections' ${what} balances: the whole customer's.`);
    }
  }
}
