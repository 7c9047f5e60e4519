import { type ScanOperand, scanContent } from "./content-scan.ts";
import { apply, IDENTITY, type Matrix, multiply } from "../redact/interpret.ts";
import type { PageText, TextItem } from "../types.ts";
import { dictOf, nameOf, type ObjectIndex } from "./objects.ts";
import { fromDict, type RawPage, type Resources } from "./page-tree.ts";
import type { IntegritySignal } from "./types.ts";

/**
 * Painted-over figures, seen two ways. In the text layer: two different strings drawn on top of
 * each other (the old figure is still there under the new one). In the drawing: a filled rectangle
 * painted after text it covers, with new text drawn on top of it (a "white box" edit).
 */

/** Two items overlap when they share this much of the smaller one's height and width. */
const OVERLAP_V = 0.6;
const OVERLAP_H = 0.5;
const norm = (s: string) => s.replace(/\s+/g, "");

/** Text-over-text on one page, from its text items (sorted sweep: O(n log n) for a table). */
export function textOverText(page: PageText): IntegritySignal[] {
  // Items come in drawing order (k): which of two overlapping ones is on top.
  const items = page.items.map((it, k) => ({ it, k })).filter(({ it }) => it.height > 0 && it.width > 0);
  items.sort((a, b) => a.it.y - b.it.y);
  const pairs: [TextItem, TextItem][] = [];
  for (let i = 0; i < items.length; i++) {
    const a = items[i]!;
    const bottom = a.it.y + a.it.height;
    for (let j = i + 1; j < items.length && items[j]!.it.y < bottom; j++) {
      const b = items[j]!;
      if (overlaps(a.it, b.it) && differ(a.it.str, b.it.str)) pairs.push(a.k < b.k ? [a.it, b.it] : [b.it, a.it]);
    }
  }
  if (pairs.length === 0) return [];
  const [a, b] = pairs[0]!;
  const more = pairs.length > 1 ? ` (and ${pairs.length - 1} more place${pairs.length > 2 ? "s" : ""})` : "";
  return [{ code: "text_over_text", severity: "high", page: page.number, detail: `"${b.str.trim()}" is drawn on top of "${a.str.trim()}"${more}.` }];
}

function overlaps(a: TextItem, b: TextItem): boolean {
  const v = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  const h = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const ratio = Math.max(a.height, b.height) / Math.min(a.height, b.height);
  return ratio <= MAX_HEIGHT_RATIO && v >= OVERLAP_V * Math.min(a.height, b.height) && h >= OVERLAP_H * Math.min(a.width, b.width);
}

/** A whole amount: one inside another is an edit ("699,497.89" under "1,699,497.89"), not a split run. */
const AMOUNT = /^[-+]?[\d,]+\.\d{2}$/;
/**
 * A figure (amount, count, date), alone in its item. Both overlapping strings must be figures: a
 * long narration running on under the amount column (clipped on paper, whole in the text layer)
 * or a horizontal watermark over the table is not an edit.
 */
const FIGURE = /^[\s(+\-₦N#$]*\d[\d\s,./:-]*\)?\s*(?:CR|DR|Cr|Dr|cr|dr)?$/;
/** Glyph heights of the two may differ by this factor at most (a watermark is far larger). */
const MAX_HEIGHT_RATIO = 1.5;

/**
 * Different figures. Simulated bold (the same string twice) is not; nor is one string inside the
 * other (a run drawn again in other chunks, e.g. a bold label over its own line), unless both are
 * whole amounts.
 */
function differ(s: string, t: string): boolean {
  const a = norm(s);
  const b = norm(t);
  if (a === b || !FIGURE.test(a) || !FIGURE.test(b)) return false;
  return !(a.includes(b) || b.includes(a)) || (AMOUNT.test(a) && AMOUNT.test(b));
}

interface Mark {
  order: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A covering box is at least this big (points): smaller fills are rules and borders. */
const MIN_BOX_W = 8;
const MIN_BOX_H = 5;
/** ...and at most this tall: a box hiding a figure covers a line or two, not a page. */
const MAX_BOX_H = 60;
/** Share of a text's box inside the rectangle for it to count as covered or on top. */
const INSIDE = 0.6;
/** Content streams larger than this are not interpreted (a statement page is far smaller). */
const MAX_CONTENT_BYTES = 4 * 1024 * 1024;

/**
 * Documents up to this many pages have every page's drawing interpreted; longer ones only the pages
 * an edit usually leaves a trace on (see coveredText), so a 2,000-page statement is not inflated
 * and tokenised a second time.
 */
const ALL_PAGES_UP_TO = 50;

/**
 * Pages where a filled rectangle hides earlier text and other text is drawn on top of it. `suspect`
 * (pages an incremental update redrew) are always examined, as are pages whose drawing is split
 * over several streams (editors and overlay tools append a stream of their own).
 */
export function coveredText(index: ObjectIndex, pages: RawPage[], suspect: ReadonlySet<number>): { page: number; detail: string }[] {
  const out: { page: number; detail: string }[] = [];
  const all = pages.length <= ALL_PAGES_UP_TO;
  for (const page of pages) {
    if (!all && page.contents.length < 2 && !suspect.has(page.number)) continue;
    const streams = page.contents.map((num) => index.streamData(num)).filter((d): d is Uint8Array => d !== undefined);
    const size = streams.reduce((n, d) => n + d.length, 0);
    if (size === 0 || size > MAX_CONTENT_BYTES) continue;
    const content = joinStreams(streams);
    if (!mayCover(content)) continue;
    const found = coverIn(content, formSource(index, page.resources));
    if (found) out.push({ page: page.number, detail: found });
  }
  return out;
}

function joinStreams(streams: Uint8Array[]): Uint8Array {
  if (streams.length === 1) return streams[0]!;
  // Streams of one page are one content stream split anywhere but between tokens: join with a space.
  const out = new Uint8Array(streams.reduce((n, d) => n + d.length + 1, 0));
  let at = 0;
  for (const d of streams) {
    out.set(d, at);
    out[at + d.length] = 0x20;
    at += d.length + 1;
  }
  return out;
}

const DO = /\sDo(?=\s|$)/;
/** A path-filling operator (f, F, f*, B, B*, b, b*) as a token. */
const FILL = /(?:^|[\s\]>)])(?:f\*?|F|B\*?|b\*?)(?=[\s/[<(]|$)/g;

/**
 * Cheap test before interpreting: a path filled after some text ends, and text begun after that
 * fill. Pages drawing their backgrounds first and their text last never pass it.
 */
function mayCover(content: Uint8Array): boolean {
  const buf = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  // Forms (a stamp, an overlay, the original page wrapped by an overlay tool) may hold the box and
  // the text themselves: a page drawing forms is always interpreted.
  if (DO.test(buf.toString("latin1"))) return true;
  const firstEt = buf.indexOf("ET");
  if (firstEt < 0) return false;
  const lastBt = buf.lastIndexOf("BT");
  if (lastBt < firstEt) return false;
  FILL.lastIndex = 0;
  return FILL.test(buf.toString("latin1", firstEt, lastBt));
}

const num = (o: ScanOperand | undefined) => (o?.kind === "number" ? o.value : 0);

/** A form XObject drawn by name (`Do`): its content, matrix and the forms it can draw in turn. */
type FormSource = (name: string) => { content: Uint8Array; matrix: Matrix; forms: FormSource } | undefined;
/** Forms drawing forms are followed this deep (a stamp is one level). */
const MAX_FORM_DEPTH = 3;

/** Interprets just enough (CTM, text matrices, paths, fills, forms) to find a covering box. */
function coverIn(content: Uint8Array, forms: FormSource): string | undefined {
  const texts: Mark[] = [];
  const boxes: Mark[] = [];
  let order = 0;
  const run = (content: Uint8Array, start: Matrix, forms: FormSource, depth: number) => {
    let ctm: Matrix = start;
    const saved: Matrix[] = [];
    let tm: Matrix = IDENTITY;
    let tlm: Matrix = IDENTITY;
    let size = 0;
    let leading = 0;
    // Bounding box of the current path in user space (rectangles and polygons alike: editors draw
    // their boxes with `re` or with m/l/h).
    let path: Mark | null = null;
    const extend = (x: number, y: number) => {
      const [px, py] = apply(ctm, x, y);
      if (!path) path = { order: 0, x0: px, y0: py, x1: px, y1: py };
      else {
        path.x0 = Math.min(path.x0, px);
        path.y0 = Math.min(path.y0, py);
        path.x1 = Math.max(path.x1, px);
        path.y1 = Math.max(path.y1, py);
      }
    };
    const show = (bytes: number) => {
      const trm = multiply(tm, ctm);
      const scale = Math.hypot(trm[2], trm[3]) * size || size;
      const [x, y] = apply(trm, 0, 0);
      // Glyph widths are not read here: half the font size per byte is close enough to place a box.
      const w = Math.max(1, bytes) * 0.5 * scale;
      texts.push({ order: order++, x0: x, y0: y - 0.2 * scale, x1: x + w, y1: y + 0.8 * scale });
      tm = multiply([1, 0, 0, 1, w / (Math.hypot(trm[0], trm[1]) || 1), 0], tm);
    };
    scanContent(content, (operator, o) => {
      switch (operator) {
        case "q":
          saved.push(ctm);
          break;
        case "Q":
          ctm = saved.pop() ?? start;
          break;
        case "cm":
          ctm = multiply([num(o[0]), num(o[1]), num(o[2]), num(o[3]), num(o[4]), num(o[5])], ctm);
          break;
        case "Do": {
          const form = depth < MAX_FORM_DEPTH && o[0]?.kind === "name" ? forms(o[0].value) : undefined;
          if (form) run(form.content, multiply(form.matrix, ctm), form.forms, depth + 1);
          break;
        }
        case "BT":
          tm = tlm = IDENTITY;
          break;
        case "Tf":
          size = num(o[1]);
          break;
        case "TL":
          leading = num(o[0]);
          break;
        case "Td":
        case "TD":
          if (operator === "TD") leading = -num(o[1]);
          tm = tlm = multiply([1, 0, 0, 1, num(o[0]), num(o[1])], tlm);
          break;
        case "Tm":
          tm = tlm = [num(o[0]), num(o[1]), num(o[2]), num(o[3]), num(o[4]), num(o[5])];
          break;
        case "T*":
          tm = tlm = multiply([1, 0, 0, 1, 0, -leading], tlm);
          break;
        case "'":
        case '"':
          tm = tlm = multiply([1, 0, 0, 1, 0, -leading], tlm);
          show(stringBytes(o.at(-1)));
          break;
        case "Tj":
          show(stringBytes(o[0]));
          break;
        case "TJ":
          show(o[0]?.kind === "array" ? o[0].items.reduce((n, it) => n + stringBytes(it), 0) : 0);
          break;
        case "re": {
          const [x, y, w, h] = [num(o[0]), num(o[1]), num(o[2]), num(o[3])];
          extend(x, y);
          extend(x + w, y + h);
          extend(x, y + h);
          extend(x + w, y);
          break;
        }
        case "m":
        case "l":
          extend(num(o[0]), num(o[1]));
          break;
        case "c":
          extend(num(o[0]), num(o[1]));
          extend(num(o[2]), num(o[3]));
          extend(num(o[4]), num(o[5]));
          break;
        case "v":
        case "y":
          extend(num(o[0]), num(o[1]));
          extend(num(o[2]), num(o[3]));
          break;
        case "f":
        case "F":
        case "f*":
        case "B":
        case "B*":
        case "b":
        case "b*":
          if (path) boxes.push({ ...(path as Mark), order: order++ });
          path = null;
          break;
        case "n":
        case "S":
        case "s":
          path = null;
          break;
      }
    });
  };
  run(content, IDENTITY, forms, 0);
  for (const box of boxes) {
    const w = box.x1 - box.x0;
    const h = box.y1 - box.y0;
    if (w < MIN_BOX_W || h < MIN_BOX_H || h > MAX_BOX_H) continue;
    const under = texts.find((t) => t.order < box.order && inside(t, box));
    const over = under && texts.find((t) => t.order > box.order && inside(t, box));
    if (under && over) return `A filled box (${Math.round(w)}×${Math.round(h)} pt) is painted over earlier text and new text is drawn on top of it.`;
  }
  return undefined;
}

/** The forms a resource dictionary names, read on demand. */
function formSource(index: ObjectIndex, resources: Resources): FormSource {
  return (name) => {
    const num = resources.xobjects.get(name);
    if (num === undefined) return undefined;
    const dict = dictOf(index.value(num));
    if (nameOf(dict?.get("Subtype")) !== "Form") return undefined;
    const content = index.streamData(num);
    if (!content || content.length > MAX_CONTENT_BYTES) return undefined;
    const m = index.resolve(dict!.get("Matrix"));
    const matrix: Matrix = m?.t === "array" && m.v.length === 6 && m.v.every((v) => v.t === "num") ? (m.v.map((v) => (v as { v: number }).v) as Matrix) : IDENTITY;
    return { content, matrix, forms: formSource(index, fromDict(index, dictOf(index.resolve(dict!.get("Resources"))))) };
  };
}

function stringBytes(o: ScanOperand | undefined): number {
  return o?.kind === "string" ? o.length : 0;
}

function inside(t: Mark, box: Mark): boolean {
  const w = Math.min(t.x1, box.x1) - Math.max(t.x0, box.x0);
  const h = Math.min(t.y1, box.y1) - Math.max(t.y0, box.y0);
  if (w <= 0 || h <= 0) return false;
  return w * h >= INSIDE * (t.x1 - t.x0) * (t.y1 - t.y0);
}
