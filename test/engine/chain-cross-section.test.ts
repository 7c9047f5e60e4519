/**
 * chain/cross-section.ts: a row of one section links to a row of another only when both share a
 * timestamp and each one's chain break is exactly the other's own balance movement.
 */
import { describe, expect, test } from "bun:test";
import { chainsWithLinks, crossSectionLinks, type SectionLedger } from "../../src/engine/chain/cross-section.ts";

const T = "2025-05-11T13:11:34+01:00";
const row = (time: string, debit: bigint, credit: bigint, balance: bigint) => ({ time, debit, credit, balance });

// Wallet at 500.34 pays 520.34: it prints the full amount and stops at 0.00. Savings at 1,000.00
// prints the same payment while its balance falls only by the 20.00 shortfall.
const wallet: SectionLedger = { opening: 0n, rows: [row("2025-05-11T10:00:00+01:00", 0n, 50034n, 50034n), row(T, 52034n, 0n, 0n), row("2025-05-12T09:00:00+01:00", 0n, 1000n, 1000n)] };
const savings: SectionLedger = { opening: 100000n, rows: [row(T, 52034n, 0n, 98000n), row("2025-05-12T01:00:00+01:00", 0n, 6n, 98006n)] };

describe("crossSectionLinks", () => {
  test("an auto-draw links the wallet row and the savings row, both ways, with what each supplied", () => {
    const links = crossSectionLinks([wallet, savings]);
    expect(links).toEqual([
      { section: 0, row: 1, otherSection: 1, otherRow: 0, amount: 2000n },
      { section: 1, row: 0, otherSection: 0, otherRow: 1, amount: 50034n },
    ]);
    expect(chainsWithLinks(wallet, 0, links)).toBe(true);
    expect(chainsWithLinks(savings, 1, links)).toBe(true);
  });

  test("amounts one kobo off do not link, and the breaks stay", () => {
    const off: SectionLedger = { ...savings, rows: [row(T, 52034n, 0n, 97999n), savings.rows[1]!] };
    const links = crossSectionLinks([wallet, off]);
    expect(links).toEqual([]);
    expect(chainsWithLinks(wallet, 0, links)).toBe(false);
  });

  test("rows at different times do not link, even when the amounts match", () => {
    const later: SectionLedger = { ...savings, rows: [row("2025-05-11T13:11:35+01:00", 52034n, 0n, 98000n), savings.rows[1]!] };
    expect(crossSectionLinks([wallet, later])).toEqual([]);
  });

  test("two breaks of the same section never link to each other", () => {
    const both: SectionLedger = { opening: 0n, rows: [row(T, 100n, 0n, 50n), row(T, 0n, 100n, 0n)] };
    expect(crossSectionLinks([both])).toEqual([]);
  });

  test("sections that chain on their own have nothing to link", () => {
    expect(crossSectionLinks([{ opening: 0n, rows: [row(T, 0n, 100n, 100n)] }, { opening: 0n, rows: [row(T, 0n, 5n, 5n)] }])).toEqual([]);
  });
});
