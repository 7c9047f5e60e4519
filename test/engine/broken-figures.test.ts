import { describe, expect, test } from "bun:test";
import { stitchBrokenFigures } from "../../src/engine/layout/broken-figures.ts";
import { pageLines } from "../../src/engine/layout/lines.ts";
import { page } from "./layout-helpers.ts";

/** Each line's cells as [text, kind] after the repair. */
const stitched = (lines: Parameters<typeof page>[1]) => stitchBrokenFigures(pageLines(page(1, lines))).map((l) => l.cells.map((c) => [c.text, c.kind]));

describe("stitchBrokenFigures", () => {
  test("a figure wrapped inside its decimals is put back on its first line", () => {
    // LibreOffice Writer in a narrow cell: `+145,207.7` over `8`, a reference's last digit beside.
    expect(stitched([[100, [140, "TRX72583073377"], [300, "+145,207.7"]], [106, [140, "6"], [318, "8"]]])).toEqual([
      [["TRX72583073377", "text"], ["+145,207.78", "money"]],
      [["6", "integer"]],
    ]);
    // Cut at the decimal point, a parenthesised debit's two digits and its parenthesis wrapped.
    expect(stitched([[100, [300, "(1,234."]], [106, [300, "56)"]]])).toEqual([[["(1,234.56)", "money"]], []]);
  });

  test("a whole figure, a rest of the wrong length, or one not under the figure is left alone", () => {
    expect(stitched([[100, [300, "145,207.78"]], [106, [318, "8"]]])).toEqual([[["145,207.78", "money"]], [["8", "integer"]]]);
    expect(stitched([[100, [300, "145,207.7"]], [106, [318, "85"]]])).toEqual([[["145,207.7", "money"]], [["85", "integer"]]]);
    expect(stitched([[100, [300, "145,207.7"]], [106, [400, "8"]]])).toEqual([[["145,207.7", "money"]], [["8", "integer"]]]);
  });

  test("the rest is looked for only on the first line with anything under the figure, close below it", () => {
    // Another cell under the figure first: the next row's figure, not the rest.
    expect(stitched([[100, [300, "145,207.7"]], [106, [300, "1,000.00"]], [112, [318, "8"]]])[0]).toEqual([["145,207.7", "money"]]);
    // Too far below (more than 2.2 glyph heights).
    expect(stitched([[100, [300, "145,207.7"]], [120, [318, "8"]]])[0]).toEqual([["145,207.7", "money"]]);
  });
});
