import { describe, expect, test } from "bun:test";
import { splitTyped, tokensOf } from "../../src/engine/layout/cells.ts";
import { cutAtColumnEdges } from "../../src/engine/layout/columns.ts";
import type { Column } from "../../src/engine/layout/header.ts";
import type { Line } from "../../src/engine/layout/lines.ts";

/** The definition tokensOf implements by hand: runs of `\S`, extents in proportion to character offsets. */
function byRegex(text: string, x0: number, x1: number) {
  const width = Math.max(0, x1 - x0);
  const len = text.length || 1;
  const r2 = (v: number) => Math.round(v * 100) / 100;
  return [...text.matchAll(/\S+/g)].map((m) => ({ text: m[0], x0: r2(x0 + (width * m.index) / len), x1: r2(x0 + (width * (m.index + m[0].length)) / len) }));
}

describe("tokensOf", () => {
  test("splits at exactly the characters \\s matches: every UTF-16 unit between two letters", () => {
    const differ: number[] = [];
    for (let c = 0; c < 0x10000; c++) {
      const s = `ab${String.fromCharCode(c)}cd`;
      if (JSON.stringify(tokensOf(s, 3, 40)) !== JSON.stringify(byRegex(s, 3, 40))) differ.push(c);
    }
    expect(differ).toEqual([]);
  });

  test("leading, trailing and repeated spaces of mixed kinds, empty text and a zero width", () => {
    for (const s of ["", "   ", " a", "a ", "a \u00a0\t b", "\u3000x\u2028y\ufeff", "₦1,200.00  CR", "\ud83d\ude00 z"]) {
      expect(tokensOf(s, 100, 180)).toEqual(byRegex(s, 100, 180));
      expect(tokensOf(s, 50, 50)).toEqual(byRegex(s, 50, 50));
    }
  });
});

describe("tokensOf in proportional text", () => {
  test("places words by their characters' likely widths: after a run of capitals, before a narrow space", () => {
    // Helvetica at 10 points: "WWW" is 28.32 wide, a space 2.78, "iii" 6.66; 37.76 in all.
    const [a, b] = tokensOf("WWW iii", 0, 37.76, true);
    expect(a).toEqual({ text: "WWW", x0: 0, x1: 28.32 });
    expect(b).toEqual({ text: "iii", x0: 31.1, x1: 37.76, guessed: true });
    // Spread evenly over the characters instead, "iii" would start at 21.58.
    expect(tokensOf("WWW iii", 0, 37.76)[1]!.x0).toBe(21.58);
  });

  test("a single word keeps its measured extent, unflagged", () => {
    expect(tokensOf("Balance", 10, 40, true)).toEqual([{ text: "Balance", x0: 10, x1: 40 }]);
  });
});

describe("cutAtColumnEdges", () => {
  const columns: Column[] = [
    { role: "date", label: "Date", x0: 10, x1: 60 },
    { role: "narration", label: "Narration", x0: 70, x1: 200 },
    { role: "reference", label: "Reference", x0: 210, x1: 300 },
  ];
  const words = [
    { text: "TRANSFER", x0: 70, x1: 110 },
    { text: "BALOGUN", x0: 114, x1: 150 },
    { text: "000015245662", x0: 210, x1: 280 },
  ];
  const line = (cellWords: typeof words): Line => ({
    page: 1, y: 100, h: 10, pageWidth: 600, source: "pdf", text: cellWords.map((w) => w.text).join(" "),
    cells: [{ text: cellWords.map((w) => w.text).join(" "), x0: cellWords[0]!.x0, x1: cellWords.at(-1)!.x1, kind: "text", words: cellWords }],
  });

  test("a run crossing a text column's left edge is cut there", () => {
    const cut = cutAtColumnEdges(line(words), columns);
    expect(cut.cells.map((c) => c.text)).toEqual(["TRANSFER BALOGUN", "000015245662"]);
  });

  test("a line with nothing to cut comes back as the same object", () => {
    const whole = line(words.slice(0, 2));
    expect(cutAtColumnEdges(whole, columns)).toBe(whole);
  });

  test("an estimated word a little short of a column's edge starts it when it lies mostly past the edge", () => {
    // One drawn string: words a word space (~3 points) apart, the last estimated 4 points (0.4
    // glyph heights) before Reference's edge at 210.
    const run = (last: { text: string; x0: number; x1: number }[], guessed: boolean) =>
      line([{ text: "TRANSFER", x0: 70, x1: 110 }, { text: "BALOGUN", x0: 113, x1: last[0]!.x0 - 3 }, ...last.map((w) => (guessed ? { ...w, guessed: true as const } : w))]);
    expect(cutAtColumnEdges(run([{ text: "Successful", x0: 206, x1: 250 }], true), columns).cells.map((c) => c.text)).toEqual(["TRANSFER BALOGUN", "Successful"]);
    // Measured there, it is a word of the narration that runs on.
    expect(cutAtColumnEdges(run([{ text: "Successful", x0: 206, x1: 250 }], false), columns).cells).toHaveLength(1);
    // Measured, after a gap wider than a word space and mostly past the edge: the column's first word.
    const gapped = line([{ text: "TRANSFER", x0: 70, x1: 110 }, { text: "BALOGUN", x0: 113, x1: 190 }, { text: "Successful", x0: 206, x1: 250 }]);
    expect(cutAtColumnEdges(gapped, columns).cells.map((c) => c.text)).toEqual(["TRANSFER BALOGUN", "Successful"]);
    // Mostly before the edge (a narration's last word ending there): not cut.
    expect(cutAtColumnEdges(run([{ text: "Lagos", x0: 196, x1: 212 }], true), columns).cells).toHaveLength(1);
  });
});

describe("a fixed-width report's cells one space apart", () => {
  const line = (cells: Line["cells"]): Line => ({ page: 1, y: 100, h: 10, pageWidth: 600, source: "pdf", fixedWidth: true, text: cells.map((c) => c.text).join(" "), cells });
  const columns: Column[] = [
    { role: "date", label: "Date", x0: 10, x1: 60 },
    { role: "reference", label: "Reference", x0: 66, x1: 150 },
    { role: "debit", label: "Debit", x0: 156, x1: 200 },
    { role: "balance", label: "Balance", x0: 206, x1: 260 },
  ];
  const run = (words: { text: string; x0: number; x1: number }[]) => ({ text: words.map((w) => w.text).join(" "), x0: words[0]!.x0, x1: words.at(-1)!.x1, kind: "text" as const, words });
  const reference = { text: "TRX772887706756", x0: 66, x1: 150 };
  const dash = { text: "-", x0: 156, x1: 162 };

  test("a placeholder dash ending a run on a line of figures is cut off at its money column", () => {
    const cut = cutAtColumnEdges(line([{ text: "03/01/26", x0: 10, x1: 58, kind: "date" }, run([reference, dash]), { text: "155,107.69", x0: 206, x1: 260, kind: "money" }]), columns);
    expect(cut.cells.map((c) => [c.text, c.kind])).toEqual([["03/01/26", "date"], ["TRX772887706756", "text"], ["-", "empty"], ["155,107.69", "money"]]);
  });

  test("on a line of text alone (no figures) the dash is the text's", () => {
    const cut = cutAtColumnEdges(line([run([reference, dash])]), columns);
    expect(cut.cells.map((c) => c.text)).toEqual(["TRX772887706756 -"]);
  });

  test("a serial number before a month-first date is a number beside it, not the date's day", () => {
    const cells = splitTyped(tokensOf("10 Jan 5, 2026", 36, 99));
    expect(cells.map((c) => [c.text, c.kind])).toEqual([["10", "integer"], ["Jan 5, 2026", "date"]]);
    // A day and month alone still read as a date without its year.
    expect(splitTyped(tokensOf("10 Jan", 36, 63)).map((c) => c.kind)).toEqual(["date"]);
  });

  test("so is one before a month-first date whose year wrapped to the cell's next line", () => {
    // `Jan 5,` is `Jan 5, 2026` cut before its year: the comma after the day is where it was.
    const cells = splitTyped(tokensOf("11 Jan 5, Jan", 36, 120));
    expect(cells.map((c) => [c.text, c.kind])).toEqual([["11", "integer"], ["Jan 5,", "date"], ["Jan", "text"]]);
    // Without that comma the day and month before it still read as a date.
    expect(splitTyped(tokensOf("11 Jan 5", 36, 80)).map((c) => c.text)).toContain("11 Jan");
  });
});
