import { figure, type Figure, groupBy } from "./figure.ts";
import { partyKey } from "./parties.ts";
import type { InsightRow } from "./types.ts";

const UNNAMED = "(unnamed)";

export interface OwnTransfers {
  /** From the holder's other accounts. */
  inflow: Figure;
  /** To the holder's other accounts. */
  outflow: Figure;
}

/** Money in (the credits) and out (the debits) of some rows, each a figure with its rows. */
function inOut(rows: readonly InsightRow[]): { credit: Figure; debit: Figure } {
  return { credit: figure(rows.filter((r) => r.credit > 0n), "credit"), debit: figure(rows.filter((r) => r.debit > 0n), "debit") };
}

export const ownTransfers = (own: readonly InsightRow[]): OwnTransfers => {
  const { credit, debit } = inOut(own);
  return { inflow: credit, outflow: debit };
};

export interface LenderFlows {
  lender: string;
  disbursed: Figure;
  repaid: Figure;
}

export interface Loans {
  disbursed: Figure;
  repaid: Figure;
  lenders: LenderFlows[];
}

/** A loan row's lender: the business the vocabulary named, else the narration's party. */
const lenderOf = (r: InsightRow): string => (r.entity && !r.entity.endsWith(UNNAMED) ? r.entity : (r.enrichment.counterparty?.name ?? "Unnamed lender"));

/** Loan money in (disbursements) and out (repayments), in total and per lender. */
export function loans(rows: readonly InsightRow[]): Loans {
  const loanRows = rows.filter((r) => r.enrichment.category === "loan");
  const lenders = [...groupBy(loanRows, lenderOf).entries()].map(([lender, list]) => {
    const { credit, debit } = inOut(list);
    return { lender, disbursed: credit, repaid: debit };
  });
  const { credit, debit } = inOut(loanRows);
  return { disbursed: credit, repaid: debit, lenders };
}

export interface Betting {
  /** Money sent to betting operators. */
  staked: Figure;
  /** Money received from them. */
  won: Figure;
  operators: { operator: string; staked: Figure; won: Figure }[];
}

export function betting(rows: readonly InsightRow[]): Betting {
  const bets = rows.filter((r) => r.enrichment.category === "betting");
  const operators = [...groupBy(bets, (r) => (r.entity && !r.entity.endsWith(UNNAMED) ? r.entity : "Unnamed operator")).entries()].map(([operator, list]) => {
    const { credit, debit } = inOut(list);
    return { operator, staked: debit, won: credit };
  });
  const { credit, debit } = inOut(bets);
  return { staked: debit, won: credit, operators };
}

export interface Counterparty {
  name: string;
  bank: string | null;
  inflow: Figure;
  outflow: Figure;
}

const TOP = 10;

/** The parties the most money moved with (in plus out), largest first; only rows whose narration names a party. */
export function largestCounterparties(rows: readonly InsightRow[]): Counterparty[] {
  const named = rows.filter((r) => r.enrichment.counterparty !== null && (r.credit > 0n || r.debit > 0n));
  const parties = [...groupBy(named, partyKey).values()].map((list) => ({ list, moved: list.reduce((s, r) => s + r.credit + r.debit, 0n) }));
  // Figures are made for the TOP parties only (a large statement names thousands).
  return parties
    .sort((a, b) => (a.moved === b.moved ? 0 : a.moved > b.moved ? -1 : 1))
    .slice(0, TOP)
    .map(({ list }) => {
      const first = list[0] as InsightRow;
      return { name: first.enrichment.counterparty?.name ?? "", bank: list.find((r) => r.enrichment.counterparty?.bank)?.enrichment.counterparty?.bank ?? null, inflow: figure(list.filter((r) => r.credit > 0n), "credit"), outflow: figure(list.filter((r) => r.debit > 0n), "debit") };
    });
}
