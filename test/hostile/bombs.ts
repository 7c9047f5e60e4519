/**
 * Decompression bombs built without ever holding the inflated bytes: one chunk is deflated with a
 * full flush (its blocks then stand alone), repeated, and closed with an empty final block. A
 * gigabyte of output costs about a megabyte of input and a few milliseconds to build.
 */
import { constants, deflateRawSync } from "node:zlib";
import { concat } from "./zip.ts";

/** Fixed-Huffman final block with no symbols but end-of-block: bits 1,01 then seven zeros. */
const EMPTY_FINAL_BLOCK = new Uint8Array([0x03, 0x00]);

export interface RawBomb {
  /** Raw deflate data (no zlib header). */
  raw: Uint8Array;
  /** Bytes it inflates to. */
  inflatedSize: number;
  crc?: never;
}

export function rawDeflateBomb(chunk: Uint8Array, repeats: number): RawBomb {
  const block = new Uint8Array(deflateRawSync(chunk, { finishFlush: constants.Z_FULL_FLUSH, level: 9 }));
  const parts: Uint8Array[] = Array.from({ length: repeats }, () => block);
  parts.push(EMPTY_FINAL_BLOCK);
  return { raw: concat(parts), inflatedSize: chunk.length * repeats };
}

const ADLER_BASE = 65521;

function adler32(data: Uint8Array): [number, number] {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % ADLER_BASE;
    b = (b + a) % ADLER_BASE;
  }
  return [a, b];
}

/** Adler-32 of `chunk` repeated `repeats` times, by combining (A, B) pairs instead of reading it all. */
function repeatedAdler32(chunk: Uint8Array, repeats: number): number {
  const [ca, cb] = adler32(chunk);
  let a = 1;
  let b = 0;
  const n = chunk.length % ADLER_BASE;
  for (let i = 0; i < repeats; i++) {
    // adler(X||Y): A = A_X + A_Y - 1, B = B_X + B_Y + len(Y) * (A_X - 1)
    const na = (a + ca - 1 + ADLER_BASE) % ADLER_BASE;
    const nb = (b + cb + n * ((a - 1 + ADLER_BASE) % ADLER_BASE)) % ADLER_BASE;
    a = na;
    b = nb;
  }
  return ((b << 16) | a) >>> 0;
}

/** A zlib stream (as a PDF /FlateDecode stream holds) inflating to chunk × repeats, checksum correct. */
export function zlibBomb(chunk: Uint8Array, repeats: number): { data: Uint8Array; inflatedSize: number } {
  const { raw, inflatedSize } = rawDeflateBomb(chunk, repeats);
  const trailer = new Uint8Array(4);
  new DataView(trailer.buffer).setUint32(0, repeatedAdler32(chunk, repeats));
  return { data: concat([new Uint8Array([0x78, 0xda]), raw, trailer]), inflatedSize };
}

/**
 * An LZW (PDF, EarlyChange 1) code stream for zeros, written code by code: each new code is one
 * zero longer than the last (the KwKwK case) until the table is full, then the longest code,
 * 3,839 zero bytes, repeats. Inflates to 3839·3840/2 + repeats·3839 bytes.
 */
export function lzwZeroBomb(repeats: number): { data: Uint8Array; inflatedSize: number } {
  const codes: number[] = [256, 0];
  for (let c = 258; c < 4096; c++) codes.push(c);
  for (let i = 0; i < repeats; i++) codes.push(4095);
  codes.push(257);
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  let width = 9;
  let next = 258;
  let prevSet = false;
  for (const code of codes) {
    acc = (acc << width) | code;
    bits += width;
    while (bits >= 8) {
      bytes.push((acc >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    acc &= (1 << bits) - 1;
    if (code === 256) {
      width = 9;
      next = 258;
      prevSet = false;
      continue;
    }
    if (prevSet && next < 4096) next++;
    prevSet = true;
    if (next + 1 >= 1 << width && width < 12) width++;
  }
  if (bits > 0) bytes.push((acc << (8 - bits)) & 0xff);
  return { data: Uint8Array.from(bytes), inflatedSize: (3839 * 3840) / 2 + repeats * 3839 };
}

export function asciiHex(data: Uint8Array): Uint8Array {
  return new TextEncoder().encode(`${Buffer.from(data).toString("hex")}>`);
}

export function ascii85(data: Uint8Array): Uint8Array {
  let out = "";
  for (let i = 0; i < data.length; i += 4) {
    const chunk = data.subarray(i, i + 4);
    let v = 0;
    for (let k = 0; k < 4; k++) v = v * 256 + (chunk[k] ?? 0);
    if (v === 0 && chunk.length === 4) {
      out += "z";
      continue;
    }
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode((v % 85) + 33));
      v = Math.floor(v / 85);
    }
    out += digits.slice(0, chunk.length + 1).join("");
  }
  return new TextEncoder().encode(`${out}~>`);
}
