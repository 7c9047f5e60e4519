/**
 * One page's text through PDFium, as the same TextItem[] the pdf.js path (../extract.ts readPage)
 * hands the layout stage. PDFium answers characters with positions; they are grouped into items
 * the way pdf.js's getTextContent groups glyphs (its factors below, evaluator.js), so the lines,
 * cells and spaces the layout stage builds come out the same:
 * - a new item at a change of font or font size, a jump back of more than 0.2 em, a line change
 *   (baseline moved more than the glyph height), a gap over 0.6 em, or a baseline shift over
 *   0.25 em;
 * - inside an item, one space for a gap of 0.102-0.6 em, or for space glyphs between two others;
 *   space glyphs themselves are never copied (pdf.js measures spacing, it does not keep it);
 * - glyphs whose origin lies outside the page's visible box (crop box within media box) are
 *   skipped, as pdf.js skips them;
 * - a new item where the marked content changes (pdf.js ends its item at every BDC and EMC):
 *   tagged PDFs (Chromium's, Word's) mark each table cell, so two cells a narrow gap apart stay
 *   two items, where joined they would lose their own positions.
 * PDFium's own inserted spaces and line breaks ("generated" characters) are ignored: its rules
 * differ from pdf.js's and would change cell text. Coordinates go through the display transform
 * pdf.js's viewport uses (/Rotate, the box's offset, y down), and items whose glyphs are not upright
 * on the displayed page are dropped, as in readPage.
 */
import { unsupportedFormat } from "../../../errors.ts";
import { capText } from "../../text-cap.ts";
import type { PageText, TextItem } from "../../types.ts";
import type { PdfiumDocument } from "./document.ts";
import type { PdfiumExports } from "./load.ts";

const TRACKING_SPACE_FACTOR = 0.102;
const NOT_A_SPACE_FACTOR = 0.03;
const NEGATIVE_SPACE_FACTOR = -0.2;
const SPACE_IN_FLOW_MAX_FACTOR = 0.6;
const VERTICAL_SHIFT_RATIO = 0.25;
/** As readPage: a rotation/skew part above this share of the scale is not upright. */
const ROTATION_EPSILON = 0.01;

const LETTER: [number, number, number, number] = [0, 0, 612, 792];

/** Out-parameter block: 6 float32 of a matrix or rect, then 2 float64 of an origin, then a key. */
const SCRATCH_BYTES = 64;
const ORIGIN_AT = 32;
const KEY_AT = 48;
const ACTUAL_TEXT = Buffer.from("ActualText\0", "latin1");

/** Whitespace as pdf.js classes it for text content (its isWhitespace category). */
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xa0 || c === 0x0c || c === 0x0b || (c >= 0x2000 && c <= 0x200a) || c === 0x3000 || c === 0x202f || c === 0x205f || c === 0x1680;

interface Run {
  /** Start of the run's current segment in `text` (sliced out when a space or a gap ends it, or the run ends). */
  from: number;
  /** The run's earlier segments, each followed by the space (or "") that separated it from the next. */
  pieces: string[];
  x: number;
  /** Baseline (display space, y down). */
  base: number;
  endX: number;
  lastBase: number;
  height: number;
  /**
   * pdf.js's unit for gaps: the font size times the horizontal scale of the text and graphics
   * matrices, without horizontal scaling (Tz), which PDFium bakes into the character's matrix. The
   * vertical scale stands in for it: the same unless the text matrix itself is stretched (no
   * statement in the corpus is; Tz, which Skia and Word write for condensed text, is handled).
   */
  em: number;
  font: number;
  size: number;
  /** The marked-content sequences the run's text object lies in (markedContent). */
  marks: string;
}

/**
 * The out-parameter block of this thread's instance and typed views on it. One block per instance,
 * kept for its life (views on the wasm memory cost more to make than a page's reads through
 * them); the views are remade only when the memory has grown (its buffer is then a new one).
 */
interface Scratch {
  ex: PdfiumExports;
  at: number;
  buffer: ArrayBuffer;
  f32: Float32Array;
  f64: Float64Array;
}
let scratchBlock: Scratch | undefined;

function scratchFor(ex: PdfiumExports): Scratch {
  let s = scratchBlock;
  if (s?.ex !== ex) {
    const at = ex.malloc(SCRATCH_BYTES);
    if (at === 0) throw new Error("PDFium could not allocate memory");
    s = scratchBlock = { ex, at, buffer: new ArrayBuffer(0), f32: new Float32Array(0), f64: new Float64Array(0) };
    new Uint8Array(ex.memory.buffer, at + KEY_AT, ACTUAL_TEXT.byteLength).set(ACTUAL_TEXT);
  }
  if (s.buffer !== ex.memory.buffer) {
    s.buffer = ex.memory.buffer;
    s.f32 = new Float32Array(s.buffer, s.at, 6);
    s.f64 = new Float64Array(s.buffer, s.at + ORIGIN_AT, 2);
  }
  return s;
}

/**
 * Text items of page n (1-based), top-left origin, as readPage answers them; undefined when some
 * text of the page is marked with /ActualText. PDFium then reports the replacement text instead
 * of the glyphs, spread over their box one character at a time, while pdf.js reads the glyphs:
 * such a page is for pdf.js to read (see ../extractor.ts).
 */
export function readPdfiumPage(doc: PdfiumDocument, n: number): PageText | undefined {
  const { ex } = doc;
  const page = ex.FPDF_LoadPage(doc.handle, n - 1);
  if (page === 0) throw unsupportedFormat(`Page ${n} of the PDF could not be read: invalid structure`);
  let textPage = 0;
  let textBuf = 0;
  try {
    const block = scratchFor(ex);
    const scratch = block.at;
    let f32 = block.f32;
    // FS_RECTF: left, top, right, bottom (float32; rounded back to the file's few decimals). A page
    // without a usable box gets US Letter, as pdf.js gives it.
    const view = ex.FPDF_GetPageBoundingBox(page, scratch) ? viewBox(f32[0]!, f32[3]!, f32[2]!, f32[1]!) : LETTER;
    const vt = viewportTransform(view, ((ex.FPDFPage_GetRotation(page) % 4) + 4) % 4 * 90);
    const { width, height } = vt;
    textPage = ex.FPDFText_LoadPage(page);
    if (textPage === 0) throw unsupportedFormat(`Page ${n} of the PDF could not be read: invalid structure`);
    const count = ex.FPDFText_CountChars(textPage);
    const items: TextItem[] = [];
    if (count <= 0) return { number: n, width, height, items };
    textBuf = ex.malloc((count + 1) * 2);
    const written = ex.FPDFText_GetText(textPage, 0, count, textBuf);
    // One UTF-16 unit per character unless some character lies outside the BMP; then each is asked for.
    let text = Buffer.from(new Uint8Array(ex.memory.buffer, textBuf, Math.max(0, written - 1) * 2)).toString("utf16le");
    if (text.length !== count) text = Array.from({ length: count }, (_, i) => unit(ex.FPDFText_GetUnicode(textPage, i))).join("");
    // PDFium marks a hyphen that ends a line (U+FFFE in its text, 2 as the character's code) and
    // forgets which hyphen it was; pdf.js keeps the glyph, in practice "-".
    if (text.includes("\ufffe")) text = text.replaceAll("\ufffe", "-");
    // Views taken after the last allocation: the per-character calls below allocate nothing, so
    // the wasm memory cannot grow (and its buffer be replaced) while they are in use.
    const views = scratchFor(ex);
    f32 = views.f32;
    const f64 = views.f64;
    const [t0, t1, t2, t3, t4, t5] = vt.t;

    let run: Run | undefined;
    // pdf.js's two last characters (saveLastChar): a space glyph after a non-space one.
    let prev = 0x20;
    let prevPrev = 0x20;
    let obj = -1;
    let marks = "";
    let font = 0;
    let size = 0;
    // The current text object's display matrix (font size not applied) and whether it is upright.
    let upright = false;
    let scaleY = 0;
    let scaleX = 1;
    const flush = () => {
      if (!run) return;
      const str = run.pieces.length === 0 ? text.slice(run.from, runEnd) : run.pieces.join("") + text.slice(run.from, runEnd);
      if (str.trim() !== "") {
        const kept = capText(str);
        const w = run.endX - run.x;
        items.push({ str: kept, x: run.x, y: run.base - run.height, width: kept.length === str.length ? w : (w * kept.length) / str.length, height: run.height, font: `f${run.font}` });
      }
      run = undefined;
    };
    let runEnd = 0;
    for (let k = 0; k < count; k++) {
      const code = text.charCodeAt(k);
      if (isSpace(code)) {
        // PDFium generates only spaces and line breaks, so only whitespace needs asking.
        if (ex.FPDFText_IsGenerated(textPage, k) === 1) continue;
        prevPrev = prev;
        prev = 0x20;
        continue;
      }
      const o = ex.FPDFText_GetTextObject(textPage, k);
      if (o !== obj) {
        obj = o;
        const content = o ? markedContent(ex, o, scratch + KEY_AT) : "";
        if (content === undefined) return undefined;
        marks = content;
        font = o ? ex.FPDFTextObj_GetFont(o) : 0;
        size = ex.FPDFText_GetFontSize(textPage, k);
        ex.FPDFText_GetMatrix(textPage, k, scratch);
        const [a, b, c, d] = [f32[0]!, f32[1]!, f32[2]!, f32[3]!];
        // The character's matrix on the displayed page (translation is the origin, read per glyph).
        const ma = t0 * a + t2 * b;
        const mb = t1 * a + t3 * b;
        const mc = t0 * c + t2 * d;
        const md = t1 * c + t3 * d;
        upright = ma > 0 && Math.abs(mb) <= ROTATION_EPSILON * ma && Math.abs(mc) <= ROTATION_EPSILON * Math.abs(md);
        scaleY = Math.hypot(mc, md);
        scaleX = Math.hypot(a, b) || 1;
      }
      ex.FPDFText_GetCharOrigin(textPage, k, scratch + ORIGIN_AT, scratch + ORIGIN_AT + 8);
      const px = f64[0]!;
      const py = f64[1]!;
      ex.FPDFText_GetLooseCharBox(textPage, k, scratch);
      // The glyph's advance in page space, along the text direction (left to right of its box).
      const left = f32[0]!;
      const right = f32[2]!;
      // pdf.js skips glyphs whose origin is outside the visible box, allowing the advance to the
      // left (measured in text space: without the text and graphics matrices' scale).
      if (px + Math.abs(right - left) / scaleX < view[0] || px > view[2] || py < view[1] || py > view[3]) continue;
      const x = t0 * px + t2 * py + t4;
      const base = t1 * px + t3 * py + t5;
      // The advance box's right edge on the displayed page: the largest x of its corners.
      const top = f32[1]!;
      const bottom = f32[3]!;
      const endX = Math.max(t0 * left + t2 * top, t0 * left + t2 * bottom, t0 * right + t2 * top, t0 * right + t2 * bottom) + t4;
      const h = size * scaleY;
      let addSpace = false;
      if (run && (font !== run.font || size !== run.size || marks !== run.marks)) flush();
      if (run) {
        const advanceX = (x - run.endX) / run.em;
        const advanceY = base - run.lastBase;
        if (advanceX < NEGATIVE_SPACE_FACTOR || Math.abs(advanceY) > run.height) {
          flush();
          prev = prevPrev = 0x20;
        } else if (advanceX <= TRACKING_SPACE_FACTOR) {
          // Closer than 0.03 em: no space whatever glyphs came between; else a space glyph ends the item.
          if (advanceX <= NOT_A_SPACE_FACTOR) prev = prevPrev = 0x20;
          else if (prev === 0x20 && prevPrev !== 0x20) {
            flush();
            prev = prevPrev = 0x20;
          }
        } else if (advanceX <= SPACE_IN_FLOW_MAX_FACTOR) {
          addSpace = true;
          prev = prevPrev = 0x20;
        } else {
          flush();
          prev = prevPrev = 0x20;
        }
        if (run && Math.abs(advanceY) > run.height * VERTICAL_SHIFT_RATIO) {
          // pdf.js ends the item after the space it may just have added; the glyph starts the next.
          flush();
          addSpace = false;
        }
      }
      // saveLastChar: a space glyph between two others counts as one space.
      const spaceGlyph = prev === 0x20 && prevPrev !== 0x20;
      prevPrev = prev;
      prev = code;
      if (!upright) {
        flush();
        continue;
      }
      if (!run) {
        run = { from: k, pieces: [], x, base, endX, lastBase: base, height: h, em: h || 1, font, size, marks };
      } else {
        if (addSpace || spaceGlyph || k !== runEnd) {
          // The run's text so far, then the space: characters between (spaces, generated ones) are not part of it.
          run.pieces.push(text.slice(run.from, runEnd), addSpace || spaceGlyph ? " " : "");
          run.from = k;
        }
        run.endX = endX;
        run.lastBase = base;
      }
      runEnd = k + 1;
    }
    flush();
    return { number: n, width, height, items };
  } finally {
    if (textBuf) ex.free(textBuf);
    if (textPage) ex.FPDFText_ClosePage(textPage);
    ex.FPDF_ClosePage(page);
  }
}

/**
 * The marked-content sequences around a page object, as a key equal for objects inside the same
 * ones (PDFium shares one mark item among the objects of a sequence); undefined when one of them
 * carries /ActualText.
 */
function markedContent(ex: PdfiumExports, object: number, key: number): string | undefined {
  const count = ex.FPDFPageObj_CountMarks(object);
  let marks = "";
  for (let i = 0; i < count; i++) {
    const mark = ex.FPDFPageObj_GetMark(object, i);
    if (mark && ex.FPDFPageObjMark_GetParamValueType(mark, key) !== 0) return undefined;
    marks += `${mark},`;
  }
  return marks;
}

/** One UTF-16 unit per character, so items can be sliced by character index (outside the BMP: U+FFFD). */
const unit = (code: number) => (code === 2 ? "-" : code > 0xffff || code === 0 ? "\ufffd" : String.fromCharCode(code));

/**
 * A float32 from PDFium as the shortest decimal that rounds to it: the number the file wrote
 * whenever it wrote at most 7 significant digits (595.28, not 595.280029296875), as pdf.js reads it.
 */
function round(v: number): number {
  for (let digits = 1; digits < 9; digits++) {
    const d = Number(v.toPrecision(digits));
    if (Math.fround(d) === v) return d;
  }
  return v;
}

/** The visible box, normalised, from PDFium's crop ∩ media box. */
function viewBox(x0: number, y0: number, x1: number, y1: number): [number, number, number, number] {
  const [a, b, c, d] = [round(x0), round(y0), round(x1), round(y1)];
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
}

/** pdf.js's PageViewport transform at scale 1 (rotation clockwise, y down, the box's corner at 0,0). */
export function viewportTransform(view: readonly [number, number, number, number], rotation: number): { t: [number, number, number, number, number, number]; width: number; height: number } {
  const [x0, y0, x1, y1] = view;
  const cx = (x1 + x0) / 2;
  const cy = (y1 + y0) / 2;
  const [a, b, c, d] = rotation === 90 ? [0, 1, 1, 0] : rotation === 180 ? [-1, 0, 0, 1] : rotation === 270 ? [0, -1, -1, 0] : [1, 0, 0, -1];
  const swapped = a === 0;
  const offX = swapped ? Math.abs(cy - y0) : Math.abs(cx - x0);
  const offY = swapped ? Math.abs(cx - x0) : Math.abs(cy - y0);
  const width = swapped ? y1 - y0 : x1 - x0;
  const height = swapped ? x1 - x0 : y1 - y0;
  return { t: [a, b, c, d, offX - a * cx - c * cy, offY - b * cx - d * cy], width, height };
}
