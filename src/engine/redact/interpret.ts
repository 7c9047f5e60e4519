import { PDFDict, PDFName, PDFNumber, PDFArray, PDFRef, PDFStream, type PDFObject } from "pdf-lib";
import { parseContent, type Operand, type Operation } from "./content-lexer.ts";
import { codeOf, fontInfo, type FontInfo } from "./fonts.ts";
import type { ContentBudget } from "./budget.ts";
import { decodeStream } from "./stream-data.ts";
import { unsupportedFormat } from "../../errors.ts";
import { MAX_TEXT_CHARS } from "../text-cap.ts";

/**
 * Follows the graphics and text state of a content stream (and, recursively, of the Form XObjects
 * it paints) far enough to know where every glyph of every text-showing operator lands on the page.
 * Pure with respect to the document: it only reads.
 */

/** [a b c d e f]: (x, y) -> (a x + c y + e, b x + d y + f). */
export type Matrix = [number, number, number, number, number, number];
export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m1 then m2 (the PDF spec's m1 × m2). */
export function multiply(m1: Matrix, m2: Matrix): Matrix {
  const [a, b, c, d, e, f] = m1;
  const [A, B, C, D, E, F] = m2;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

export function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One glyph of a text-showing operator, with text-state needed to rewrite it. */
export interface ShownGlyph {
  bytes: Uint8Array;
  /** Advance in text space per unit font size (glyph width / 1000). */
  width: number;
  /** Word spacing applies (single-byte code 32). */
  isSpace: boolean;
}

/** What a text-showing operator draws, in order: glyph indexes and TJ adjustments. */
export interface ShowOp {
  operator: "Tj" | "TJ" | "'" | '"';
  glyphs: ShownGlyph[];
  /** Glyph index, or a TJ number (thousandths of text space), in drawing order. */
  sequence: ({ glyph: number } | { adjust: number })[];
  fontSize: number;
  charSpacing: number;
  wordSpacing: number;
}

/** A content stream that can be rewritten: a page's contents (joined) or one Form XObject. */
export interface ContentUnit {
  /** "page:N" or the form's object reference. */
  key: string;
  ref?: PDFRef;
  stream?: PDFStream;
  bytes: Uint8Array;
  ops: Operation[];
  shows: Map<number, ShowOp>;
  /** Op index -> glyph indexes to remove. */
  cuts: Map<number, Set<number>>;
  /** Op index -> replacement source for a whole operation (marked-content properties). */
  replacements: Map<number, string>;
}

/** A glyph placed on the page, in page user space. */
export interface PlacedGlyph {
  unit: ContentUnit;
  op: number;
  index: number;
  /** Text the glyph stands for ("" when the font does not say). */
  text: string;
  origin: [number, number];
  center: [number, number];
  box: Box;
}

export interface InterpretContext {
  /** Form XObjects already parsed, shared across pages. */
  units: Map<string, ContentUnit>;
  /** Streams left alone because their filters cannot be undone. */
  skipped: string[];
  /** Operations parsed and run and glyphs placed (budget.ts); none when absent. */
  budget?: ContentBudget;
}

interface GState {
  ctm: Matrix;
  font: FontInfo;
  fontSize: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
}

// Glyph boxes span this much of the font size below and above the baseline: tight enough that the
// box of one table row never reaches the next, which sits at least 1.2 font sizes away.
const DESCENT = -0.2;
const ASCENT = 0.8;
const MAX_FORM_DEPTH = 12;

const numberAt = (ops: Operand[], i: number) => {
  const o = ops[i];
  return o?.kind === "number" ? o.value : 0;
};

export function unitFromBytes(key: string, bytes: Uint8Array, stream?: PDFStream, ref?: PDFRef, budget?: ContentBudget): ContentUnit {
  const spend = budget ? () => budget.spend() : undefined;
  return { key, ref, stream, bytes, ops: parseContent(bytes, spend), shows: new Map(), cuts: new Map(), replacements: new Map() };
}

function lookupResource(resources: PDFDict | undefined, category: string, name: string): { obj: PDFObject | undefined; ref?: PDFRef } {
  const dict = resources?.lookup(PDFName.of(category));
  if (!(dict instanceof PDFDict)) return { obj: undefined };
  const raw = dict.get(PDFName.of(name));
  return raw instanceof PDFRef ? { obj: dict.context.lookup(raw), ref: raw } : { obj: raw };
}

function matrixOf(o: PDFObject | undefined): Matrix {
  if (!(o instanceof PDFArray) || o.size() !== 6) return IDENTITY;
  return o.asArray().map((x) => (x instanceof PDFNumber ? x.asNumber() : 0)) as Matrix;
}

/**
 * Interprets one content unit under `ctm` and reports every glyph through `onGlyph`. Form XObjects
 * are parsed once (kept in ctx.units) and interpreted per invocation.
 */
export function interpret(
  unit: ContentUnit,
  resources: PDFDict | undefined,
  ctm: Matrix,
  ctx: InterpretContext,
  onGlyph: (g: PlacedGlyph) => void,
  depth = 0,
  active: Set<string> = new Set(),
  inherited?: GState,
): void {
  // A form starts with the graphics state (text state included) of the operator that paints it.
  let gs: GState = inherited
    ? { ...inherited, ctm }
    : { ctm, font: fontInfo(undefined), fontSize: 0, charSpacing: 0, wordSpacing: 0, hScale: 1, leading: 0, rise: 0 };
  const stack: GState[] = [];
  let tm: Matrix = IDENTITY;
  let tlm: Matrix = IDENTITY;

  const nextLine = (tx: number, ty: number) => {
    tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
    tm = tlm;
  };

  const show = (opIndex: number, operator: ShowOp["operator"], items: Operand[]) => {
    let show = unit.shows.get(opIndex);
    const record = !show;
    if (!show) {
      show = { operator, glyphs: [], sequence: [], fontSize: gs.fontSize, charSpacing: gs.charSpacing, wordSpacing: gs.wordSpacing };
      unit.shows.set(opIndex, show);
    }
    let glyphIndex = 0;
    for (const item of items) {
      if (item.kind === "number") {
        if (record) show.sequence.push({ adjust: item.value });
        tm = multiply([1, 0, 0, 1, (-item.value / 1000) * gs.fontSize * gs.hScale, 0], tm);
        continue;
      }
      if (item.kind !== "string") continue;
      for (const bytes of gs.font.split(item.bytes)) {
        // One text operator drawing more than any statement line would cost glyph-level work per
        // character for nothing a statement holds: refused, as the parse cuts such a line.
        if (glyphIndex >= MAX_TEXT_CHARS) throw unsupportedFormat(`A text operator draws more than ${MAX_TEXT_CHARS} characters, longer than any statement line; no redacted copy was produced`);
        ctx.budget?.spend();
        const code = codeOf(bytes);
        const width = gs.font.width(code);
        const isSpace = bytes.length === 1 && code === 32;
        if (record) {
          show.glyphs.push({ bytes, width, isSpace });
          show.sequence.push({ glyph: glyphIndex });
        }
        const trm = multiply(multiply([gs.fontSize * gs.hScale, 0, 0, gs.fontSize, 0, gs.rise], tm), gs.ctm);
        const corners = [apply(trm, 0, DESCENT), apply(trm, width, DESCENT), apply(trm, 0, ASCENT), apply(trm, width, ASCENT)];
        const xs = corners.map((p) => p[0]);
        const ys = corners.map((p) => p[1]);
        onGlyph({
          unit,
          op: opIndex,
          index: glyphIndex,
          text: gs.font.unicode(code) ?? "",
          origin: apply(trm, 0, 0),
          center: apply(trm, width / 2, (DESCENT + ASCENT) / 2),
          box: { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) },
        });
        glyphIndex++;
        const tx = (width * gs.fontSize + gs.charSpacing + (isSpace ? gs.wordSpacing : 0)) * gs.hScale;
        tm = multiply([1, 0, 0, 1, tx, 0], tm);
      }
    }
  };

  unit.ops.forEach((op: Operation, i: number) => {
    // Run again for every time a form is drawn, so a form drawn a million times costs as much.
    if (inherited) ctx.budget?.spend();
    const a = op.operands;
    switch (op.operator) {
      case "q":
        stack.push(gs);
        gs = { ...gs };
        break;
      case "Q":
        gs = stack.pop() ?? gs;
        break;
      case "cm":
        gs.ctm = multiply([numberAt(a, 0), numberAt(a, 1), numberAt(a, 2), numberAt(a, 3), numberAt(a, 4), numberAt(a, 5)], gs.ctm);
        break;
      case "BT":
        tm = IDENTITY;
        tlm = IDENTITY;
        break;
      case "Tm":
        tlm = [numberAt(a, 0), numberAt(a, 1), numberAt(a, 2), numberAt(a, 3), numberAt(a, 4), numberAt(a, 5)];
        tm = tlm;
        break;
      case "Td":
        nextLine(numberAt(a, 0), numberAt(a, 1));
        break;
      case "TD":
        gs.leading = -numberAt(a, 1);
        nextLine(numberAt(a, 0), numberAt(a, 1));
        break;
      case "T*":
        nextLine(0, -gs.leading);
        break;
      case "TL":
        gs.leading = numberAt(a, 0);
        break;
      case "Tc":
        gs.charSpacing = numberAt(a, 0);
        break;
      case "Tw":
        gs.wordSpacing = numberAt(a, 0);
        break;
      case "Tz":
        gs.hScale = numberAt(a, 0) / 100;
        break;
      case "Ts":
        gs.rise = numberAt(a, 0);
        break;
      case "Tf": {
        const name = a[0]?.kind === "name" ? a[0].value : "";
        const font = lookupResource(resources, "Font", name).obj;
        gs.font = fontInfo(font instanceof PDFDict ? font : undefined);
        gs.fontSize = numberAt(a, 1);
        break;
      }
      case "gs": {
        // An ExtGState may set the font: /Font [fontRef size].
        const name = a[0]?.kind === "name" ? a[0].value : "";
        const ext = lookupResource(resources, "ExtGState", name).obj;
        const f = ext instanceof PDFDict ? ext.lookup(PDFName.of("Font")) : undefined;
        if (f instanceof PDFArray && f.size() >= 2) {
          const fd = f.lookup(0);
          gs.font = fontInfo(fd instanceof PDFDict ? fd : undefined);
          gs.fontSize = (f.lookup(1) as PDFNumber | undefined)?.asNumber?.() ?? gs.fontSize;
        }
        break;
      }
      case "Tj":
        show(i, "Tj", a.slice(0, 1));
        break;
      case "TJ":
        show(i, "TJ", a[0]?.kind === "array" ? a[0].items : []);
        break;
      case "'":
        nextLine(0, -gs.leading);
        show(i, "'", a.slice(0, 1));
        break;
      case '"':
        gs.wordSpacing = numberAt(a, 0);
        gs.charSpacing = numberAt(a, 1);
        nextLine(0, -gs.leading);
        show(i, '"', a.slice(2, 3));
        break;
      case "Do": {
        const name = a[0]?.kind === "name" ? a[0].value : "";
        const { obj, ref } = lookupResource(resources, "XObject", name);
        if (!(obj instanceof PDFStream) || depth >= MAX_FORM_DEPTH) break;
        if ((obj.dict.lookup(PDFName.of("Subtype")) as PDFName | undefined)?.decodeText?.() !== "Form") break;
        const key = ref ? ref.toString() : `${unit.key}/${name}`;
        if (active.has(key)) break;
        let form = ctx.units.get(key);
        if (!form) {
          const decoded = decodeStream(obj);
          if (!("bytes" in decoded)) {
            ctx.skipped.push(`form ${key}: ${decoded.unsupported}`);
            break;
          }
          form = unitFromBytes(key, decoded.bytes, obj, ref, ctx.budget);
          ctx.units.set(key, form);
        }
        const formResources = obj.dict.lookup(PDFName.of("Resources"));
        active.add(key);
        interpret(
          form,
          formResources instanceof PDFDict ? formResources : resources,
          multiply(matrixOf(obj.dict.lookup(PDFName.of("Matrix"))), gs.ctm),
          ctx,
          onGlyph,
          depth + 1,
          active,
          gs,
        );
        active.delete(key);
        break;
      }
    }
  });
}
