import { inflateSync } from "node:zlib";
import type { InflatedStreams } from "../guards/pdf.ts";
import type { CryptState } from "../guards/pdf-crypt.ts";
import { type PdfValue, readObject } from "../guards/pdf-object.ts";

/**
 * A lazy index of a PDF's objects over its raw bytes, for the integrity facts: where each object
 * is defined, in which save (the original or an incremental update), and its value read on demand
 * with the guard's bounded object reader. One linear pass finds the `N G obj` headers, skipping
 * stream data; object streams are inflated only to index the objects inside them. It never
 * throws: what it cannot read is simply missing, and the facts built on it say so.
 */

interface Definition {
  num: number;
  gen: number;
  /** Bytes holding the object (the file, or an inflated object stream). */
  data: Uint8Array;
  /** Offset of the value in `data`. */
  at: number;
  /** Where the object ends in `data`, when known (the next object of an object stream). */
  end?: number;
  /** Save the object belongs to: 0 = the original, k = the k-th %%EOF-terminated section after it. */
  section: number;
  /** For a top-level stream: where its data starts and ends in `data`. */
  stream?: [number, number];
}

export interface ObjectIndex {
  /** The latest definition of each object number. */
  get(num: number): Definition | undefined;
  /** The value of object `num` (latest definition), cached. */
  value(num: number): PdfValue | undefined;
  /**
   * The text (latin1) of object `num` from its value to `endobj` (or the next object of its object
   * stream), at most `max` bytes: for values too big or too many for the bounded object reader.
   */
  text(num: number, max: number): string | undefined;
  /** Follows a reference (once) to its value; other values come back as they are. */
  resolve(v: PdfValue | undefined): PdfValue | undefined;
  /** Decoded data of a stream object (Flate or unfiltered; others undefined). */
  streamData(num: number): Uint8Array | undefined;
  /** Object numbers each section defines (section 0 = the original save). */
  sections: Set<number>[];
  /** Sections that belong to the original save: 1, or 2 for a linearised file. */
  originalSections: number;
  /** Bytes of each section, for cheap keyword checks (e.g. a signature's /ByteRange). */
  sectionBytes: Uint8Array[];
  /** Catalog's /Pages reference as found in the last trailer, if any. */
  root: number | undefined;
}

/** Most objects indexed per document; a statement has a few per page. */
const MAX_OBJECTS = 2_000_000;
/** Largest object stream inflated for indexing (the guard already bounded every stream's size). */
const MAX_OBJSTM_BYTES = 64 * 1024 * 1024;

const EOF_MARK = Buffer.from("%%EOF", "latin1");
const STREAM = Buffer.from("stream", "latin1");
const ENDSTREAM = Buffer.from("endstream", "latin1");
const ENDOBJ = Buffer.from("endobj", "latin1");
const HEADER = /(\d{1,10})[ \t\r\n\f\0]+(\d{1,5})[ \t\r\n\f\0]+obj(?![A-Za-z])/g;

export const dictOf = (v: PdfValue | undefined): Map<string, PdfValue> | undefined => (v?.t === "dict" ? v.v : undefined);
export const nameOf = (v: PdfValue | undefined): string | undefined => (v?.t === "name" ? v.v : undefined);
export const numOf = (v: PdfValue | undefined): number | undefined => (v?.t === "num" ? v.v : undefined);

/**
 * `inflated`: object streams the guard already inflated whole (PdfGuardReport.objectStreams),
 * used instead of inflating them again where this index would inflate them itself.
 */
export function indexObjects(bytes: Uint8Array, crypt: CryptState, inflated?: InflatedStreams): ObjectIndex {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buf.toString("latin1");
  const eofs: number[] = [];
  for (let at = buf.indexOf(EOF_MARK); at >= 0; at = buf.indexOf(EOF_MARK, at + 5)) eofs.push(at);
  const sectionOf = (offset: number) => {
    let s = 0;
    while (s < eofs.length && eofs[s]! < offset) s++;
    return s;
  };
  const latest = new Map<number, Definition>();
  const sections: Set<number>[] = [];
  const define = (d: Definition) => {
    const have = latest.get(d.num);
    if (!have || have.section <= d.section) latest.set(d.num, d);
    (sections[d.section] ??= new Set()).add(d.num);
  };
  const objStms: Definition[] = [];
  HEADER.lastIndex = 0;
  let count = 0;
  for (let m = HEADER.exec(text); m && count < MAX_OBJECTS; m = HEADER.exec(text), count++) {
    const at = m.index + m[0].length;
    const def: Definition = { num: Number(m[1]), gen: Number(m[2]), data: bytes, at, section: sectionOf(m.index) };
    const endobj = buf.indexOf(ENDOBJ, at);
    const s = buf.indexOf(STREAM, at);
    if (s >= 0 && (endobj < 0 || s < endobj) && buf[s - 1] !== 0x64 /* not "endstream" */) {
      let start = s + STREAM.length;
      if (bytes[start] === 0x0d) start++;
      if (bytes[start] === 0x0a) start++;
      const dict = dictOf(readObject(bytes, at));
      const found = buf.indexOf(ENDSTREAM, start);
      const end = declaredEnd(buf, numOf(dict?.get("Length")), start) ?? trimEol(bytes, start, found < 0 ? bytes.length : found);
      def.stream = [start, end];
      HEADER.lastIndex = Math.max(HEADER.lastIndex, end);
      if (nameOf(dict?.get("Type")) === "ObjStm") objStms.push(def);
    }
    define(def);
  }
  const linearized = text.slice(0, 2048).includes("/Linearized");
  const cache = new Map<number, PdfValue | undefined>();
  const index: ObjectIndex = {
    get: (num) => latest.get(num),
    value(num) {
      if (cache.has(num)) return cache.get(num);
      const d = latest.get(num);
      const v = d ? readObject(d.data, d.at) : undefined;
      cache.set(num, v);
      return v;
    },
    text(num, max) {
      const d = latest.get(num);
      if (!d) return undefined;
      const end = d.end ?? Buffer.from(d.data.buffer, d.data.byteOffset, d.data.byteLength).indexOf(ENDOBJ, d.at);
      return Buffer.from(d.data.buffer, d.data.byteOffset, d.data.byteLength).toString("latin1", d.at, Math.min(d.at + max, end < 0 ? d.data.length : end));
    },
    resolve: (v) => (v?.t === "ref" ? index.value(v.num) : v),
    streamData(num) {
      const d = latest.get(num);
      return d ? streamData(d, index, crypt) : undefined;
    },
    // Objects after the last %%EOF (a truncated update) make a section of their own.
    sections: Array.from({ length: Math.max(1, eofs.length, sections.length) }, (_, k) => sections[k] ?? new Set<number>()),
    originalSections: linearized && eofs.length > 1 ? 2 : 1,
    sectionBytes: Array.from({ length: Math.max(1, eofs.length, sections.length) }, (_, k) => bytes.subarray(k === 0 ? 0 : (eofs[k - 1] ?? 0), eofs[k] ?? bytes.length)),
    root: undefined,
  };
  for (const stm of objStms) {
    const data = streamData(stm, index, crypt, inflated);
    if (data) for (const d of objectStreamEntries(data, stm, index)) define(d);
  }
  cache.clear();
  index.root = rootPages(buf, bytes, index);
  return index;
}

/** The stream's end by its /Length when that is a direct number and `endstream` follows it. */
function declaredEnd(buf: Buffer, length: number | undefined, start: number): number | undefined {
  if (length === undefined || length < 0 || start + length > buf.length) return undefined;
  let j = start + length;
  while (j < buf.length && (buf[j] === 0x0a || buf[j] === 0x0d || buf[j] === 0x20)) j++;
  return buf.indexOf(ENDSTREAM, j) === j ? start + length : undefined;
}

function trimEol(bytes: Uint8Array, start: number, end: number): number {
  if (end > start && bytes[end - 1] === 0x0a) end--;
  if (end > start && bytes[end - 1] === 0x0d) end--;
  return end;
}

function streamData(d: Definition, index: ObjectIndex, crypt: CryptState, inflated?: InflatedStreams): Uint8Array | undefined {
  if (!d.stream) return undefined;
  const dict = dictOf(readObject(d.data, d.at));
  if (!dict) return undefined;
  let raw = d.data.subarray(d.stream[0], d.stream[1]);
  if (crypt.kind === "locked") return undefined;
  if (crypt.kind === "open" && nameOf(dict.get("Type")) !== "XRef") raw = crypt.decrypt(d.num, d.gen, raw);
  const filter = index.resolve(dict.get("Filter"));
  const filters = filter?.t === "name" ? [filter.v] : filter?.t === "array" ? filter.v.map((f) => nameOf(f) ?? "?") : [];
  if (filters.length === 0) return raw;
  if (filters.length !== 1 || (filters[0] !== "FlateDecode" && filters[0] !== "Fl")) return undefined;
  const parms = dictOf(index.resolve(dict.get("DecodeParms")));
  if (parms && (numOf(parms.get("Predictor")) ?? 1) > 1) return undefined;
  // The guard's copy is the same bytes: the same unencrypted stream data (same start and end in
  // the file), inflated whole by the same zlib.
  const ready = crypt.kind === "none" ? inflated?.get(d.stream[0]) : undefined;
  if (ready && ready.end === d.stream[1]) return ready.data;
  try {
    const out = inflateSync(raw, { maxOutputLength: MAX_OBJSTM_BYTES, finishFlush: 2 /* Z_SYNC_FLUSH: keep what a truncated stream gives */ });
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  } catch {
    return undefined;
  }
}

function objectStreamEntries(data: Uint8Array, stm: Definition, index: ObjectIndex): Definition[] {
  const dict = dictOf(readObject(stm.data, stm.at));
  const n = numOf(index.resolve(dict?.get("N")));
  const first = numOf(index.resolve(dict?.get("First")));
  if (n === undefined || first === undefined || first < 0 || first > data.length) return [];
  const numbers = Buffer.from(data.buffer, data.byteOffset, first).toString("latin1").match(/\d+/g) ?? [];
  const out: Definition[] = [];
  for (let k = 0; k + 1 < numbers.length && out.length < n; k += 2) {
    const at = first + Number(numbers[k + 1]);
    if (at < data.length) out.push({ num: Number(numbers[k]), gen: 0, data, at, section: stm.section });
  }
  // Objects are stored in offset order; each ends where the next begins.
  const sorted = [...out].sort((a, b) => a.at - b.at);
  sorted.forEach((d, k) => (d.end = sorted[k + 1]?.at ?? data.length));
  return out;
}

/** The catalog's /Pages, through the last /Root that reads as a reference. */
function rootPages(buf: Buffer, bytes: Uint8Array, index: ObjectIndex): number | undefined {
  for (let at = buf.lastIndexOf("/Root"); at >= 0; at = at > 0 ? buf.lastIndexOf("/Root", at - 1) : -1) {
    const root = readObject(bytes, at + 5);
    if (root?.t !== "ref") continue;
    const pages = dictOf(index.value(root.num))?.get("Pages");
    if (pages?.t === "ref") return pages.num;
  }
  return undefined;
}
