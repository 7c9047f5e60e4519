/**
 * Checks an XLSX (zip) before exceljs inflates anything: the central directory's declared sizes and
 * entry count must be within limits, every entry must inflate to no more than it declares (zlib's
 * maxOutputLength stops a lying zip bomb early), XML parts may not declare a DOCTYPE or ENTITY
 * (entity-expansion attacks), and the worksheets' rows, cells and the text their cells produce
 * (text-size.ts) are bounded before any object model is built.
 */
import { inflateRawSync } from "node:zlib";
import { payloadTooLarge, unsupportedFormat } from "../../errors.ts";
import { MAX_CELL_XML_BYTES, MAX_XLSX_TEXT_CHARS, sharedStringLengths, worksheetText } from "./text-size.ts";

const SHARED_STRINGS = /^xl\/sharedStrings\.xml$/i;
const cellTooLong = () => unsupportedFormat("A cell holds more than 32,767 characters, which Excel does not allow");

export interface ZipLimits {
  maxInflatedBytes: number;
  maxRows: number;
  /** Most `<c>` cells in all worksheets and most shared strings, counted before exceljs builds any (it holds ~1 KB per cell). */
  maxCells?: number;  /** Most characters all cells may produce, shared strings counted per cell that shows them (text-size.ts). */
  maxTextChars?: number;
}

/** More parts than any real workbook has (a sheet, its rels and styles are a handful each). */
const MAX_ENTRIES = 10_000;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;
/** EOCD record (22 bytes) plus the longest possible archive comment. */
const EOCD_SEARCH = 22 + 0xffff;

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

const malformed = () => unsupportedFormat("The spreadsheet is not a readable XLSX (damaged zip directory)");

function u64(view: DataView, at: number): number {
  const v = view.getBigUint64(at, true);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw malformed();
  return Number(v);
}

interface Directory {
  count: number;
  offset: number;
  size: number;
}

function findDirectory(bytes: Uint8Array, view: DataView): Directory {
  const stop = Math.max(0, bytes.length - EOCD_SEARCH);
  for (let at = bytes.length - 22; at >= stop; at--) {
    if (view.getUint32(at, true) !== SIG_EOCD) continue;
    let count = view.getUint16(at + 10, true);
    let size = view.getUint32(at + 12, true);
    let offset = view.getUint32(at + 16, true);
    if ((count === 0xffff || size === 0xffffffff || offset === 0xffffffff) && at >= 20 && view.getUint32(at - 20, true) === SIG_ZIP64_LOCATOR) {
      const rec = u64(view, at - 12);
      if (rec + 56 > bytes.length || view.getUint32(rec, true) !== SIG_ZIP64_EOCD) throw malformed();
      count = u64(view, rec + 32);
      size = u64(view, rec + 40);
      offset = u64(view, rec + 48);
    }
    if (offset + size > bytes.length) throw malformed();
    return { count, offset, size };
  }
  throw malformed();
}

/** Sizes of 0xFFFFFFFF live in the ZIP64 extra field (id 0x0001), in a fixed order. */
function zip64Sizes(view: DataView, extraStart: number, extraEnd: number, entry: ZipEntry): void {
  for (let at = extraStart; at + 4 <= extraEnd; ) {
    const id = view.getUint16(at, true);
    const len = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let p = at + 4;
      if (entry.uncompressedSize === 0xffffffff && p + 8 <= at + 4 + len) { entry.uncompressedSize = u64(view, p); p += 8; }
      if (entry.compressedSize === 0xffffffff && p + 8 <= at + 4 + len) { entry.compressedSize = u64(view, p); p += 8; }
      if (entry.localOffset === 0xffffffff && p + 8 <= at + 4 + len) entry.localOffset = u64(view, p);
      return;
    }
    at += 4 + len;
  }
}

/** Reads the central directory; refuses before anything is inflated. */
export function readCentralDirectory(bytes: Uint8Array, maxInflatedBytes: number): ZipEntry[] {
  if (bytes.length < 22) throw malformed();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dir = findDirectory(bytes, view);
  if (dir.count > MAX_ENTRIES) throw payloadTooLarge(`The spreadsheet has ${dir.count} zip entries; at most ${MAX_ENTRIES} are accepted`);
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  let total = 0;
  let at = dir.offset;
  for (let i = 0; i < dir.count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== SIG_CENTRAL) throw malformed();
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const commentLen = view.getUint16(at + 32, true);
    if (at + 46 + nameLen + extraLen + commentLen > bytes.length) throw malformed();
    const entry: ZipEntry = {
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLen)),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      uncompressedSize: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    };
    zip64Sizes(view, at + 46 + nameLen, at + 46 + nameLen + extraLen, entry);
    total += entry.uncompressedSize;
    if (total > maxInflatedBytes) {
      throw payloadTooLarge(`The spreadsheet inflates to more than ${maxInflatedBytes} bytes`);
    }
    entries.push(entry);
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Inflates one entry, never past its declared size (a larger real size is itself a refusal). */
export function inflateEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== SIG_LOCAL) throw malformed();
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw malformed();
  const data = bytes.subarray(start, end);
  if (entry.flags & 0x1) throw unsupportedFormat("The spreadsheet's zip entries are encrypted");
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.uncompressedSize) throw malformed();
    return data;
  }
  if (entry.method !== 8) throw unsupportedFormat(`The spreadsheet uses zip compression method ${entry.method}, which is not supported`);
  try {
    // +1 so that "inflates to exactly the declared size" passes and one byte more fails.
    const out = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.uncompressedSize + 1) });
    if (out.length !== entry.uncompressedSize) throw malformed();
    return out;
  } catch (e) {
    if (e instanceof RangeError || (e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw payloadTooLarge("A spreadsheet part inflates to more than its zip directory declares");
    }
    if (e instanceof Error && e.name === "AppError") throw e;
    throw malformed();
  }
}

interface XmlScan {
  /** A `<!DOCTYPE` or `<!ENTITY` declaration is present. */
  dtd: boolean;
  /** `<row` elements (any namespace prefix). */
  rows: number;
  /** `<c` (cell) elements. */
  cells: number;
  /** `<si` (shared string) elements. */
  strings: number;
}

const LT = 0x3c;
const isNameByte = (b: number) => (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b === 0x5f || b === 0x2d || b === 0x2e;
const lower = (b: number) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
const isTagEnd = (b: number) => b === 0x3e || b === 0x2f || b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

function startsWithAt(bytes: Uint8Array, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) if (lower(bytes[at + i] ?? 0) !== word.charCodeAt(i)) return false;
  return true;
}

/** One pass over the raw bytes (no string copy of a possibly large sheet). */
export function scanXml(bytes: Uint8Array): XmlScan {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    // UTF-16 parts are legal but rare; re-encode as UTF-8 and scan that.
    return scanXml(new TextEncoder().encode(new TextDecoder(bytes[0] === 0xff ? "utf-16le" : "utf-16be").decode(bytes)));
  }
  let rows = 0;
  let cells = 0;
  let strings = 0;
  for (let i = bytes.indexOf(LT); i !== -1; i = bytes.indexOf(LT, i + 1)) {
    if (bytes[i + 1] === 0x21 && (startsWithAt(bytes, i + 2, "doctype") || startsWithAt(bytes, i + 2, "entity"))) return { dtd: true, rows, cells, strings };
    let j = i + 1;
    while (isNameByte(bytes[j] ?? 0)) j++;
    // Skip a namespace prefix such as `x:`.
    const nameStart = bytes[j] === 0x3a ? j + 1 : i + 1;
    if (startsWithAt(bytes, nameStart, "row")) {
      const after = bytes[nameStart + 3] ?? 0;
      if (after === 0x3e || after === 0x2f || after === 0x20 || after === 0x09 || after === 0x0a || after === 0x0d) rows++;
    } else if (lower(bytes[nameStart] ?? 0) === 0x63 /* c */ && isTagEnd(bytes[nameStart + 1] ?? 0)) cells++;
    else if (startsWithAt(bytes, nameStart, "si") && isTagEnd(bytes[nameStart + 2] ?? 0)) strings++;
  }
  return { dtd: false, rows, cells, strings };
}

/**
 * Runs every check. Returns the number of worksheet rows declared in the XML (an upper bound on
 * what exceljs will build).
 */
export function guardXlsxZip(bytes: Uint8Array, limits: ZipLimits): number {
  const entries = readCentralDirectory(bytes, limits.maxInflatedBytes);
  let rows = 0;
  let cells = 0;
  const maxCells = limits.maxCells ?? Number.POSITIVE_INFINITY;
  const maxChars = limits.maxTextChars ?? MAX_XLSX_TEXT_CHARS;
  // The shared strings first: a worksheet's cells are measured by the strings they point at.
  const sst = entries.find((e) => SHARED_STRINGS.test(e.name));
  const sstData = sst ? inflateEntry(bytes, sst) : undefined;
  if (sstData && scanXml(sstData).dtd) throw unsupportedFormat(`The spreadsheet part ${sst!.name} declares a DOCTYPE or ENTITY, which is refused`);
  const shared = sstData ? sharedStringLengths(sstData) : new Uint32Array(0);
  if (shared.some((n) => n > MAX_CELL_XML_BYTES)) throw cellTooLong();
  let chars = 0;
  for (const entry of entries) {
    if (entry.name.endsWith("/")) continue;
    const data = inflateEntry(bytes, entry);
    if (!/\.(xml|rels|vml)$/i.test(entry.name)) continue;
    const scan = scanXml(data);
    if (scan.dtd) throw unsupportedFormat(`The spreadsheet part ${entry.name} declares a DOCTYPE or ENTITY, which is refused`);
    if (/^xl\/worksheets\/[^/]+\.xml$/i.test(entry.name)) {
      rows += scan.rows;
      if (rows > limits.maxRows) throw payloadTooLarge(`The spreadsheet has more than ${limits.maxRows} rows`);
      cells += scan.cells;
      if (cells > maxCells) throw payloadTooLarge(`The spreadsheet has more than ${maxCells} cells`);
      const text = worksheetText(data, shared);
      if (text.longest > MAX_CELL_XML_BYTES) throw cellTooLong();
      chars += text.chars;
      if (chars > maxChars) throw payloadTooLarge(`The spreadsheet's cells hold more than ${maxChars.toLocaleString("en")} characters of text (shared strings counted once per cell that shows them)`);
    }
    if (/^xl\/sharedStrings\.xml$/i.test(entry.name) && scan.strings > maxCells) {
      throw payloadTooLarge(`The spreadsheet has more than ${maxCells} shared strings`);
    }
  }
  return rows;
}
