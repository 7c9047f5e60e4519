/**
 * Page rasters and page-object facts through this thread's PDFium, for OCR. Pages are rendered in
 * wasm memory into a BGRx bitmap (white first: PDFium paints only what the page draws) and handed
 * on as a grey PGM (P5) buffer, the format tesseract.js reads with no image library; nothing touches
 * disk and no canvas package is needed.
 */
import { unsupportedFormat } from "../../errors.ts";
import type { PdfiumDocument } from "../pdf/pdfium/document.ts";
import type { PdfiumExports } from "../pdf/pdfium/load.ts";

type Ptr = number;

/** The rendering and page-object calls used here, on top of the extractor's subset (fpdfview.h, fpdf_edit.h). */
interface RenderExports extends PdfiumExports {
  FPDF_GetPageWidthF(page: Ptr): number;
  FPDF_GetPageHeightF(page: Ptr): number;
  FPDFBitmap_Create(width: number, height: number, alpha: number): Ptr;
  FPDFBitmap_FillRect(bitmap: Ptr, left: number, top: number, width: number, height: number, color: number): void;
  FPDFBitmap_GetBuffer(bitmap: Ptr): Ptr;
  FPDFBitmap_GetStride(bitmap: Ptr): number;
  FPDFBitmap_Destroy(bitmap: Ptr): void;
  FPDF_RenderPageBitmap(bitmap: Ptr, page: Ptr, x: number, y: number, width: number, height: number, rotate: number, flags: number): void;
  FPDFPage_CountObjects(page: Ptr): number;
  FPDFPage_GetObject(page: Ptr, index: number): Ptr;
  FPDFPageObj_GetType(object: Ptr): number;
  /** Out: left, bottom, right, top (float32), page space. */
  FPDFPageObj_GetBounds(object: Ptr, left: Ptr, bottom: Ptr, right: Ptr, top: Ptr): number;
  FPDFTextObj_GetTextRenderMode(textObject: Ptr): number;
}

/** fpdfview.h render flags: annotations (stamps drawn as annotations) and print quality. */
const FPDF_ANNOT = 0x01;
const FPDF_PRINTING = 0x800;
const WHITE = 0xffffffff;
/** fpdf_edit.h page object types. */
const OBJ_TEXT = 1;
const OBJ_PATH = 2;
const OBJ_IMAGE = 3;
/** FPDF_TEXTRENDERMODE_INVISIBLE (Tr 3): glyphs neither filled nor stroked, the mark of an OCR layer. */
const TEXT_INVISIBLE = 3;

/**
 * Most pixels of one rendered page (about an A3 page at 300 dpi): a page that claims to be metres
 * wide is drawn at a lower resolution instead of asking the wasm heap for gigabytes.
 */
export const MAX_PAGE_PIXELS = 36_000_000;

export interface PageRaster {
  /** Binary PGM (P5, maxval 255) of the page as displayed (its /Rotate applied). */
  pgm: Uint8Array;
  widthPx: number;
  heightPx: number;
  /** Resolution actually used (below the one asked for on a page larger than MAX_PAGE_PIXELS allows). */
  dpi: number;
  /** The page's displayed size in PDF points. */
  widthPt: number;
  heightPt: number;
}

/** What a page draws, for the decision whether its text can be trusted or it must be read by OCR. */
export interface PageObjects {
  textObjects: number;
  invisibleTextObjects: number;
  pathObjects: number;
  /** Share (0..1) of the page's area that its largest image covers. */
  largestImageCover: number;
}

const rx = (doc: PdfiumDocument) => doc.ex as RenderExports;

function withPage<T>(doc: PdfiumDocument, n: number, f: (page: Ptr, ex: RenderExports) => T): T {
  const ex = rx(doc);
  const page = ex.FPDF_LoadPage(doc.handle, n - 1);
  if (page === 0) throw unsupportedFormat(`Page ${n} of the PDF could not be read: invalid structure`);
  try {
    return f(page, ex);
  } finally {
    ex.FPDF_ClosePage(page);
  }
}

/**
 * Page n (1-based) at `dpi`, in grey. A 300-dpi A4 page holds ~35 MB of wasm heap while it is
 * drawn; the bitmap is freed before the PGM (a quarter of it) is returned.
 */
export function renderPage(doc: PdfiumDocument, n: number, dpi: number): PageRaster {
  return withPage(doc, n, (page, ex) => {
    const widthPt = ex.FPDF_GetPageWidthF(page);
    const heightPt = ex.FPDF_GetPageHeightF(page);
    const area = Math.max(1, widthPt * heightPt);
    const scale = Math.min(dpi / 72, Math.sqrt(MAX_PAGE_PIXELS / area));
    const w = Math.max(1, Math.round(widthPt * scale));
    const h = Math.max(1, Math.round(heightPt * scale));
    const bitmap = ex.FPDFBitmap_Create(w, h, 0);
    if (bitmap === 0) throw new Error("PDFium could not allocate the page bitmap");
    try {
      ex.FPDFBitmap_FillRect(bitmap, 0, 0, w, h, WHITE);
      ex.FPDF_RenderPageBitmap(bitmap, page, 0, 0, w, h, 0, FPDF_ANNOT | FPDF_PRINTING);
      const stride = ex.FPDFBitmap_GetStride(bitmap);
      const bgrx = new Uint8Array(ex.memory.buffer, ex.FPDFBitmap_GetBuffer(bitmap), stride * h);
      return { pgm: toPgm(bgrx, w, h, stride), widthPx: w, heightPx: h, dpi: scale * 72, widthPt, heightPt };
    } finally {
      ex.FPDFBitmap_Destroy(bitmap);
    }
  });
}

/** BGRx rows to a P5 PGM, luma by the Rec. 601 weights (integer arithmetic). */
function toPgm(bgrx: Uint8Array, w: number, h: number, stride: number): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${w} ${h}\n255\n`);
  const out = new Uint8Array(header.byteLength + w * h);
  out.set(header);
  let o = header.byteLength;
  for (let y = 0; y < h; y++) {
    let i = y * stride;
    for (let x = 0; x < w; x++, i += 4) out[o++] = (bgrx[i]! * 114 + bgrx[i + 1]! * 587 + bgrx[i + 2]! * 299) / 1000;
  }
  return out;
}

/** Counts page n's text, invisible text, path and image objects, and the cover of its largest image. */
export function pageObjects(doc: PdfiumDocument, n: number): PageObjects {
  return withPage(doc, n, (page, ex) => {
    const facts: PageObjects = { textObjects: 0, invisibleTextObjects: 0, pathObjects: 0, largestImageCover: 0 };
    const area = Math.max(1, ex.FPDF_GetPageWidthF(page) * ex.FPDF_GetPageHeightF(page));
    const box = ex.malloc(16);
    try {
      const count = ex.FPDFPage_CountObjects(page);
      for (let i = 0; i < count; i++) {
        const o = ex.FPDFPage_GetObject(page, i);
        const type = ex.FPDFPageObj_GetType(o);
        if (type === OBJ_TEXT) {
          facts.textObjects++;
          if (ex.FPDFTextObj_GetTextRenderMode(o) === TEXT_INVISIBLE) facts.invisibleTextObjects++;
        } else if (type === OBJ_PATH) facts.pathObjects++;
        else if (type === OBJ_IMAGE && ex.FPDFPageObj_GetBounds(o, box, box + 4, box + 8, box + 12)) {
          const [l, b, r, t] = new Float32Array(ex.memory.buffer, box, 4);
          facts.largestImageCover = Math.max(facts.largestImageCover, ((r! - l!) * (t! - b!)) / area);
        }
      }
    } finally {
      ex.free(box);
    }
    return facts;
  });
}
