import { leadingStages } from "./filters.ts";

/**
 * One linear pass over PDF object syntax that records only what the guards need: how deep arrays
 * and dictionaries nest, what the page tree claims, and where the streams are with their filters.
 * It is not a PDF parser: it never follows references and tolerates any garbage (which it skips),
 * so its cost is one read of the file whatever the file contains.
 */

export interface StreamRef {
  /** Stream data as stored (still encoded). */
  data: Uint8Array;
  /** Filter names in order, e.g. ["FlateDecode"]; empty when unfiltered or the filter is indirect. */
  filters: string[];
  /** /Type of the stream dictionary, e.g. "ObjStm". */
  type?: string;
  /** Number and generation of the object holding the stream (encryption keys derive from them). */
  obj?: { num: number; gen: number };
  /** Of an object stream: how many objects it holds and where the first one starts. */
  objStm?: { n: number; first: number };
}

/**
 * A `/Type /Pages` dictionary that is a whole object, with its kids: what the page-tree balancer
 * (src/engine/pdf/page-tree.ts) needs to re-parent them. The dictionary bytes are a copy.
 */
export interface PagesNode {
  num: number;
  gen: number;
  /** Its /Count, when a number. */
  count?: number;
  /** Kids as `num, gen` pairs in order (references only). */
  kids: number[];
  dict: Uint8Array;
  /** Where the /Kids array ([ to ] inclusive) sits in `dict`. */
  kidsAt: [number, number];
}

/** Where each object of an object stream starts, for scanning its contents object by object. */
export interface ObjectStart {
  num: number;
  at: number;
}

export interface PdfSyntax {
  /** Deepest array/dictionary nesting seen (stops counting at the limit). */
  maxDepth: number;
  depthExceeded: boolean;
  /** Largest /Count of a /Type /Pages dictionary, or 0. */
  pagesCountClaim: number;
  /** Streams worth decoding: a decodable filter first, or an object stream. */
  streams: StreamRef[];
  /** Every stream seen, decodable or not. */
  streamCount: number;
  javaScript: boolean;
  embeddedFiles: boolean;
  /** Object numbers each object refers to (`N G R`), for following form XObjects. */
  refs: Map<number, number[]>;
  /** Objects that are form XObjects (streams with /Subtype /Form). */
  forms: number[];
  /** More references than MAX_REFS: `refs` is incomplete. */
  refsTruncated: boolean;
  /** Object numbers of the objects that are `/Type /Page` dictionaries, in file order. */
  pageObjects: number[];
  /** Whole-object `/Type /Pages` dictionaries that list their kids in an array. */
  pagesNodes: PagesNode[];
  /** More page objects than MAX_PAGE_OBJECTS: `pageObjects` is incomplete. */
  pageObjectsTruncated: boolean;
}

interface DictFrame {
  kind: "dict";
  /** Offset of its `<<`. */
  start: number;
  kids?: number[];
  kidsAt?: [number, number];
  /** Key waiting for its value. */
  key: string | null;
  /** Key of the latest value, so a following `R` can mark it indirect. */
  lastKey: string | null;
  type?: string;
  count?: number;
  filters?: string[];
  length?: number | null;
  subtype?: string;
  n?: number;
  first?: number;
}
interface ArrayFrame {
  kind: "array";
  names: string[];
  /** Offset of its `[`. */
  start: number;
  /** Collected `num, gen` pairs of its references: only for a dictionary's /Kids. */
  refs?: number[];
}
type Frame = DictFrame | ArrayFrame;

const WS = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WS[c] = 1;
const DELIM = new Uint8Array(256);
for (const c of "()<>[]{}/%") DELIM[c.charCodeAt(0)] = 1;

const ENDSTREAM = Buffer.from("endstream", "latin1");
const STREAM = Buffer.from("stream", "latin1");
const OBJ = Buffer.from("obj", "latin1");
const ENDOBJ = Buffer.from("endobj", "latin1");

function isWord(bytes: Uint8Array, at: number, word: Uint8Array): boolean {
  for (let k = 0; k < word.length; k++) if (bytes[at + k] !== word[k]) return false;
  return true;
}

/** A PDF number (`12`, `-3.5`, `.5`), or NaN for anything else (keywords such as `true`). */
function readNumber(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  let sign = 1;
  if (bytes[i] === 0x2d || bytes[i] === 0x2b) sign = bytes[i++] === 0x2d ? -1 : 1;
  let value = 0;
  let digits = 0;
  let scale = 0;
  for (; i < end; i++) {
    const b = bytes[i]!;
    if (b >= 0x30 && b <= 0x39) {
      value = value * 10 + (b - 0x30);
      if (scale > 0) scale *= 10;
      digits++;
    } else if (b === 0x2e && scale === 0) scale = 1;
    else return Number.NaN;
  }
  if (digits === 0) return Number.NaN;
  return (sign * value) / (scale || 1);
}
/** Arrays longer than this keep only their first names (a /Filter chain is never this long). */
const MAX_ARRAY_NAMES = 8;
/** References recorded per scan (~8 bytes each); a real statement has far fewer than this. */
const MAX_REFS = 4_000_000;
/** Page objects recorded per scan: far above MAX_PAGES, so only a hostile file reaches it. */
const MAX_PAGE_OBJECTS = 200_000;

/** `#xx` escapes in names are decoded, as pdf.js does, so /Fl#61teDecode is still seen as Flate. */
function decodeName(raw: string): string {
  return raw.includes("#") ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : raw;
}

/**
 * The longest name the scan or the filter table (filters.ts) compares with ("RunLengthDecode").
 * Longer names all mean the same to it: nothing.
 */
const LONGEST_KNOWN_NAME = 15;
/** What every longer name reads as: the empty name, which the scan never takes for a known one. */
const OTHER_NAME = "";

/**
 * The name whose bytes (after the `/`) are start..end, decoded; OTHER_NAME, without making a
 * string of it, when it cannot decode to a name LONGEST_KNOWN_NAME long or shorter (a `#xx`
 * escape is three bytes for one). pdf-lib writes a fresh 20-odd-byte font key per page and use,
 * hundreds of thousands in a long statement, and none of them is a name the scan reads.
 */
function nameAt(bytes: Uint8Array, buf: Buffer, start: number, end: number): string {
  const length = end - start;
  if (length > LONGEST_KNOWN_NAME * 3) return OTHER_NAME;
  if (length > LONGEST_KNOWN_NAME) {
    let escaped = false;
    for (let k = start; k < end && !escaped; k++) escaped = bytes[k] === 0x23; /* # */
    if (!escaped) return OTHER_NAME;
  }
  const name = decodeName(buf.toString("latin1", start, end));
  return name.length > LONGEST_KNOWN_NAME ? OTHER_NAME : name;
}

export function scanPdfSyntax(bytes: Uint8Array, maxDepth: number, maxStreams = Number.POSITIVE_INFINITY, objectStarts: ObjectStart[] = []): PdfSyntax {
  const n = bytes.length;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: PdfSyntax = {
    maxDepth: 0,
    depthExceeded: false,
    pagesCountClaim: 0,
    streams: [],
    streamCount: 0,
    javaScript: false,
    embeddedFiles: false,
    refs: new Map(),
    forms: [],
    refsTruncated: false,
    pageObjects: [],
    pagesNodes: [],
    pageObjectsTruncated: false,
  };
  let refCount = 0;
  // The two latest numbers with nothing else after them: the `N G` of an `N G R` reference.
  let ref1 = -1;
  let ref2 = -1;
  let nextStart = 0;
  const stack: Frame[] = [];
  // The dictionary that closed at top level with nothing after it yet: the dictionary of a
  // `stream` keyword if one follows.
  let lastTopDict: DictFrame | null = null;
  // The two latest numbers seen outside any container, and the object they opened ("N G obj").
  let num1 = -1;
  let num2 = -1;
  let currentObj: { num: number; gen: number } | undefined;

  const top = (): Frame | undefined => stack[stack.length - 1];
  const push = (f: Frame): boolean => {
    stack.push(f);
    if (stack.length > out.maxDepth) out.maxDepth = stack.length;
    if (stack.length > maxDepth) {
      out.depthExceeded = true;
      return false;
    }
    return true;
  };
  /**
   * A value (scalar or closed container) arrived in the current container: a name, a number, a
   * closed array, or (all three absent) anything else. Plain arguments, not an object per token:
   * an object stream of a long statement holds a million tokens.
   */
  const value = (name: string | undefined, num: number | undefined, array: ArrayFrame | undefined) => {
    const f = top();
    if (!f) return;
    if (f.kind === "array") {
      if (name !== undefined && f.names.length < MAX_ARRAY_NAMES) f.names.push(name);
      return;
    }
    if (f.key === null) {
      if (name !== undefined) f.key = name; // a name where a key belongs is the next key
      return; // the generation number of an `N G R` reference
    }
    const key = f.key;
    if (key === "Type" && name !== undefined) f.type = name;
    else if (key === "Count" && num !== undefined) f.count = num;
    else if (key === "Length" && num !== undefined) f.length = num;
    else if (key === "Filter") f.filters = name !== undefined ? [name] : (array?.names ?? []);
    else if (key === "Subtype" && name !== undefined) f.subtype = name;
    else if (key === "N" && num !== undefined) f.n = num;
    else if (key === "First" && num !== undefined) f.first = num;
    else if (key === "Kids" && array?.refs) {
      f.kids = array.refs;
      f.kidsAt = [array.start, i];
    }
    f.lastKey = key;
    f.key = null;
  };
  const closeDict = (f: DictFrame) => {
    if (f.type === "Pages" && f.count !== undefined && f.count > out.pagesCountClaim) out.pagesCountClaim = f.count;
    if (stack.length === 0) {
      lastTopDict = f;
      if (currentObj && f.type === "Page") {
        if (out.pageObjects.length < MAX_PAGE_OBJECTS) out.pageObjects.push(currentObj.num);
        else out.pageObjectsTruncated = true;
      } else if (currentObj && f.type === "Pages" && f.kids && f.kidsAt) {
        out.pagesNodes.push({ ...currentObj, count: f.count, kids: f.kids, dict: bytes.slice(f.start, i), kidsAt: [f.kidsAt[0] - f.start, f.kidsAt[1] - f.start] });
      }
    } else value(undefined, undefined, undefined);
  };

  let i = 0;
  while (i < n) {
    const c = bytes[i]!;
    if (WS[c]) {
      i++;
      continue;
    }
    // Inside an object stream, objects have no `obj` keyword: their offsets say where each begins.
    while (nextStart < objectStarts.length && objectStarts[nextStart]!.at <= i) {
      currentObj = { num: objectStarts[nextStart]!.num, gen: 0 };
      stack.length = 0;
      nextStart++;
    }
    const wasTopDict: DictFrame | null = lastTopDict;
    lastTopDict = null;
    const isNumberStart = (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e;
    const wasRef1 = ref1;
    const wasRef2 = ref2;
    if (c !== 0x25 && !isNumberStart) {
      ref1 = -1;
      ref2 = -1;
    }
    if (c === 0x25 /* % */) {
      while (i < n && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
      lastTopDict = wasTopDict; // a comment may sit between a dictionary and `stream`
    } else if (c === 0x28 /* ( */) {
      let depth = 0;
      for (; i < n; i++) {
        const b = bytes[i];
        if (b === 0x5c /* \ */) i++;
        else if (b === 0x28) depth++;
        else if (b === 0x29 && --depth === 0) break;
      }
      i++;
      value(undefined, undefined, undefined);
    } else if (c === 0x3c /* < */) {
      if (bytes[i + 1] === 0x3c) {
        i += 2;
        if (!push({ kind: "dict", key: null, lastKey: null, start: i - 2 })) return out;
      } else {
        const end = buf.indexOf(0x3e, i);
        i = end < 0 ? n : end + 1;
        value(undefined, undefined, undefined);
      }
    } else if (c === 0x3e /* > */) {
      i += bytes[i + 1] === 0x3e ? 2 : 1;
      const f = top();
      if (f?.kind === "dict") {
        stack.pop();
        closeDict(f);
      }
    } else if (c === 0x5b /* [ */) {
      const parent = top();
      const kids = parent?.kind === "dict" && parent.key === "Kids";
      if (!push({ kind: "array", names: [], start: i, ...(kids ? { refs: [] } : {}) })) return out;
      i++;
    } else if (c === 0x5d /* ] */) {
      i++;
      const f = top();
      if (f?.kind === "array") {
        stack.pop();
        value(undefined, undefined, f);
      }
    } else if (c === 0x7b || c === 0x7d || c === 0x29) {
      i++; // PostScript calculator braces and stray parentheses carry nothing we need
    } else if (c === 0x2f /* / */) {
      const start = ++i;
      while (i < n && !WS[bytes[i]!] && !DELIM[bytes[i]!]) i++;
      const name = nameAt(bytes, buf, start, i);
      if (name === "JavaScript" || name === "JS") out.javaScript = true;
      else if (name === "EmbeddedFile" || name === "EmbeddedFiles") out.embeddedFiles = true;
      value(name, undefined, undefined);
    } else {
      const start = i;
      while (i < n && !WS[bytes[i]!] && !DELIM[bytes[i]!]) i++;
      if (i === start) {
        i++;
        continue;
      }
      // Keywords and numbers are read from the bytes: a file of millions of tokens must not
      // become millions of strings.
      const len = i - start;
      if (len === 6 && isWord(bytes, start, STREAM)) {
        out.streamCount++;
        if ((wasTopDict as DictFrame | null)?.subtype === "Form" && currentObj) out.forms.push(currentObj.num);
        i = skipStream(bytes, buf, i, wasTopDict, out.streams, currentObj);
        if (out.streams.length > maxStreams) return out;
      } else if ((len === 3 && isWord(bytes, start, OBJ)) || (len === 6 && isWord(bytes, start, ENDOBJ))) {
        const word = len === 3 ? "obj" : "endobj";
        // Objects are parsed one by one: an unclosed bracket in one never deepens the next.
        stack.length = 0;
        currentObj = word === "obj" && num1 >= 0 && num2 >= 0 ? { num: num2, gen: num1 } : undefined;
      } else if (len === 1 && c === 0x52 /* R */) {
        if (wasRef1 >= 0 && wasRef2 >= 0 && currentObj) {
          if (refCount++ < MAX_REFS) {
            const list = out.refs.get(currentObj.num);
            if (list) list.push(wasRef2);
            else out.refs.set(currentObj.num, [wasRef2]);
          } else out.refsTruncated = true;
        }
        const f = top();
        if (f?.kind === "array" && f.refs && wasRef1 >= 0 && wasRef2 >= 0) {
          // A /Kids longer than any acceptable page count is not worth keeping (nor balancing).
          if (f.refs.length < 2 * MAX_PAGE_OBJECTS) f.refs.push(wasRef2, wasRef1);
          else {
            f.refs = undefined;
            out.pageObjectsTruncated = true;
          }
        }
        if (f?.kind === "dict" && f.lastKey === "Length") f.length = null;
        if (f?.kind === "dict" && f.lastKey === "Filter") f.filters = [];
      } else {
        const num = readNumber(bytes, start, i);
        if (Number.isInteger(num) && num >= 0) {
          ref2 = ref1;
          ref1 = num;
        } else {
          ref1 = -1;
          ref2 = -1;
        }
        if (stack.length === 0 && Number.isInteger(num)) {
          num2 = num1;
          num1 = num;
        }
        value(undefined, Number.isNaN(num) ? undefined : num, undefined);
      }
    }
  }
  return out;
}

/** Records the stream that starts after the `stream` keyword at `i` and returns where lexing resumes. */
function skipStream(bytes: Uint8Array, buf: Buffer, i: number, dict: DictFrame | null, streams: StreamRef[], obj: StreamRef["obj"]): number {
  const n = bytes.length;
  if (bytes[i] === 0x0d) i++;
  if (bytes[i] === 0x0a) i++;
  let end = -1;
  const declared = dict?.length;
  if (typeof declared === "number" && declared >= 0 && i + declared <= n) {
    let j = i + declared;
    while (j < n && WS[bytes[j]!]) j++;
    if (buf.indexOf(ENDSTREAM, j) === j) end = i + declared;
  }
  let resume: number;
  if (end >= 0) {
    resume = end;
  } else {
    // The length lies or is indirect: pdf.js also falls back to searching for `endstream`.
    const found = buf.indexOf(ENDSTREAM, i);
    end = found < 0 ? n : found;
    resume = end;
    if (end > i && bytes[end - 1] === 0x0a) end--;
    if (end > i && bytes[end - 1] === 0x0d) end--;
  }
  const filters = dict?.filters ?? [];
  // Only streams the guard will decode are kept: a file of millions of tiny plain streams costs nothing.
  if (leadingStages(filters).length > 0) {
    const objStm = dict?.type === "ObjStm" && dict.n !== undefined && dict.first !== undefined ? { objStm: { n: dict.n, first: dict.first } } : {};
    streams.push({ data: bytes.subarray(i, end), filters, ...(dict?.type ? { type: dict.type } : {}), ...(obj ? { obj } : {}), ...objStm });
  }
  return resume;
}
