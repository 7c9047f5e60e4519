/**
 * One PDFium WebAssembly instance per thread (@embedpdf/pdfium: PDFium, BSD-3, built to wasm, MIT
 * wrapper). The package's JavaScript glue is a debug build that checks every call; the raw wasm
 * exports are called instead, through the typed subset below, which is all the extractor uses.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { init } from "@embedpdf/pdfium";

type Ptr = number;

/** The raw PDFium functions the extractor calls (C signatures; pointers are wasm heap offsets). */
export interface PdfiumExports {
  memory: WebAssembly.Memory;
  malloc(size: number): Ptr;
  free(ptr: Ptr): void;
  FPDF_LoadMemDocument(data: Ptr, size: number, password: Ptr): Ptr;
  FPDF_CloseDocument(doc: Ptr): void;
  FPDF_GetLastError(): number;
  FPDF_GetPageCount(doc: Ptr): number;
  /** Writes UTF-16LE with a terminating NUL; answers the bytes needed (2 for an absent key). */
  FPDF_GetMetaText(doc: Ptr, tag: Ptr, buffer: Ptr, length: number): number;
  FPDF_LoadPage(doc: Ptr, index: number): Ptr;
  FPDF_ClosePage(page: Ptr): void;
  /** The intersection of the page's crop box and media box (FS_RECTF: left, top, right, bottom). */
  FPDF_GetPageBoundingBox(page: Ptr, rect: Ptr): number;
  /** /Rotate as quarter turns clockwise (0–3). */
  FPDFPage_GetRotation(page: Ptr): number;
  FPDFText_LoadPage(page: Ptr): Ptr;
  FPDFText_ClosePage(textPage: Ptr): void;
  FPDFText_CountChars(textPage: Ptr): number;
  /** UTF-16LE of `count` characters from `start`, NUL-terminated; answers the units written. */
  FPDFText_GetText(textPage: Ptr, start: number, count: number, buffer: Ptr): number;
  FPDFText_GetUnicode(textPage: Ptr, index: number): number;
  FPDFText_IsGenerated(textPage: Ptr, index: number): number;
  FPDFText_GetTextObject(textPage: Ptr, index: number): Ptr;
  FPDFText_GetFontSize(textPage: Ptr, index: number): number;
  /** FS_MATRIX (6 floats): the character's matrix in page space, font size not applied. */
  FPDFText_GetMatrix(textPage: Ptr, index: number, matrix: Ptr): number;
  FPDFText_GetCharOrigin(textPage: Ptr, index: number, x: Ptr, y: Ptr): number;
  /** FS_RECTF of the glyph's advance box (origin to origin + advance, font ascent to descent). */
  FPDFText_GetLooseCharBox(textPage: Ptr, index: number, rect: Ptr): number;
  FPDFTextObj_GetFont(textObject: Ptr): Ptr;
  /** Marked-content marks around a page object, and whether one of them has the parameter `key` (0: it has not). */
  FPDFPageObj_CountMarks(pageObject: Ptr): number;
  FPDFPageObj_GetMark(pageObject: Ptr, index: number): Ptr;
  FPDFPageObjMark_GetParamValueType(mark: Ptr, key: Ptr): number;
}

/** FPDF_GetLastError codes (fpdfview.h). */
export const FPDF_ERR = { SUCCESS: 0, UNKNOWN: 1, FILE: 2, FORMAT: 3, PASSWORD: 4, SECURITY: 5, PAGE: 6 } as const;

let instance: Promise<PdfiumExports> | undefined;
let loaded: PdfiumExports | undefined;

/** This thread's PDFium, compiled and initialised on first use (~0.1 s), then shared. */
export function pdfium(): Promise<PdfiumExports> {
  instance ??= load().then((ex) => (loaded = ex));
  return instance;
}

async function load(): Promise<PdfiumExports> {
  const wasmPath = createRequire(import.meta.url).resolve("@embedpdf/pdfium/pdfium.wasm");
  const file = readFileSync(wasmPath);
  const wasmBinary = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
  const wrapped = await init({ wasmBinary });
  // Initialises the library (FPDF_InitLibraryWithConfig) the way the package expects.
  wrapped.PDFiumExt_Init();
  return wrapped.pdfium.wasmExports as unknown as PdfiumExports;
}

/**
 * A trap inside PDFium (out of wasm memory, one of its own checks failing) leaves the instance in
 * an undefined state: true for such an error, after which this thread's instance is dropped and
 * the next document loads a fresh one (the old memory goes with the last reference to it).
 */
export function droppedAfterTrap(e: unknown): boolean {
  if (!(e instanceof WebAssembly.RuntimeError)) return false;
  instance = undefined;
  loaded = undefined;
  return true;
}

/**
 * Bytes of this thread's wasm memory (0 before PDFium is first used). It grows to hold the largest
 * document and page read so far and never shrinks, so the worker's recycle check counts it.
 */
export function pdfiumMemoryBytes(): number {
  return loaded ? loaded.memory.buffer.byteLength : 0;
}

/** This thread's instance if it is loaded (and not dropped after a trap). */
export const loadedExports = (): PdfiumExports | undefined => loaded;

/** Copies `bytes` into a fresh malloc'd block of the wasm heap; the caller frees it. */
export function copyIn(ex: PdfiumExports, bytes: Uint8Array): Ptr {
  const ptr = ex.malloc(Math.max(1, bytes.byteLength));
  if (ptr === 0) throw new Error("PDFium could not allocate memory for the document");
  new Uint8Array(ex.memory.buffer, ptr, bytes.byteLength).set(bytes);
  return ptr;
}
