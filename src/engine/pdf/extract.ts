import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { AppError, encryptedSource, scannedDocument, tooManyPages, unsupportedFormat } from "../../errors.ts";
import type { PageText, TextItem } from "../types.ts";
import { damageNote, emptyOwnerPasswordAccess, emptyPasswordIsOwner } from "../guards/pdf-crypt.ts";
import { loopbackWorker, VERBOSITY_ERRORS_ONLY } from "./loopback.ts";
import { withUpdate } from "./page-tree.ts";
import { capText } from "../text-cap.ts";

// pdfjs loads its fonts and CMaps by URL; point it at the package's own folders so no page falls
// back to a warning-emitting default.
const pkgDir = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
const STANDARD_FONT_DATA_URL = pathToFileURL(join(pkgDir, "standard_fonts") + "/").href;
const CMAP_URL = pathToFileURL(join(pkgDir, "cmaps") + "/").href;


export type PdfDocument = Awaited<ReturnType<typeof pdfjs.getDocument>["promise"]>;

/**
 * Opens a PDF from memory, with `update` (a page-tree update, src/engine/pdf/page-tree.ts)
 * appended. pdf.js gets a copy, made once here, because it transfers (detaches) its input. A file
 * that asks for a password although the empty one is its owner password opens as readers open it
 * (see emptyOwnerPasswordAccess).
 */
export async function openPdf(bytes: Uint8Array, password?: string, update?: Uint8Array): Promise<PdfDocument> {
  try {
    return await loadPdf(withUpdate(bytes, update), password);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (e.errorClass === "unsupported_format") throw unsupportedFormat(`${damageNote(bytes)}. ${e.message}`);
    if (password || e.errorClass !== "encrypted_source") throw e;
    const base = withUpdate(bytes, update);
    const access = emptyOwnerPasswordAccess(base);
    if (access) return "password" in access ? loadPdf(base, access.password) : loadPdf(withUpdate(base, access.update));
    // The empty password would open it, but the damage hides where the rest of the file is.
    if (emptyPasswordIsOwner(bytes)) throw unsupportedFormat(`${damageNote(bytes)}; it needs no password, so send the whole file again`);
    throw e;
  }
}

async function loadPdf(data: Uint8Array, password?: string): Promise<PdfDocument> {
  const task = pdfjs.getDocument({
    data,
    worker: loopbackWorker(),
    password,
    isEvalSupported: false,
    standardFontDataUrl: STANDARD_FONT_DATA_URL,
    cMapUrl: CMAP_URL,
    cMapPacked: true,
    verbosity: VERBOSITY_ERRORS_ONLY,
    useSystemFonts: false,
    stopAtErrors: false,
  });
  try {
    return await task.promise;
  } catch (e) {
    await task.destroy().catch(() => {});
    const name = (e as { name?: string }).name;
    if (name === "PasswordException") {
      const code = (e as { code?: number }).code;
      // pdfjs: code 1 = NEED_PASSWORD, 2 = INCORRECT_PASSWORD.
      throw encryptedSource(
        code === 2 || password
          ? "The PDF password is wrong"
          : "The PDF is encrypted and needs a password (send it in the `password` form field)",
      );
    }
    throw unsupportedFormat(`The PDF could not be read: ${(e as Error).message ?? "invalid structure"}`);
  }
}

export async function pdfProducer(doc: PdfDocument): Promise<string> {
  try {
    const meta = await doc.getMetadata();
    const info = meta.info as { Producer?: unknown; Creator?: unknown; Title?: unknown; Subject?: unknown; Author?: unknown } | undefined;
    // As pdfiumProducer: title, subject and author too, for bank detection.
    return [info?.Producer, info?.Creator, info?.Title, info?.Subject, info?.Author].filter((v): v is string => typeof v === "string" && v !== "").join(" / ");
  } catch {
    return "";
  }
}

export function checkPageCount(pageCount: number, maxPages: number | undefined): void {
  if (maxPages !== undefined && pageCount > maxPages) {
    throw tooManyPages(`The PDF has ${pageCount} pages; at most ${maxPages} are accepted`);
  }
}

/** Text whose transform has a rotation/skew part above this share of its scale is not horizontal. */
const ROTATION_EPSILON = 0.01;

interface RawItem {
  str?: string;
  transform?: number[];
  width?: number;
  height?: number;
  fontName?: string;
}

/** Text items of one page with top-left origin coordinates. */
export async function readPage(doc: PdfDocument, n: number): Promise<PageText> {
  const page = await doc.getPage(n);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items: TextItem[] = [];
    for (const raw of content.items as RawItem[]) {
      const str = raw.str;
      const t = raw.transform;
      if (!str || !t || str.trim() === "") continue;
      // The item's matrix in display space (page /Rotate and y-down applied): [a b c d e f] with
      // (e, f) the baseline origin and |(c, d)| the glyph height. Text that is not upright on the
      // displayed page (b or c non-zero: a diagonal "CUSTOMER COPY" watermark, margin notes) is
      // never part of the statement table, so it is left out; a landscape page whose text was
      // drawn rotated to read upright is kept.
      const m = multiply(viewport.transform as number[], t);
      if (m[0]! <= 0 || Math.abs(m[1]!) > ROTATION_EPSILON * m[0]! || Math.abs(m[2]!) > ROTATION_EPSILON * Math.abs(m[3]!)) continue;
      const fontHeight = Math.hypot(m[2]!, m[3]!) || raw.height || 0;
      // An item longer than any statement line is cut (its advance shortened in proportion).
      // A glyph with no Unicode (a sign the font lacks, drawn as its missing glyph) comes as NUL;
      // PDFium's path answers U+FFFD for it (pdfium/text.ts), and so does this one.
      const kept = capText(str.includes("\u0000") ? str.replaceAll("\u0000", "\ufffd") : str);
      items.push({ str: kept, x: m[4]!, y: m[5]! - fontHeight, width: ((raw.width ?? 0) * kept.length) / str.length, height: fontHeight, ...(raw.fontName ? { font: raw.fontName } : {}) });
    }
    return { number: n, width: viewport.width, height: viewport.height, items };
  } finally {
    page.cleanup();
  }
}

/** Product of two PDF matrices [a b c d e f]: `m2` applied first, then `m1`. */
function multiply(m1: number[], m2: number[]): number[] {
  const [a1 = 1, b1 = 0, c1 = 0, d1 = 1, e1 = 0, f1 = 0] = m1;
  const [a2 = 1, b2 = 0, c2 = 0, d2 = 1, e2 = 0, f2 = 0] = m2;
  return [a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2, a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1];
}

/** pdf.js rejects broken page trees (loops, missing kids) only when a page is fetched: still the upload's fault, so 422. */
export function unreadablePage(n: number, e: unknown): unknown {
  if (e instanceof AppError) return e;
  return unsupportedFormat(`Page ${n} of the PDF could not be read: ${e instanceof Error ? e.message : "invalid structure"}`);
}

/** A document whose pages carry no text at all cannot be parsed without OCR. */
export function assertHasText(pages: PageText[]): void {
  if (pages.length > 0 && pages.every((p) => p.items.length === 0)) throw scannedDocument();
}
