import type { Kobo } from "../money.ts";
import { KOBO_TOLERANCE } from "./link.ts";

/**
 * Two sections of one statement (a wallet and its savings pocket) can pay one transaction
 * together: a wallet payment larger than the wallet prints its full amount while the wallet
 * balance stops at 0.00, and the savings section prints a row at the same time whose balance
 * falls only by the shortfall. Each section's chain breaks at that row, by exactly what the
 * other section's row moved. The rule: rows of two sections with the same timestamp link when
 * each one's break equals, to the kobo, the other's own balance movement. The two breaks are then
 * explained (money moved between the sections), no printed number changes, and the link is
 * reported with both rows and the amount.
 */

/** One row of a section in chain order, with the balance the chain stood at before it. */
export interface SectionRow {
  /** Same value means same timestamp (ISO date-time as printed). */
  time: string;
  debit: Kobo;
  credit: Kobo;
  balance: Kobo;
}

export interface SectionLedger {
  opening: Kobo;
  rows: SectionRow[];
}

/** A break explained by a row of another section; `amount` is what that row supplied to this one's chain. */
export interface CrossSectionLink {
  section: number;
  row: number;
  otherSection: number;
  otherRow: number;
  amount: Kobo;
}

interface Step {
  /** Printed balance minus what the row's own amounts lead to (0 when the row chains). */
  gap: Kobo;
  /** How the printed balance moved at this row. */
  moved: Kobo;
}

function steps(s: SectionLedger): Step[] {
  let prev = s.opening;
  return s.rows.map((r) => {
    const step = { gap: r.balance - (prev + r.credit - r.debit), moved: r.balance - prev };
    prev = r.balance;
    return step;
  });
}

/**
 * Every link between breaking rows of different sections (each row links at most once). A row
 * whose break is not matched exactly by a row of another section at the same time stays a break.
 */
export function crossSectionLinks(sections: SectionLedger[]): CrossSectionLink[] {
  const all = sections.map(steps);
  const used = new Set<string>();
  const links: CrossSectionLink[] = [];
  // A 1-kobo gap is a rounded charge the chain accepts (link.ts), not a break to explain.
  const breaks = all.flatMap((st, s) => st.flatMap((x, i) => ((x.gap < 0n ? -x.gap : x.gap) > KOBO_TOLERANCE ? [{ s, i }] : [])));
  for (const a of breaks) {
    if (used.has(`${a.s}:${a.i}`)) continue;
    const sa = all[a.s]![a.i]!;
    const time = sections[a.s]!.rows[a.i]!.time;
    const match = breaks.find((b) => {
      if (b.s === a.s || used.has(`${b.s}:${b.i}`) || sections[b.s]!.rows[b.i]!.time !== time) return false;
      const sb = all[b.s]![b.i]!;
      // Each side's missing movement is what the other side's balance actually gave up (or took).
      return sa.gap === -sb.moved && sb.gap === -sa.moved;
    });
    if (!match) continue;
    used.add(`${a.s}:${a.i}`).add(`${match.s}:${match.i}`);
    links.push({ section: a.s, row: a.i, otherSection: match.s, otherRow: match.i, amount: sa.gap });
    links.push({ section: match.s, row: match.i, otherSection: a.s, otherRow: a.i, amount: all[match.s]![match.i]!.gap });
  }
  return links;
}

/** Whether every break of section `s` is explained by a link. */
export function chainsWithLinks(section: SectionLedger, s: number, links: CrossSectionLink[]): boolean {
  const linked = new Set(links.filter((l) => l.section === s).map((l) => l.row));
  return steps(section).every((x, i) => (x.gap < 0n ? -x.gap : x.gap) <= KOBO_TOLERANCE || linked.has(i));
}
