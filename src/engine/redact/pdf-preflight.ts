import { PDFArray, PDFDict, PDFName, PDFStream, type PDFDocument, type PDFObject } from "pdf-lib";
import { MAX_TEXT_CHARS } from "../text-cap.ts";
import { ContentBudget } from "./budget.ts";
import { decodeStream } from "./stream-data.ts";

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00;
const isDelimiter = (b: number) => b === 0x28 || b === 0x29 || b === 0x3c || b === 0x3e || b === 0x5b || b === 0x5d || b === 0x7b || b === 0x7d || b === 0x2f || b === 0x25;
/**
 * Glyphs one string may cost: the interpreter refuses an operator drawing more than MAX_TEXT_CHARS
 * (unsupported_format, like the parse's line cut), so a longer string costs no more than that.
 */
const glyphsOf = (chars: number) => Math.min(chars, MAX_TEXT_CHARS + 1);
const isNumberStart = (b: number) => (b >= 0x30 && b <= 0x39) || b === 0x2b || b === 0x2d || b === 0x2e;

/**
 * What a content stream would make the redactor build, counted without building it: one per
 * operator and one per byte of string operands (at most one glyph each). One pass over the bytes,
 * no allocation per token, so counting a bomb costs what reading its bytes does.
 */
export function contentItems(src: Uint8Array): number {
  let n = 0;
  let i = 0;
  while (i < src.length) {
    const b = src[i]!;
    if (isSpace(b)) i++;
    else if (b === 0x25) while (i < src.length && src[i] !== 0x0a && src[i] !== 0x0d) i++;
    else if (b === 0x28) {
      // A literal string: nested parentheses and escapes.
      let depth = 0;
      let chars = 0;
      for (; i < src.length; i++) {
        const c = src[i]!;
        if (c === 0x5c) i++;
        else if (c === 0x28) depth++;
        else if (c === 0x29 && --depth === 0) break;
        else chars++;
      }
      n += glyphsOf(chars);
      i++;
    } else if (b === 0x3c && src[i + 1] !== 0x3c) {
      const end = src.indexOf(0x3e, i);
      const stop = end < 0 ? src.length : end;
      n += glyphsOf((stop - i) >> 1);
      i = stop + 1;
    } else if (b === 0x2f || isNumberStart(b)) {
      i++;
      while (i < src.length && !isSpace(src[i]!) && !isDelimiter(src[i]!)) i++;
    } else if (isDelimiter(b)) i++;
    else {
      // A keyword: an operator (true/false/null are rare enough to count too).
      n++;
      const start = i;
      while (i < src.length && !isSpace(src[i]!) && !isDelimiter(src[i]!)) i++;
      // Inline image data is binary: skip to its EI.
      if (i - start === 2 && src[start] === 0x49 && src[start + 1] === 0x44) {
        const ei = findEi(src, i);
        i = ei < 0 ? src.length : ei + 2;
      }
    }
  }
  return n;
}

function findEi(src: Uint8Array, from: number): number {
  for (let k = src.indexOf(0x45, from); k >= 0; k = src.indexOf(0x45, k + 1)) {
    if (src[k + 1] === 0x49 && isSpace(src[k - 1] ?? 0x20) && (k + 2 >= src.length || isSpace(src[k + 2]!))) return k;
  }
  return -1;
}

function streamsOf(doc: PDFDocument, o: PDFObject | undefined): PDFStream[] {
  const v = o === undefined ? undefined : doc.context.lookup(o);
  if (v instanceof PDFStream) return [v];
  if (v instanceof PDFArray) return v.asArray().flatMap((x) => streamsOf(doc, x));
  return [];
}

const isForm = (s: PDFStream) => s.dict.lookup(PDFName.of("Subtype")) === PDFName.of("Form");

/**
 * Refuses, before the document is read for text, a PDF whose page content and form XObjects would
 * make the redactor build more than its budget (budget.ts): a 55 KB file of 2 million text
 * operators is refused here in well under a second, not after gigabytes. Each stream counts once;
 * a form drawn many times is counted as it is drawn, by the pass's own budget.
 */
export function checkRedactable(doc: PDFDocument): void {
  const budget = new ContentBudget();
  const seen = new Set<PDFStream>();
  const count = (s: PDFStream) => {
    if (seen.has(s)) return;
    seen.add(s);
    const d = decodeStream(s);
    if ("bytes" in d) budget.spend(contentItems(d.bytes));
  };
  for (const page of doc.getPages()) {
    for (const s of streamsOf(doc, page.node.get(PDFName.of("Contents")))) count(s);
    const xobjects = page.node.Resources()?.lookup(PDFName.of("XObject"));
    // Forms only: an image's bytes are pixels, not drawing operations.
    if (xobjects instanceof PDFDict) for (const [, x] of xobjects.entries()) for (const s of streamsOf(doc, x)) if (isForm(s)) count(s);
  }
}
