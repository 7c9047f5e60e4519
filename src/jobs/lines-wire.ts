import type { Cell, CellKind, Token } from "../engine/layout/cells.ts";
import type { Line } from "../engine/layout/lines.ts";

/**
 * Layout lines in a columnar form for the hop between workers (a helper's lines to the task that
 * assembles). As JSON text, a 1,000-page range of the bench statement cost 260-320 ms
 * (stringify in one worker, parse in the other); this form, 80-110 ms, now ~50: a few typed arrays
 * in shared memory (the messages share them, see finish) and one string, and decoding only slices
 * that string.
 *
 * Round trip is exact: every number is a float64 (so -0, NaN and Infinity survive, unlike JSON),
 * every string comes back equal, and optional fields (`fixedWidth`, `bottom`, `continuedOn`, `words`, `guessed`) are present exactly when
 * they were. Objects are rebuilt with the keys in the order pageLines builds them.
 */
export interface LinesWire {
  /**
   * Per line: flags (LINE_*), cell count. Per cell: kind (index in KINDS), text offset, text
   * length, word count (-1: no `words`). Per word: text offset, text length, 1 if `guessed`. Then the line's own
   * text: offset, length.
   */
  ints: Int32Array;
  /** Per line: page, y, h, pageWidth, then bottom if LINE_BOTTOM, then continuedOn's page and y if LINE_CONTINUED. Per cell: x0, x1. Per word: x0, x1. */
  nums: Float64Array;
  /** The strings the offsets point into. */
  text: string;
  /**
   * A helper's scan of its pages when they are the document's last (engine/parallel/tail-scan.ts,
   * JSON text over these lines in page order), for the planning task to join to its own.
   */
  tail?: string;
}

const KINDS: readonly CellKind[] = ["date", "time", "money", "empty", "integer", "drcr", "text"];
const KIND_INDEX = new Map(KINDS.map((k, i) => [k, i]));

const LINE_SHEET = 1;
const LINE_BOTTOM = 2;
const LINE_CONTINUED = 4;
const LINE_FIXED = 8;

/** The string blob, built by appending; offsets are UTF-16 code units, as `slice` reads them. */
class Strings {
  private readonly parts: string[] = [];
  private length = 0;

  /** Appends `s`; answers its offset. */
  add(s: string): number {
    const at = this.length;
    this.parts.push(s);
    this.length += s.length;
    return at;
  }

  join(): string {
    return this.parts.join("");
  }
}

/** First capacity of the number arrays; they double as lines come (a page is ~40 lines, ~700 ints). */
const INITIAL_CAPACITY = 4096;

/**
 * Encodes lines as they are built, page by page: a page's lines are still in the processor's
 * cache then, where encoding a whole range at its end walks tens of thousands of objects spread
 * over the heap (measured: half the cost on a 1,000-page range).
 */
export class LinesEncoder {
  private ints = new Int32Array(INITIAL_CAPACITY);
  private nums = new Float64Array(INITIAL_CAPACITY);
  private i = 0;
  private n = 0;
  private readonly strings = new Strings();

  add(lines: readonly Line[]): void {
    for (const line of lines) this.addLine(line);
  }

  /**
   * The lines added so far, in the wire form (arrays cut to their length). The arrays are backed by
   * shared memory: a message carrying them, from the helper to the main thread and on to the
   * planning task, shares them instead of copying ~11 MB each time on the bench statement.
   */
  finish(): LinesWire {
    return { ints: shared(Int32Array, this.ints.subarray(0, this.i)), nums: shared(Float64Array, this.nums.subarray(0, this.n)), text: this.strings.join() };
  }

  private room(ints: number, nums: number): void {
    if (this.i + ints > this.ints.length) {
      const grown = new Int32Array(Math.max(2 * this.ints.length, this.i + ints));
      grown.set(this.ints);
      this.ints = grown;
    }
    if (this.n + nums > this.nums.length) {
      const grown = new Float64Array(Math.max(2 * this.nums.length, this.n + nums));
      grown.set(this.nums);
      this.nums = grown;
    }
  }

  private addLine(line: Line): void {
    let ints = 4;
    let nums = 7;
    for (const c of line.cells) {
      const words = c.words ? c.words.length : 0;
      ints += 4 + 3 * words;
      nums += 2 + 2 * words;
    }
    this.room(ints, nums);
    const I = this.ints;
    const N = this.nums;
    const strings = this.strings;
    let i = this.i;
    let n = this.n;
    I[i++] = (line.source === "sheet" ? LINE_SHEET : 0) | (line.bottom === undefined ? 0 : LINE_BOTTOM) | (line.continuedOn === undefined ? 0 : LINE_CONTINUED) | (line.fixedWidth ? LINE_FIXED : 0);
    I[i++] = line.cells.length;
    N[n++] = line.page;
    N[n++] = line.y;
    N[n++] = line.h;
    N[n++] = line.pageWidth;
    if (line.bottom !== undefined) N[n++] = line.bottom;
    if (line.continuedOn !== undefined) {
      N[n++] = line.continuedOn.page;
      N[n++] = line.continuedOn.y;
    }
    // The line's text goes in whole; a cell found where it is expected in it (cells are the line's
    // pieces joined by single spaces) and a word found in its cell point there instead of being
    // appended again, so each character is carried once. Anything else is appended as it is.
    const lineText = line.text;
    const lineAt = strings.add(lineText);
    let pos = 0;
    for (const c of line.cells) {
      let cellAt: number;
      if (lineText.startsWith(c.text, pos)) {
        cellAt = lineAt + pos;
        pos += c.text.length + 1;
      } else {
        cellAt = strings.add(c.text);
      }
      const k = KIND_INDEX.get(c.kind);
      if (k === undefined) throw new Error(`unknown cell kind "${c.kind}"`);
      I[i++] = k;
      I[i++] = cellAt;
      I[i++] = c.text.length;
      I[i++] = c.words ? c.words.length : -1;
      N[n++] = c.x0;
      N[n++] = c.x1;
      if (c.words) {
        let wpos = 0;
        for (const w of c.words) {
          let at: number;
          if (c.text.startsWith(w.text, wpos)) {
            at = cellAt + wpos;
            wpos += w.text.length + 1;
          } else {
            at = strings.add(w.text);
          }
          I[i++] = at;
          I[i++] = w.text.length;
          I[i++] = w.guessed ? 1 : 0;
          N[n++] = w.x0;
          N[n++] = w.x1;
        }
      }
    }
    I[i++] = lineAt;
    I[i++] = lineText.length;
    this.i = i;
    this.n = n;
  }
}

/** A copy of `from` in a SharedArrayBuffer of its own. */
function shared<T extends Int32Array | Float64Array>(Kind: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number }, from: T): T {
  const to = new Kind(new SharedArrayBuffer(from.length * Kind.BYTES_PER_ELEMENT));
  to.set(from);
  return to;
}

export function encodeLines(lines: readonly Line[]): LinesWire {
  const encoder = new LinesEncoder();
  encoder.add(lines);
  return encoder.finish();
}

export function decodeLines(wire: LinesWire): Line[] {
  const { ints, nums, text } = wire;
  const lines: Line[] = [];
  let i = 0;
  let n = 0;
  while (i < ints.length) {
    const flags = ints[i++]!;
    const cellCount = ints[i++]!;
    const page = nums[n++]!;
    const y = nums[n++]!;
    const h = nums[n++]!;
    const pageWidth = nums[n++]!;
    const bottom = flags & LINE_BOTTOM ? nums[n++]! : undefined;
    let continuedOn: Line["continuedOn"];
    if (flags & LINE_CONTINUED) {
      const onPage = nums[n++]!;
      continuedOn = { page: onPage, y: nums[n++]! };
    }
    const cells: Cell[] = new Array(cellCount);
    for (let c = 0; c < cellCount; c++) {
      const kind = KINDS[ints[i++]!]!;
      const at = ints[i++]!;
      const cellText = text.slice(at, at + ints[i++]!);
      const wordCount = ints[i++]!;
      const cell: Cell = { text: cellText, x0: nums[n++]!, x1: nums[n++]!, kind };
      if (wordCount >= 0) {
        const words: Token[] = new Array(wordCount);
        for (let w = 0; w < wordCount; w++) {
          const wAt = ints[i++]!;
          const word: Token = { text: text.slice(wAt, wAt + ints[i++]!), x0: nums[n++]!, x1: nums[n++]! };
          if (ints[i++] === 1) word.guessed = true;
          words[w] = word;
        }
        cell.words = words;
      }
      cells[c] = cell;
    }
    const lineAt = ints[i++]!;
    const line: Line = { page, y, h, cells, text: text.slice(lineAt, lineAt + ints[i++]!), pageWidth, source: flags & LINE_SHEET ? "sheet" : "pdf" };
    if (flags & LINE_FIXED) line.fixedWidth = true;
    if (bottom !== undefined) line.bottom = bottom;
    if (continuedOn !== undefined) line.continuedOn = continuedOn;
    lines.push(line);
  }
  return lines;
}
