import type { BytesPiece } from "../response-json.ts";
import type { Enrichment } from "./types.ts";

/**
 * The enriched rows' JSON written from the plain rows' JSON as UTF-8 bytes, without serialising
 * the rows again nor building the enriched text as a string: each row's bytes gain
 * `,"enrichment":{...}` before its closing brace, which is exactly where JSON.stringify({ ...row,
 * enrichment }) writes it (the last key). Bytes, because that is what an answer sends: on the
 * 76,000-row bench statement the enriched rows are 29 MB, and a string of them would be made,
 * then encoded into as much again (docs/insights.md, Speed). Every pattern looked for is ASCII,
 * and no byte of a multi-byte UTF-8 character is below 0x80, so the bytes are searched as the
 * text would be.
 */

const encoder = new TextEncoder();

/**
 * One enrichment as JSON bytes. Rows that name no party, carry no session id and pay no fee share
 * a handful of texts (a category, a channel and their confidences), so those are written and
 * encoded once each.
 */
export function enrichmentJsonWriter(): (e: Enrichment) => Uint8Array {
  // category -> channel -> category confidence -> channel confidence -> bytes: lookups, no key string built per row.
  const shared = new Map<string, Map<string, Map<number, Map<number, Uint8Array>>>>();
  const level = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
    let next = map.get(key);
    if (next === undefined) map.set(key, (next = make()));
    return next;
  };
  return (e) => {
    const c = e.confidence;
    if (e.counterparty !== null || e.session_id !== null || e.fee_of !== null || c.counterparty !== null || c.session_id !== null || c.fee_of !== null) return encoder.encode(JSON.stringify(e));
    const texts = level(level(level(shared, e.category, () => new Map()), e.channel, () => new Map()), c.category, () => new Map<number, Uint8Array>());
    return level(texts, c.channel, () => encoder.encode(JSON.stringify(e)));
  };
}

/** Where the rows of a transactions array's JSON bytes end: `ends[i]` is row i's closing `}`. */
export type RowCuts = Int32Array;

const ROW_GAP = Buffer.from('},{"');
const KEY = Buffer.from(',"enrichment":');

/** A Buffer over the same memory (Buffer's indexOf searches bytes natively); no copy. */
export const asBuffer = (b: Uint8Array): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/**
 * The rows of `json`, exactly an array of `count` flat row objects in JSON.stringify's layout;
 * undefined when it is not (the caller then writes the enriched rows itself). Rows are told apart
 * by nextRow; the last row's end is found by reading its strings, since `}]` may occur inside one.
 */
export function rowCuts(json: Uint8Array, count: number): RowCuts | undefined {
  const last = json.byteLength - 1;
  if (json[0] !== 0x5b || json[last] !== 0x5d) return undefined;
  if (count === 0) return last === 1 ? new Int32Array(0) : undefined;
  if (json[1] !== 0x7b) return undefined;
  const buffer = asBuffer(json);
  const ends = new Int32Array(count);
  let at = 1;
  for (let i = 0; i < count; i++) {
    const end = i < count - 1 ? nextRow(buffer, at) : lastRowEnd(json, at);
    if (end < 0) return undefined;
    ends[i] = end;
    at = end + 2;
  }
  return at - 1 === last ? ends : undefined;
}

/** The byte length of the enriched array: the plain one and each row's `,"enrichment":` and enrichment. */
export function enrichedLength(json: Uint8Array, enrichments: readonly Uint8Array[]): number {
  let n = json.byteLength;
  for (const e of enrichments) n += KEY.byteLength + e.byteLength;
  return n;
}

/** Writes the enriched array into `out` at `at` (enrichedLength bytes); answers where it ended. */
export function writeEnriched(out: Uint8Array, at: number, json: Uint8Array, cuts: RowCuts, enrichments: readonly Uint8Array[]): number {
  const from = asBuffer(json);
  let start = 0;
  for (let i = 0; i < cuts.length; i++) {
    const end = cuts[i] as number;
    // The row up to (not including) its closing brace, then the enrichment as its last key.
    at += from.copy(out, at, start, end);
    out.set(KEY, at);
    at += KEY.byteLength;
    const e = enrichments[i] as Uint8Array;
    out.set(e, at);
    at += e.byteLength;
    start = end;
  }
  return at + from.copy(out, at, start, json.byteLength);
}

/**
 * A transactions array's JSON bytes with `enrichment(i)` added to its i-th row, as a piece to
 * write straight into the answer's buffer (src/engine/response-json.ts responseBytes), so the
 * enriched array is never a buffer of its own (29 MB on the bench statement); undefined when the
 * bytes are not `count` flat rows in JSON.stringify's layout.
 */
export function enrichedRows(rowsJson: Uint8Array, count: number, enrichment: (i: number) => Uint8Array): BytesPiece | undefined {
  const cuts = rowCuts(rowsJson, count);
  if (!cuts) return undefined;
  const enrichments = Array.from({ length: count }, (_, i) => enrichment(i));
  return { byteLength: enrichedLength(rowsJson, enrichments), writeInto: (out, at) => void writeEnriched(out, at, rowsJson, cuts, enrichments) };
}

/** After a closing quote, valid JSON has one of these next (or whitespace, which JSON.stringify never writes). */
const AFTER_STRING = new Set([",", "}", "]", ":", " ", "\t", "\n", "\r"].map((c) => c.charCodeAt(0)));

/**
 * Where the row starting at `from` ends (its `}`) when another row follows: the next `},{"` whose
 * quote opens a key. A narration may hold `},{` just before its closing quote (`"A },{"`), but a
 * closing quote is followed by `,`, `}`, `]` or `:`, never by a key's first letter; a quote inside
 * a string is escaped (`\"`), so it never completes the pattern. -1 when there is none.
 */
function nextRow(json: Buffer, from: number): number {
  for (let at = json.indexOf(ROW_GAP, from); at >= 0; at = json.indexOf(ROW_GAP, at + 1)) {
    const next = json[at + 4];
    if (next !== undefined && !AFTER_STRING.has(next)) return at;
  }
  return -1;
}

/** Where the flat row object starting at `from` closes: its first `}` outside a string; -1 if none. */
function lastRowEnd(json: Uint8Array, from: number): number {
  let inString = false;
  for (let i = from; i < json.length; i++) {
    const ch = json[i] as number;
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      // A nested object or array: not a flat row.
      if (i !== from) return -1;
    } else if (ch === 0x7d) return i;
  }
  return -1;
}
