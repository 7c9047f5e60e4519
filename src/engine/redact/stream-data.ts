import { constants, inflateSync } from "node:zlib";
import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, type PDFStream } from "pdf-lib";

/** Largest decoded content stream, as the PDF guard's per-stream limit (a real page is far under 1 MiB). */
const MAX_STREAM_BYTES = 64 * 1024 * 1024;

/** Filters pdf-lib can undo besides Flate, which node:zlib handles. */
const PDF_LIB_FILTERS = new Set(["LZWDecode", "ASCII85Decode", "ASCIIHexDecode", "RunLengthDecode", "FlateDecode"]);

function filterNames(dict: PDFDict): string[] {
  const f = dict.lookup(PDFName.of("Filter"));
  if (f instanceof PDFName) return [f.decodeText()];
  if (f instanceof PDFArray) return f.asArray().map((x) => (x instanceof PDFName ? x.decodeText() : "?"));
  return [];
}

function hasPredictor(dict: PDFDict): boolean {
  const p = dict.lookup(PDFName.of("DecodeParms"));
  const parms = p instanceof PDFArray ? p.asArray() : [p];
  return parms.some((x) => x instanceof PDFDict && (x.lookup(PDFName.of("Predictor")) as PDFNumber | undefined)?.asNumber?.() !== undefined && (x.lookup(PDFName.of("Predictor")) as PDFNumber).asNumber() > 1);
}

/**
 * Decoded bytes of a stream, or null with the reason when its filters are not ones we can undo
 * (such a stream is left exactly as it was and reported by the caller).
 */
export function decodeStream(stream: PDFStream): { bytes: Uint8Array } | { unsupported: string } {
  if (!(stream instanceof PDFRawStream)) return { bytes: stream.getContents() };
  const filters = filterNames(stream.dict);
  if (filters.length === 0) return { bytes: stream.contents };
  if (hasPredictor(stream.dict)) return { unsupported: `${filters.join("+")} with a predictor` };
  try {
    if (filters.length === 1 && filters[0] === "FlateDecode") {
      // Z_SYNC_FLUSH tolerates a truncated stream, as viewers do. The cap matters for encrypted
      // files, whose streams the pre-parse guard cannot inflate and so cannot measure.
      return { bytes: new Uint8Array(inflateSync(stream.contents, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_STREAM_BYTES })) };
    }
    if (filters.every((f) => PDF_LIB_FILTERS.has(f))) return { bytes: decodePDFRawStream(stream).decode() };
  } catch (e) {
    return { unsupported: `${filters.join("+")}: ${(e as Error).message}` };
  }
  return { unsupported: filters.join("+") };
}
