/**
 * The PDF stream filters other than Flate that pdf.js decodes for text extraction, each written to
 * stop at a byte limit. LZW and RunLength can expand thousands of times (an LZW code stands for up
 * to 4,096 bytes), so they are counted like Flate; ASCIIHex and ASCII85 only shrink or barely grow,
 * but are decoded so a Flate or LZW stage behind them is still checked.
 */

export type Stage = "flate" | "lzw" | "runlength" | "ascii85" | "asciihex";

/** pdf.js's names and abbreviations for the filters it decodes; image-only filters end the chain. */
// A Map, not an object literal: a filter named /constructor must not find Object.prototype's.
const STAGES = new Map<string, Stage>([
  ["FlateDecode", "flate"],
  ["Fl", "flate"],
  ["LZWDecode", "lzw"],
  ["LZW", "lzw"],
  ["RunLengthDecode", "runlength"],
  ["RL", "runlength"],
  ["ASCII85Decode", "ascii85"],
  ["A85", "ascii85"],
  ["ASCIIHexDecode", "asciihex"],
  ["AHx", "asciihex"],
]);

/** The decodable filters at the head of a chain, up to the first one only images use. */
export function leadingStages(filters: string[]): Stage[] {
  const stages: Stage[] = [];
  for (const f of filters) {
    const stage = STAGES.get(f);
    if (!stage) break;
    stages.push(stage);
  }
  return stages;
}

export interface Decoded {
  size: number;
  overLimit: boolean;
  /** The output, when asked for and within the limit. */
  bytes?: Uint8Array;
}

/** Collects output up to a limit; without `keep` it only counts. */
class Sink {
  size = 0;
  overLimit = false;
  private buf: Uint8Array;
  constructor(
    private readonly limit: number,
    private readonly keep: boolean,
  ) {
    this.buf = new Uint8Array(keep ? 4096 : 0);
  }
  /** False once the limit is passed: the caller stops. */
  push(bytes: Uint8Array, start: number, length: number): boolean {
    if (this.size + length > this.limit) {
      this.size += length;
      this.overLimit = true;
      return false;
    }
    if (this.keep) {
      this.grow(this.size + length);
      this.buf.set(bytes.subarray(start, start + length), this.size);
    }
    this.size += length;
    return true;
  }
  repeat(byte: number, count: number): boolean {
    if (this.size + count > this.limit) {
      this.size += count;
      this.overLimit = true;
      return false;
    }
    if (this.keep) {
      this.grow(this.size + count);
      this.buf.fill(byte, this.size, this.size + count);
    }
    this.size += count;
    return true;
  }
  private grow(need: number) {
    if (need <= this.buf.length) return;
    const next = new Uint8Array(Math.max(need, this.buf.length * 2));
    next.set(this.buf.subarray(0, this.size));
    this.buf = next;
  }
  result(): Decoded {
    return { size: this.size, overLimit: this.overLimit, ...(this.keep && !this.overLimit ? { bytes: this.buf.slice(0, this.size) } : {}) };
  }
}

/**
 * LZW as PDF defines it (9 to 12-bit codes, 256 clear, 257 end). `earlyChange` is the
 * /EarlyChange decode parameter (default 1); the guard does not read decode parameters, so it
 * counts both ways and keeps the larger.
 */
export function lzwDecode(data: Uint8Array, limit: number, keep: boolean, earlyChange: 0 | 1 = 1): Decoded {
  const sink = new Sink(limit, keep);
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const length = new Int32Array(4096);
  for (let i = 0; i < 256; i++) {
    suffix[i] = i;
    first[i] = i;
    length[i] = 1;
  }
  const scratch = new Uint8Array(4096);
  let next = 258;
  let width = 9;
  let prev = -1;
  let bitBuf = 0;
  let bitCount = 0;
  let pos = 0;
  const emit = (code: number): boolean => {
    const len = length[code]!;
    if (!keep) return sink.repeat(0, len);
    let c = code;
    for (let k = len - 1; k >= 0; k--) {
      scratch[k] = suffix[c]!;
      c = prefix[c]!;
    }
    return sink.push(scratch, 0, len);
  };
  for (;;) {
    while (bitCount < width && pos < data.length) {
      bitBuf = ((bitBuf << 8) | data[pos++]!) >>> 0;
      bitCount += 8;
    }
    if (bitCount < width) break;
    const code = (bitBuf >>> (bitCount - width)) & ((1 << width) - 1);
    bitCount -= width;
    bitBuf &= (1 << bitCount) - 1;
    if (code === 256) {
      next = 258;
      width = 9;
      prev = -1;
      continue;
    }
    if (code === 257) break;
    let entry: number;
    if (prev < 0) {
      if (code > 255) break; // the first code after a clear must be a literal
      entry = code;
    } else if (code < next) {
      entry = code;
      if (next < 4096) {
        prefix[next] = prev;
        suffix[next] = first[code]!;
        first[next] = first[prev]!;
        length[next] = length[prev]! + 1;
        next++;
      }
    } else if (code === next && next < 4096) {
      prefix[next] = prev;
      suffix[next] = first[prev]!;
      first[next] = first[prev]!;
      length[next] = length[prev]! + 1;
      entry = next++;
    } else {
      break; // corrupt: pdf.js stops here too
    }
    if (!emit(entry)) break;
    prev = entry;
    if (next + earlyChange >= 1 << width && width < 12) width++;
  }
  return sink.result();
}

export function runLengthDecode(data: Uint8Array, limit: number, keep: boolean): Decoded {
  const sink = new Sink(limit, keep);
  for (let i = 0; i < data.length; ) {
    const n = data[i++]!;
    if (n === 128) break;
    if (n < 128) {
      const len = Math.min(n + 1, data.length - i);
      if (!sink.push(data, i, len)) break;
      i += len;
    } else {
      if (i >= data.length) break;
      if (!sink.repeat(data[i++]!, 257 - n)) break;
    }
  }
  return sink.result();
}

const hexValue = (c: number): number => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1);

export function asciiHexDecode(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.length / 2));
  let n = 0;
  let high = -1;
  for (const c of data) {
    if (c === 0x3e) break;
    const v = hexValue(c);
    if (v < 0) continue;
    if (high < 0) high = v;
    else {
      out[n++] = (high << 4) | v;
      high = -1;
    }
  }
  if (high >= 0) out[n++] = high << 4;
  return out.slice(0, n);
}

export function ascii85Decode(data: Uint8Array, limit: number): Decoded {
  const sink = new Sink(limit, true);
  const group = new Uint8Array(4);
  let value = 0;
  let count = 0;
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (c === 0x7e) break; // "~>"
    if (c === 0x7a && count === 0) {
      if (!sink.repeat(0, 4)) return sink.result();
      continue;
    }
    if (c < 0x21 || c > 0x75) continue;
    value = value * 85 + (c - 0x21);
    if (++count === 5) {
      for (let k = 3; k >= 0; k--) {
        group[k] = value & 0xff;
        value = Math.floor(value / 256);
      }
      if (!sink.push(group, 0, 4)) return sink.result();
      value = 0;
      count = 0;
    }
  }
  if (count > 1) {
    for (let k = count; k < 5; k++) value = value * 85 + 84;
    for (let k = 3; k >= 0; k--) {
      group[k] = value & 0xff;
      value = Math.floor(value / 256);
    }
    sink.push(group, 0, count - 1);
  }
  return sink.result();
}
