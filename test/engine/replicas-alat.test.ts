/**
 * Class 3 of issue 24: Wema ALAT exports (HiQPdf). The layout replicas parse exactly against their
 * truth files, and each rule they needed holds on small synthetic pages, with its negative case:
 * - a heading label wrapped onto a line of its own ("Reference" / "Number") stays out of the rows;
 * - a narration wrapped after a spaced hyphen ("... ETIM -" / "transport") keeps the hyphen as text;
 * - the printed "Opening Balance" that is the balance after the first row gives way to the opening
 *   the rows chain from, and the checks say so.
 */
import { describe, expect, test } from "bun:test";
import { assembleStatement } from "../../src/engine/index.ts";
import { loadTruth, parseReplica, replicaDifferences } from "../helpers/replica-truth.ts";
import { page, pdfDoc } from "./layout-helpers.ts";

describe("ALAT replicas parse exactly", () => {
  for (const name of ["alat_short.pdf", "alat_long.pdf"]) {
    test(name, async () => {
      const truth = loadTruth(name);
      const r = await parseReplica(name);
      expect(replicaDifferences(r, truth)).toEqual([]);
      expect(r.row_wise_reconcilable).toBe(true);
      expect(r.checks.row_chain).toBe(true);
      expect(r.checks.totals_match).toBe(true);
      expect(r.checks.count_match).toBe(true);
      expect(r.checks.closing_balance_match).toBe(true);
      // The printed opening is the balance after row 1: the chain's opening is reported, and why.
      expect(r.checks.opening_balance_source).toBe("derived");
      const printed = (truth.sections[0] as unknown as { printed_opening_balance: string }).printed_opening_balance;
      expect(r.checks.notes.some((n) => n.includes(`printed opening balance ${printed} is not the balance before the first row`))).toBe(true);
      expect(r.checks.assumed?.some((a) => a.includes(truth.sections[0]!.opening_balance!))).toBe(true);
      expect(r.checks.verdict).toBe("partial");
      // No heading word leaked into a reference.
      expect(r.transactions.filter((t) => /Number/.test(t.reference))).toEqual([]);
    });
  }
});

type Row = [number, ...[number, string][]];
const HEADING_ABOVE: Row = [94, [80, "Reference"]];
const HEADING: Row = [100, [20, "Date"], [150, "Transaction Details"], [400, "Credit"], [460, "Debit"], [520, "Balance"]];
const HEADING_BELOW: Row = [106, [80, "Number"]];
/** The same heading on one line. */
const ONE_LINE: Row = [100, [20, "Date"], [80, "Reference"], [150, "Transaction Details"], [400, "Credit"], [460, "Debit"], [520, "Balance"]];

describe("a heading label wrapped onto a line of its own", () => {
  test("is read as part of the heading, not as the end of the last row of the page before", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [HEADING_ABOVE, HEADING, HEADING_BELOW, [130, [20, "01-Jan-2026"], [80, "S100"], [150, "AIRTIME"], [460, "100.00"], [520, "900.00"]]]),
        page(2, [HEADING_ABOVE, HEADING, HEADING_BELOW, [130, [20, "02-Jan-2026"], [80, "S200"], [150, "SMS"], [460, "4.00"], [520, "896.00"]]]),
      ),
    );
    expect(r.transactions.map((t) => t.reference)).toEqual(["S100", "S200"]);
  });

  test("a row's wrapped text under a repeated heading, spaced like the rows, still continues the row", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [ONE_LINE, [112, [20, "01-Jan-2026"], [80, "S100"], [150, "TRANSFER TO ADA"], [460, "100.00"], [520, "900.00"]]]),
        // 12 pt under the heading, and the next row 12 pt further: a row's line, not a heading's.
        page(2, [ONE_LINE, [112, [80, "X1"], [150, "OKAFOR"]], [124, [20, "02-Jan-2026"], [80, "S200"], [150, "SMS"], [460, "4.00"], [520, "896.00"]]]),
      ),
    );
    expect(r.transactions.map((t) => [t.narration, t.reference])).toEqual([
      ["TRANSFER TO ADA OKAFOR", "S100X1"],
      ["SMS", "S200"],
    ]);
  });
});

describe("a hyphen that ends a wrapped narration line", () => {
  test("is punctuation of the narration, not an empty-amount mark", () => {
    const r = assembleStatement(
      pdfDoc(
        page(1, [
          ONE_LINE,
          [120, [20, "01-Jan-2026"], [150, "TRANSFER TO ADA FROM EMEKA -"]],
          [126, [80, "S100"], [460, "4,000.00"], [520, "6,000.00"]],
          [132, [150, "transport"]],
          [150, [20, "02-Jan-2026"], [150, "SMS"]],
          [156, [80, "S200"], [460, "4.00"], [520, "5,996.00"]],
        ]),
      ),
    );
    expect(r.transactions.map((t) => [t.narration, t.debit])).toEqual([
      ["TRANSFER TO ADA FROM EMEKA - transport", "4000.00"],
      ["SMS", "4.00"],
    ]);
  });

  test("a dash standing alone in an amount column is still an empty amount", () => {
    const r = assembleStatement(
      pdfDoc(page(1, [ONE_LINE, [120, [20, "01-Jan-2026"], [150, "SMS"], [400, "-"], [460, "4.00"], [520, "996.00"]]])),
    );
    expect(r.transactions.map((t) => [t.narration, t.credit, t.debit])).toEqual([["SMS", "0.00", "4.00"]]);
  });
});
