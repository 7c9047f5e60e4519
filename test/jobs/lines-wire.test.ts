/**
 * The columnar lines form that crosses between parse workers (src/jobs/lines-wire.ts) gives back
 * exactly the lines it was given: on every page of the PDF corpus (fixtures with the real samples, producers),
 * after date stitching (which adds `bottom`), for sheet rows, and for the values JSON would lose.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import { type Line, pageLines, sheetLines } from "../../src/engine/layout/lines.ts";
import { stitchBrokenDates } from "../../src/engine/layout/stitch.ts";
import { openPdf, readPage } from "../../src/engine/pdf/extract.ts";
import { decodeLines, encodeLines, LinesEncoder, type LinesWire } from "../../src/jobs/lines-wire.ts";

const ROOT = join(import.meta.dir, "../..");
const CORPUS = [join(ROOT, "fixtures"), join(ROOT, "test/engine/producers"), join(ROOT, "test/engine/data")];

function pdfsUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return pdfsUnder(p);
    return n.endsWith(".pdf") ? [p] : [];
  });
}

/** Lines of every page of a PDF that opens without a password; null for one that does not. */
async function linesOf(file: string): Promise<Line[] | null> {
  const pdf = await openPdf(new Uint8Array(readFileSync(file))).catch(() => null);
  if (!pdf) return null;
  try {
    const lines: Line[] = [];
    for (let n = 1; n <= pdf.numPages; n++) lines.push(...pageLines(await readPage(pdf, n)));
    return lines;
  } finally {
    await pdf.destroy();
  }
}

/** Through a real structured clone, as between worker threads. */
function overThreads(wire: LinesWire): LinesWire {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(wire);
  const cloned = receiveMessageOnPort(port2)!.message as LinesWire;
  port1.close();
  return cloned;
}

const roundTrip = (lines: Line[]) => decodeLines(overThreads(encodeLines(lines)));

describe("lines wire form", () => {
  test("every page of the PDF corpus comes back exactly, before and after date stitching", async () => {
    const files = CORPUS.flatMap(pdfsUnder);
    let read = 0;
    let lineCount = 0;
    let stitched = 0;
    for (const file of files) {
      const lines = await linesOf(file);
      if (!lines) continue;
      read++;
      lineCount += lines.length;
      expect({ file, lines: roundTrip(lines) }).toStrictEqual({ file, lines });
      // Added a few lines at a time (as a range task adds each page's), the same wire form.
      const encoder = new LinesEncoder();
      for (let k = 0; k < lines.length; k += 7) encoder.add(lines.slice(k, k + 7));
      expect(encoder.finish()).toStrictEqual(encodeLines(lines));
      const after = stitchBrokenDates(lines);
      stitched += after.filter((l) => l.bottom !== undefined).length;
      expect({ file, lines: roundTrip(after) }).toStrictEqual({ file, lines: after });
    }
    // The corpus is there and was read (a wrong path would make this test vacuous).
    expect(read).toBeGreaterThan(100);
    expect(lineCount).toBeGreaterThan(5_000);
    expect(stitched).toBeGreaterThan(0);
  }, 240_000);

  test("sheet rows, empty lines and text that is not the cells joined", () => {
    const sheet = sheetLines({ name: "s", rows: [["01/02/2024", "Opening  balance", "1,000.00 CR"], [], ["x", null, "-"]] } as never, 0);
    expect(roundTrip(sheet)).toStrictEqual(sheet);
    const odd: Line[] = [
      { page: 1, y: 0, h: 1, cells: [], text: "", pageWidth: 1, source: "pdf" },
      { page: 2, y: -0, h: Number.NaN, cells: [{ text: "₦ 5", x0: -0, x1: Infinity, kind: "money" }, { text: "A B", x0: 1, x1: 2, kind: "text", words: [{ text: "A", x0: 1, x1: 1.5 }, { text: "Z", x0: 1.6, x1: 2 }] }], text: "something else", pageWidth: 595.5, source: "pdf", bottom: 12.25 },
      { page: 3, y: 1, h: 1, cells: [{ text: "", x0: 0, x1: 0, kind: "empty", words: [] }], text: "", pageWidth: 1, source: "sheet" },
    ];
    const back = roundTrip(odd);
    expect(back).toStrictEqual(odd);
    // toStrictEqual treats -0 and 0 alike; JSON would turn -0 into 0 and NaN into null.
    expect(Object.is(back[1]!.y, -0)).toBe(true);
    expect(Object.is(back[1]!.cells[0]!.x0, -0)).toBe(true);
    expect(back[1]!.h).toBeNaN();
    expect(Object.keys(back[1]!)).toEqual(Object.keys(odd[1]!));
    expect(Object.keys(back[1]!.cells[1]!)).toEqual(Object.keys(odd[1]!.cells[1]!));
  });

  test("the wire form is typed arrays and one string", () => {
    const wire = overThreads(encodeLines(sheetLines({ name: "s", rows: [["a", "b"]] } as never, 0)));
    expect(wire.ints).toBeInstanceOf(Int32Array);
    expect(wire.nums).toBeInstanceOf(Float64Array);
    expect(typeof wire.text).toBe("string");
    expect(decodeLines(encodeLines([]))).toEqual([]);
  });
});
