import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFStream, PDFString, type PDFContext, type PDFObject } from "pdf-lib";
import { replaceSpans, type Matcher } from "./find.ts";
import { percentDecoded } from "./percent.ts";
import { removeActiveContent } from "./pdf-active.ts";
import { removeAttachments } from "./pdf-attachments.ts";

/**
 * Keys removed from every dictionary: descriptive metadata (XMP packets, application data) and page
 * thumbnails, which are pictures of the page as it was, personal data included.
 */
const METADATA_KEYS = ["Metadata", "PieceInfo", "Thumb"].map((k) => PDFName.of(k));
/**
 * Removes the document information dictionary, every XMP metadata stream, page thumbnails, every
 * attached file (pdf-attachments.ts), XFA data and every action that runs, launches or submits
 * (pdf-active.ts), then drops every object no longer reachable from the catalog, so the old
 * content streams, the replaced form XObjects, the files and the metadata are not carried into
 * the output as orphans.
 */
export function scrubDocument(context: PDFContext): void {
  context.trailerInfo.Info = undefined;
  const root = context.lookup(context.trailerInfo.Root);
  // An XFA form keeps its field data as XML packets beside the AcroForm; the AcroForm fields stay.
  const acro = root instanceof PDFDict ? root.lookup(PDFName.of("AcroForm")) : undefined;
  if (acro instanceof PDFDict) acro.delete(PDFName.of("XFA"));
  const names = root instanceof PDFDict ? root.lookup(PDFName.of("Names")) : undefined;
  if (names instanceof PDFDict) names.delete(PDFName.of("JavaScript"));
  for (const [, obj] of context.enumerateIndirectObjects()) {
    const dict = obj instanceof PDFStream ? obj.dict : obj instanceof PDFDict ? obj : undefined;
    if (dict) for (const k of METADATA_KEYS) dict.delete(k);
  }
  removeAttachments(context);
  removeActiveContent(context);
  collectGarbage(context);
}

function collectGarbage(context: PDFContext): void {
  const reachable = new Set<string>();
  const stack: PDFObject[] = [];
  const roots = [context.trailerInfo.Root, context.trailerInfo.Encrypt].filter((x): x is PDFObject => x !== undefined);
  stack.push(...roots);
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (o instanceof PDFRef) {
      const key = o.toString();
      if (reachable.has(key)) continue;
      reachable.add(key);
      const target = context.lookup(o);
      if (target) stack.push(target);
    } else if (o instanceof PDFDict) {
      for (const [, v] of o.entries()) stack.push(v);
    } else if (o instanceof PDFArray) {
      stack.push(...o.asArray());
    } else if (o instanceof PDFStream) {
      stack.push(o.dict);
    }
  }
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!reachable.has(ref.toString())) context.delete(ref);
  }
}

// Percent-encoding decoded first: a link's URI hides digits as "%32%30…" as well as an HTML attribute does.
const cleaned = (text: string, matchers: Matcher[]): string | undefined => replaceSpans(percentDecoded(text), matchers)?.text;

/**
 * Removes personal data from every string object of the document outside content streams:
 * outline titles, structure-tree /Alt and /ActualText, form field values, page labels and the
 * like. Returns how many strings changed.
 */
export function scrubStrings(context: PDFContext, matchers: Matcher[]): number {
  let changed = 0;
  const visit = (o: PDFObject | undefined): PDFObject | undefined => {
    if (o instanceof PDFString || o instanceof PDFHexString) {
      const next = cleaned(o.decodeText(), matchers);
      if (next === undefined) return undefined;
      changed++;
      // ASCII stays single-byte (URIs and names must); anything else becomes UTF-16 text.
      return /^[\x00-\x7f]*$/.test(next)
        ? PDFHexString.of([...next].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join(""))
        : PDFHexString.fromText(next);
    }
    if (o instanceof PDFDict) {
      for (const [k, v] of o.entries()) {
        const r = visit(v);
        if (r) o.set(k, r);
      }
    } else if (o instanceof PDFArray) {
      o.asArray().forEach((v, i) => {
        const r = visit(v);
        if (r) o.set(i, r);
      });
    } else if (o instanceof PDFStream) visit(o.dict);
    return undefined;
  };
  for (const [ref, obj] of context.enumerateIndirectObjects()) {
    const r = visit(obj);
    if (r) context.assign(ref, r);
  }
  return changed;
}
