/**
 * A PDF opened in this thread's PDFium: page count, information-dictionary strings, and the
 * errors mapped onto the same classes and messages as the pdf.js path (src/engine/pdf/extract.ts):
 * a missing or wrong password is encrypted_source, anything unreadable unsupported_format with the
 * same note on damage. A file that asks for a password although the empty one is its owner
 * password opens as readers open it (see openPdfium).
 */
import { encryptedSource, unsupportedFormat } from "../../../errors.ts";
import { damageNote, emptyOwnerPasswordAccess, emptyPasswordIsOwner } from "../../guards/pdf-crypt.ts";
import { withUpdate } from "../page-tree.ts";
import { copyIn, droppedAfterTrap, FPDF_ERR, loadedExports, pdfium, type PdfiumExports } from "./load.ts";

export interface PdfiumDocument {
  readonly ex: PdfiumExports;
  /** FPDF_DOCUMENT handle. */
  readonly handle: number;
  readonly pageCount: number;
  /** An information-dictionary entry (Producer, Creator, CreationDate...), "" when absent. */
  metaText(tag: string): string;
  /** Frees the document and its copy of the bytes; safe to call twice. */
  close(): void;
}

export async function openPdfium(bytes: Uint8Array, password?: string): Promise<PdfiumDocument> {
  const ex = await pdfium();
  try {
    return open(ex, bytes, password);
  } catch (e) {
    throw droppedAfterTrap(e) ? unsupportedFormat(`The PDF could not be read: ${(e as Error).message}`) : e;
  }
}

function open(ex: PdfiumExports, bytes: Uint8Array, password?: string): PdfiumDocument {
  const first = load(ex, bytes, password);
  if (typeof first !== "number") return first;
  if (first === FPDF_ERR.PASSWORD && !password) {
    // PDFium tries the empty password as the owner's for RC4 and AES-128 files, not for AES-256
    // (revision 6) ones: those open with the same help the pdf.js path gives pdf.js.
    const access = emptyOwnerPasswordAccess(bytes);
    const again = access && ("password" in access ? load(ex, bytes, access.password) : load(ex, withUpdate(bytes, access.update)));
    if (again && typeof again !== "number") return again;
  }
  throw openError(first, bytes, password);
}

/** The open document, or PDFium's error code. */
function load(ex: PdfiumExports, bytes: Uint8Array, password?: string): PdfiumDocument | number {
  // PDFium reads the document from this block for as long as it is open: freed on close only.
  const data = copyIn(ex, bytes);
  const pw = password ? copyIn(ex, cString(password)) : 0;
  const handle = ex.FPDF_LoadMemDocument(data, bytes.byteLength, pw);
  if (pw) ex.free(pw);
  if (handle === 0) {
    const code = ex.FPDF_GetLastError();
    ex.free(data);
    return code;
  }
  let isOpen = true;
  return {
    ex,
    handle,
    pageCount: ex.FPDF_GetPageCount(handle),
    metaText: (tag) => metaText(ex, handle, tag),
    close() {
      if (!isOpen) return;
      isOpen = false;
      // After a trap the instance is gone (droppedAfterTrap): nothing of it may be called again.
      if (loadedExports() !== ex) return;
      ex.FPDF_CloseDocument(handle);
      ex.free(data);
    },
  };
}

/** The same errors, with the same messages, as openPdf/loadPdf in ../extract.ts. */
function openError(code: number, bytes: Uint8Array, password: string | undefined): Error {
  if (code === FPDF_ERR.PASSWORD) {
    // The empty password is this file's owner password and still does not open it: it is damaged
    // where the rest of the file would be (the pdf.js path says the same).
    if (!password && emptyPasswordIsOwner(bytes)) return unsupportedFormat(`${damageNote(bytes)}; it needs no password, so send the whole file again`);
    return encryptedSource(password ? "The PDF password is wrong" : "The PDF is encrypted and needs a password (send it in the `password` form field)");
  }
  // A security handler PDFium does not know (not /Standard): no password can open it here.
  if (code === FPDF_ERR.SECURITY) return encryptedSource("The PDF is encrypted with a security handler that is not supported");
  return unsupportedFormat(`${damageNote(bytes)}. The PDF could not be read: ${code === FPDF_ERR.FILE ? "file not found or unreadable" : "invalid structure"}`);
}

/** A password as PDFium takes it: NUL-terminated bytes, UTF-8 (what revision 6 expects; ASCII is the same for all). */
function cString(s: string): Uint8Array {
  const utf8 = Buffer.from(s, "utf8");
  const out = new Uint8Array(utf8.byteLength + 1);
  out.set(utf8);
  return out;
}

const tagBytes = new Map<string, Uint8Array>();

function metaText(ex: PdfiumExports, doc: number, tag: string): string {
  let key = tagBytes.get(tag);
  if (!key) tagBytes.set(tag, (key = cString(tag)));
  const tagPtr = copyIn(ex, key);
  try {
    const need = ex.FPDF_GetMetaText(doc, tagPtr, 0, 0);
    if (need <= 2) return "";
    const buf = ex.malloc(need);
    try {
      ex.FPDF_GetMetaText(doc, tagPtr, buf, need);
      // UTF-16LE without its terminating NUL; a copy, since the heap may grow (and move) later.
      return Buffer.from(new Uint8Array(ex.memory.buffer, buf, need - 2)).toString("utf16le");
    } finally {
      ex.free(buf);
    }
  } finally {
    ex.free(tagPtr);
  }
}
