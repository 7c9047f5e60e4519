import { encryptedSource, unsupportedFormat } from "../errors.ts";
import { isSpreadsheetMl } from "./xml/spreadsheetml.ts";

/**
 * What the bytes are, decided from their content alone (never from a file name).
 * - pdf: `%PDF-` within the first KiB (some generators put junk before it).
 * - xlsx: a zip whose directory names `[Content_Types].xml` and an `xl/` part.
 * - html: an HTML table saved with an .xls name, as several banks' exports are.
 * - spreadsheetml: an Excel 2003 XML workbook, the other thing core-banking systems name .xls.
 * A CFB (OLE2) container is either an encrypted OOXML workbook or a legacy .xls: the first gives
 * encrypted_source, the second unsupported_format.
 */
export type SniffedKind = "pdf" | "xlsx" | "html" | "spreadsheetml";

/** Bytes searched for the PDF signature. */
const PDF_SIGNATURE_WINDOW = 1024;
/** Bytes of an HTML file searched for a <table>. */
const HTML_WINDOW = 64 * 1024;

const ascii = (bytes: Uint8Array, start: number, end: number) => Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, Math.min(end, bytes.length) - start)).toString("latin1");

export function sniff(bytes: Uint8Array): SniffedKind {
  if (bytes.length === 0) throw unsupportedFormat("The file is empty");
  if (ascii(bytes, 0, PDF_SIGNATURE_WINDOW).includes("%PDF-")) return "pdf";
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05)) {
    if (isOoxmlWorkbook(bytes)) return "xlsx";
    throw unsupportedFormat("The zip file is not an Excel workbook (.xlsx)");
  }
  if (isCfb(bytes)) {
    if (cfbHasStream(bytes, "EncryptionInfo") || cfbHasStream(bytes, "EncryptedPackage")) {
      throw encryptedSource("The Excel workbook is password-protected; export it without a password");
    }
    throw unsupportedFormat("Legacy Excel 97-2003 (.xls) workbooks are not supported; save it as .xlsx or PDF");
  }
  if (isSpreadsheetMl(bytes)) return "spreadsheetml";
  const head = ascii(bytes, 0, HTML_WINDOW).toLowerCase();
  if (/<table[\s>]/.test(head) && /<(?:html|table|meta|body|!doctype)/.test(head.slice(0, 4096))) return "html";
  throw unsupportedFormat("The file is neither a PDF nor an Excel workbook");
}

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const isCfb = (b: Uint8Array) => CFB_MAGIC.every((v, i) => b[i] === v);

/** Directory entry names in a CFB file are UTF-16LE; a byte search for the name suffices to detect them. */
function cfbHasStream(bytes: Uint8Array, name: string): boolean {
  const needle = Buffer.from(name, "utf16le");
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).includes(needle);
}

/** Reads the zip central directory names (no inflation) and looks for the OOXML workbook parts. */
function isOoxmlWorkbook(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let contentTypes = false;
  let xl = false;
  // Local file headers (PK\x03\x04) carry the name at offset 30; scanning them avoids trusting the
  // directory offset, and a malformed file simply has no matching names.
  let i = buf.indexOf("PK\x03\x04", 0, "latin1");
  let seen = 0;
  while (i >= 0 && seen < 10_000) {
    const nameLen = buf.readUInt16LE(i + 26);
    const name = buf.toString("utf8", i + 30, i + 30 + nameLen);
    if (name === "[Content_Types].xml") contentTypes = true;
    if (name.startsWith("xl/")) xl = true;
    if (contentTypes && xl) return true;
    seen++;
    i = buf.indexOf("PK\x03\x04", i + 30 + nameLen, "latin1");
  }
  // Central directory entries (PK\x01\x02) carry the name at offset 46.
  i = buf.indexOf("PK\x01\x02", 0, "latin1");
  while (i >= 0 && i + 46 <= buf.length) {
    const nameLen = buf.readUInt16LE(i + 28);
    const name = buf.toString("utf8", i + 46, i + 46 + nameLen);
    if (name === "[Content_Types].xml") contentTypes = true;
    if (name.startsWith("xl/")) xl = true;
    i = buf.indexOf("PK\x01\x02", i + 46 + nameLen, "latin1");
  }
  return contentTypes && xl;
}
