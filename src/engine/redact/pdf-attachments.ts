import { PDFArray, PDFDict, PDFName, type PDFContext } from "pdf-lib";
import { eachDict } from "./pdf-walk.ts";

/**
 * Keys through which a file is embedded: a file specification's /EF and /RF (the file and its
 * related files), associated files (/AF, PDF 2.0) on the catalog, pages, annotations and any other
 * object, and a portfolio's /Collection.
 */
const FILE_KEYS = ["EF", "RF", "AF", "Collection"].map((k) => PDFName.of(k));
/** Annotations that exist to carry a file or media clip: removed from their page whole. */
const CARRIERS = new Set(["FileAttachment", "RichMedia", "Movie", "Sound", "Screen", "3D"]);

/**
 * Drops every embedded file, wherever it hangs: the document's /Names /EmbeddedFiles tree,
 * FileAttachment (and other media) annotations, associated files and file specifications'
 * embedded streams. Attached files can hold anything, often the statement itself in another
 * format, and none of it is needed to read the redacted copy. Returns how many links were cut;
 * the file streams themselves go with the unreachable objects.
 */
export function removeAttachments(context: PDFContext): number {
  let removed = 0;
  const root = context.lookup(context.trailerInfo.Root);
  const names = root instanceof PDFDict ? root.lookup(PDFName.of("Names")) : undefined;
  if (names instanceof PDFDict && names.has(PDFName.of("EmbeddedFiles"))) {
    names.delete(PDFName.of("EmbeddedFiles"));
    removed++;
  }
  eachDict(context, (dict) => {
    for (const k of FILE_KEYS) if (dict.has(k)) {
      dict.delete(k);
      removed++;
    }
    const annots = dict.lookup(PDFName.of("Annots"));
    if (!(annots instanceof PDFArray)) return;
    const kept = annots.asArray().filter((a) => {
      const annot = context.lookup(a);
      const subtype = annot instanceof PDFDict ? annot.lookup(PDFName.of("Subtype")) : undefined;
      return !(subtype instanceof PDFName && CARRIERS.has(subtype.decodeText()));
    });
    if (kept.length === annots.size()) return;
    removed += annots.size() - kept.length;
    dict.set(PDFName.of("Annots"), context.obj(kept));
  });
  return removed;
}
