/**
 * A small reader of one PDF object at a byte offset, for the few values the guard must actually
 * read (the encryption dictionary and the file identifier). Depth and length are bounded; anything
 * it does not understand ends the object rather than throwing.
 */

export type PdfValue =
  | { t: "num"; v: number }
  | { t: "name"; v: string }
  | { t: "str"; v: Uint8Array }
  | { t: "bool"; v: boolean }
  | { t: "null" }
  | { t: "ref"; num: number; gen: number }
  | { t: "array"; v: PdfValue[] }
  | { t: "dict"; v: Map<string, PdfValue> };

const MAX_DEPTH = 16;
const MAX_ITEMS = 1024;

const isWs = (c: number) => c === 0 || c === 9 || c === 10 || c === 12 || c === 13 || c === 32;
const isDelim = (c: number) => c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25;

export function readObject(bytes: Uint8Array, at: number): PdfValue | undefined {
  const r = new Reader(bytes, at);
  try {
    return r.value(0);
  } catch {
    return undefined;
  }
}

class Reader {
  constructor(
    private readonly b: Uint8Array,
    private i: number,
  ) {}

  private skip() {
    for (;;) {
      while (this.i < this.b.length && isWs(this.b[this.i]!)) this.i++;
      if (this.b[this.i] !== 0x25) return;
      while (this.i < this.b.length && this.b[this.i] !== 10 && this.b[this.i] !== 13) this.i++;
    }
  }

  private word(): string {
    const start = this.i;
    while (this.i < this.b.length && !isWs(this.b[this.i]!) && !isDelim(this.b[this.i]!)) this.i++;
    return Buffer.from(this.b.subarray(start, this.i)).toString("latin1");
  }

  value(depth: number): PdfValue {
    if (depth > MAX_DEPTH) throw new Error("too deep");
    this.skip();
    const c = this.b[this.i];
    if (c === undefined) throw new Error("end");
    if (c === 0x2f) {
      this.i++;
      return { t: "name", v: this.word().replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) };
    }
    if (c === 0x28) return { t: "str", v: this.literal() };
    if (c === 0x3c && this.b[this.i + 1] === 0x3c) {
      this.i += 2;
      const v = new Map<string, PdfValue>();
      for (let n = 0; n < MAX_ITEMS; n++) {
        this.skip();
        if (this.b[this.i] === 0x3e && this.b[this.i + 1] === 0x3e) {
          this.i += 2;
          return { t: "dict", v };
        }
        const key = this.value(depth + 1);
        if (key.t !== "name") throw new Error("key");
        v.set(key.v, this.value(depth + 1));
      }
      throw new Error("too many");
    }
    if (c === 0x3c) return { t: "str", v: this.hex() };
    if (c === 0x5b) {
      this.i++;
      const v: PdfValue[] = [];
      for (let n = 0; n < MAX_ITEMS; n++) {
        this.skip();
        if (this.b[this.i] === 0x5d) {
          this.i++;
          return { t: "array", v };
        }
        v.push(this.value(depth + 1));
      }
      throw new Error("too many");
    }
    const w = this.word();
    if (w === "") throw new Error("unexpected");
    if (w === "true" || w === "false") return { t: "bool", v: w === "true" };
    if (w === "null") return { t: "null" };
    const num = Number(w);
    if (!Number.isFinite(num)) throw new Error("keyword");
    // `N G R` is a reference; look ahead without consuming when it is not.
    const save = this.i;
    this.skip();
    const gen = this.word();
    this.skip();
    if (/^\d+$/.test(gen) && this.b[this.i] === 0x52 /* R */ && (this.i + 1 >= this.b.length || isWs(this.b[this.i + 1]!) || isDelim(this.b[this.i + 1]!))) {
      this.i++;
      return { t: "ref", num, gen: Number(gen) };
    }
    this.i = save;
    return { t: "num", v: num };
  }

  private literal(): Uint8Array {
    const out: number[] = [];
    let depth = 0;
    this.i++;
    for (; this.i < this.b.length; this.i++) {
      const c = this.b[this.i]!;
      if (c === 0x5c) {
        const n = this.b[++this.i]!;
        const esc: Record<number, number> = { 0x6e: 10, 0x72: 13, 0x74: 9, 0x62: 8, 0x66: 12 };
        if (esc[n] !== undefined) out.push(esc[n]!);
        else if (n >= 0x30 && n <= 0x37) {
          let v = n - 0x30;
          for (let k = 0; k < 2 && this.b[this.i + 1]! >= 0x30 && this.b[this.i + 1]! <= 0x37; k++) v = v * 8 + (this.b[++this.i]! - 0x30);
          out.push(v & 0xff);
        } else if (n === 13) {
          if (this.b[this.i + 1] === 10) this.i++;
        } else if (n !== 10) out.push(n);
        continue;
      }
      if (c === 0x28) depth++;
      if (c === 0x29 && depth-- === 0) {
        this.i++;
        break;
      }
      out.push(c);
    }
    return Uint8Array.from(out);
  }

  private hex(): Uint8Array {
    const out: number[] = [];
    let high = -1;
    for (this.i++; this.i < this.b.length && this.b[this.i] !== 0x3e; this.i++) {
      const v = parseInt(String.fromCharCode(this.b[this.i]!), 16);
      if (Number.isNaN(v)) continue;
      if (high < 0) high = v;
      else {
        out.push((high << 4) | v);
        high = -1;
      }
    }
    this.i++;
    if (high >= 0) out.push(high << 4);
    return Uint8Array.from(out);
  }
}
