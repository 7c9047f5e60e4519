import type { ParseResponse, Transaction } from "./types.ts";

/**
 * JSON.stringify(response), byte for byte, with each transactions array serialised once: the
 * first account section's rows are both the top level's `transactions` and `accounts[0]`'s, the
 * same array, ~13 MB of JSON on the 76,000 rows of the bench statement.
 */
export function responseJson(response: ParseResponse, rowsJson: RowsJson = (list) => JSON.stringify(list)): string {
  const made = new Map<Transaction[], string>();
  const rows = (list: Transaction[], section: number): string => {
    let json = made.get(list);
    if (json === undefined) made.set(list, (json = rowsJson(list, section)));
    return json;
  };
  const inSection = (section: number) => (key: string, value: unknown): string | undefined => (key === "transactions" && Array.isArray(value) ? rows(value, section) : undefined);
  return objectJson(response, (key, value) => {
    if (key === "accounts" && Array.isArray(value)) return `[${value.map((a: unknown, i) => (isPlainObject(a) ? objectJson(a, inSection(i)) : (JSON.stringify(a) ?? "null"))).join(",")}]`;
    return inSection(0)(key, value);
  });
}

/**
 * A transactions array's JSON, told which account section it is (the top level's is section 0's
 * rows): JSON.stringify unless a writer adds to each row (the insights' enrichment, src/output/insights-inline.ts).
 */
export type RowsJson = (rows: Transaction[], section: number) => string;

/** Bytes not yet written: their length, and how to write them into a buffer at an offset. */
export interface BytesPiece {
  byteLength: number;
  writeInto(out: Uint8Array, at: number): void;
}

/** Rows' JSON as responseBytes takes it: text, bytes, or bytes written straight into its buffer. */
export type RowsBytes = string | Uint8Array | BytesPiece;

/** How responseBytes writes: each section's rows, and the buffer the whole goes into. */
export interface BytesWriter {
  rows?: (rows: Transaction[], section: number) => RowsBytes;
  /** A zeroed buffer of `size` bytes (a SharedArrayBuffer's, for bytes other threads read without a copy). */
  allocate?: (size: number) => Uint8Array;
}

/**
 * responseJson's JSON as the UTF-8 bytes an answer sends, written into one buffer of the exact
 * size: the rows' JSON (text, or bytes when a writer made them so, src/output/insights-inline.ts)
 * goes in where it belongs, without first joining a string of the whole response (26 MB on the bench
 * statement's plain answer, 59 MB with insights) that would then be encoded into as much again.
 * An array written twice (the first section's rows) is copied within the buffer.
 */
export function responseBytes(response: ParseResponse, { rows: rowsJson = (list) => JSON.stringify(list), allocate = (size) => new Uint8Array(size) }: BytesWriter = {}): Uint8Array {
  const made: RowsBytes[] = [];
  // JSON.stringify escapes every control character, so a NUL in the text can only be a marker.
  const marked = responseJson(response, (list, section) => `\u0000${made.push(rowsJson(list, section)) - 1}\u0000`).split("\u0000");
  const size = (x: RowsBytes) => (typeof x === "string" ? Buffer.byteLength(x, "utf8") : x.byteLength);
  // Even places are the response's own text; odd places the index (in `made`) of the rows written there.
  const pieces = marked.map((text, i) => (i % 2 === 0 ? text : (made[Number(text)] as RowsBytes)));
  const out = allocate(pieces.reduce((n, p) => n + size(p), 0));
  const encoder = new TextEncoder();
  const placed = new Map<number, [number, number]>();
  let at = 0;
  for (const [i, piece] of pieces.entries()) {
    const rows = i % 2 === 1 ? Number(marked[i]) : -1;
    const before = placed.get(rows);
    let length: number;
    if (before) {
      out.copyWithin(at, before[0], before[1]);
      length = before[1] - before[0];
    } else if (typeof piece === "string") {
      length = encoder.encodeInto(piece, out.subarray(at)).written;
    } else if (piece instanceof Uint8Array) {
      out.set(piece, at);
      length = piece.byteLength;
    } else {
      piece.writeInto(out, at);
      length = piece.byteLength;
    }
    if (rows >= 0 && !before) placed.set(rows, [at, at + length]);
    at += length;
  }
  return out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v) && !("toJSON" in v);

/** JSON.stringify of a plain object, with `special` answering some fields' JSON itself (undefined: the usual). */
function objectJson(o: object, special: (key: string, value: unknown) => string | undefined): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(o)) {
    const json = special(key, value) ?? (JSON.stringify(value) as string | undefined);
    // JSON.stringify leaves out a field whose value it cannot write (undefined, a function).
    if (json !== undefined) parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${parts.join(",")}}`;
}
