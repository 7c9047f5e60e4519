/**
 * Splits a decoded PDF content stream into operations (operands + operator) and remembers the byte
 * range of each one, so a rewriter can splice replacements in and copy every other byte verbatim.
 * Only the value kinds a content stream can hold are parsed (ISO 32000-1, 7.8.2); inline image
 * data (BI ... ID <binary> EI) is skipped as one opaque operation.
 */
import { hexValue, isRegular, isWhitespace, numberOfWord, unescapeName } from "../pdf/content-syntax.ts";

export type Operand =
  | { kind: "number"; value: number }
  | { kind: "string"; bytes: Uint8Array }
  | { kind: "name"; value: string }
  | { kind: "array"; items: Operand[] }
  | { kind: "dict"; entries: Map<string, Operand> }
  | { kind: "keyword"; value: string };

export interface Operation {
  operator: string;
  operands: Operand[];
  /** Byte offsets [start, end) of the operands and operator together. */
  start: number;
  end: number;
}


type Token =
  | Operand
  | { kind: "open-array" }
  | { kind: "close-array" }
  | { kind: "open-dict" }
  | { kind: "close-dict" }
  | { kind: "operator"; value: string };

class Lexer {
  pos = 0;
  constructor(private readonly src: Uint8Array) {}

  skipSpaceAndComments(): void {
    const s = this.src;
    while (this.pos < s.length) {
      const b = s[this.pos]!;
      if (isWhitespace(b)) this.pos++;
      else if (b === 0x25) {
        while (this.pos < s.length && s[this.pos] !== 0x0a && s[this.pos] !== 0x0d) this.pos++;
      } else break;
    }
  }

  /** Next token, or null at the end of the stream. */
  next(): Token | null {
    this.skipSpaceAndComments();
    const s = this.src;
    if (this.pos >= s.length) return null;
    const b = s[this.pos]!;
    if (b === 0x28) return { kind: "string", bytes: this.literalString() };
    if (b === 0x3c) {
      if (s[this.pos + 1] === 0x3c) {
        this.pos += 2;
        return { kind: "open-dict" };
      }
      return { kind: "string", bytes: this.hexString() };
    }
    if (b === 0x3e) {
      this.pos += s[this.pos + 1] === 0x3e ? 2 : 1;
      return { kind: "close-dict" };
    }
    if (b === 0x5b) {
      this.pos++;
      return { kind: "open-array" };
    }
    if (b === 0x5d) {
      this.pos++;
      return { kind: "close-array" };
    }
    if (b === 0x2f) {
      this.pos++;
      return { kind: "name", value: this.name() };
    }
    if (b === 0x7b || b === 0x7d || b === 0x29) {
      // Stray delimiters (PostScript braces, an unbalanced paren): consume as an unknown keyword.
      this.pos++;
      return { kind: "operator", value: String.fromCharCode(b) };
    }
    const start = this.pos;
    while (this.pos < s.length && isRegular(s[this.pos]!)) this.pos++;
    const word = latin1(s.subarray(start, this.pos));
    const value = numberOfWord(word);
    if (value !== undefined) return { kind: "number", value };
    if (word === "true" || word === "false" || word === "null") return { kind: "keyword", value: word };
    return { kind: "operator", value: word };
  }

  private name(): string {
    const s = this.src;
    const start = this.pos;
    while (this.pos < s.length && isRegular(s[this.pos]!)) this.pos++;
    return unescapeName(latin1(s.subarray(start, this.pos)));
  }

  private literalString(): Uint8Array {
    const s = this.src;
    const out: number[] = [];
    let depth = 1;
    this.pos++;
    while (this.pos < s.length) {
      const b = s[this.pos++]!;
      if (b === 0x5c) {
        const e = s[this.pos++];
        if (e === undefined) break;
        switch (e) {
          case 0x6e: out.push(0x0a); break;
          case 0x72: out.push(0x0d); break;
          case 0x74: out.push(0x09); break;
          case 0x62: out.push(0x08); break;
          case 0x66: out.push(0x0c); break;
          case 0x0d:
            if (s[this.pos] === 0x0a) this.pos++;
            break;
          case 0x0a:
            break;
          default:
            if (e >= 0x30 && e <= 0x37) {
              let v = e - 0x30;
              for (let i = 0; i < 2 && s[this.pos]! >= 0x30 && s[this.pos]! <= 0x37; i++) v = v * 8 + (s[this.pos++]! - 0x30);
              out.push(v & 0xff);
            } else out.push(e);
        }
      } else if (b === 0x28) {
        depth++;
        out.push(b);
      } else if (b === 0x29) {
        if (--depth === 0) break;
        out.push(b);
      } else out.push(b);
    }
    return Uint8Array.from(out);
  }

  private hexString(): Uint8Array {
    const s = this.src;
    const nibbles: number[] = [];
    this.pos++;
    while (this.pos < s.length && s[this.pos] !== 0x3e) {
      const v = hexValue(s[this.pos++]!);
      if (v >= 0) nibbles.push(v);
    }
    this.pos++;
    if (nibbles.length % 2) nibbles.push(0);
    const out = new Uint8Array(nibbles.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = nibbles[2 * i]! * 16 + nibbles[2 * i + 1]!;
    return out;
  }

  /** After the ID operator: skips the binary image data up to and including "EI". */
  skipInlineImageData(): void {
    const s = this.src;
    this.pos++; // the single whitespace after ID
    for (let i = this.pos; i + 1 < s.length; i++) {
      if (s[i] === 0x45 && s[i + 1] === 0x49 && (i === 0 || isWhitespace(s[i - 1]!)) && (i + 2 >= s.length || isWhitespace(s[i + 2]!))) {
        this.pos = i + 2;
        return;
      }
    }
    this.pos = s.length;
  }
}

export function latin1(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += String.fromCharCode(b);
  return out;
}

/**
 * Tokenises a content stream into operations. Malformed input yields what could be read; the only
 * throw is `spend`'s (a budget on the operations built, so a tiny stream of millions of operators
 * is refused before it is held).
 */
export function parseContent(src: Uint8Array, spend?: () => void): Operation[] {
  const lexer = new Lexer(src);
  const ops: Operation[] = [];
  let operands: Operand[] = [];
  let opStart = -1;
  // Nested arrays/dicts under construction.
  const stack: { kind: "array" | "dict"; items: Operand[] }[] = [];

  const push = (v: Operand) => {
    const top = stack.at(-1);
    if (top) top.items.push(v);
    else operands.push(v);
  };

  for (;;) {
    lexer.skipSpaceAndComments();
    const tokenStart = lexer.pos;
    const t = lexer.next();
    if (t === null) break;
    if (opStart < 0) opStart = tokenStart;
    switch (t.kind) {
      case "open-array":
        stack.push({ kind: "array", items: [] });
        break;
      case "open-dict":
        stack.push({ kind: "dict", items: [] });
        break;
      case "close-array":
      case "close-dict": {
        const top = stack.pop();
        if (!top) break;
        if (top.kind === "array") push({ kind: "array", items: top.items });
        else {
          const entries = new Map<string, Operand>();
          for (let i = 0; i + 1 < top.items.length; i += 2) {
            const k = top.items[i]!;
            if (k.kind === "name") entries.set(k.value, top.items[i + 1]!);
          }
          push({ kind: "dict", entries });
        }
        break;
      }
      case "operator": {
        if (stack.length > 0) {
          // An operator inside an array is malformed; keep it as a keyword so the array survives.
          push({ kind: "keyword", value: t.value });
          break;
        }
        if (t.value === "BI") {
          // Inline image: dictionary pairs, then ID, then binary data ended by EI.
          for (;;) {
            const u = lexer.next();
            if (u === null) break;
            if (u.kind === "operator" && u.value === "ID") {
              lexer.skipInlineImageData();
              break;
            }
          }
        }
        spend?.();
        ops.push({ operator: t.value, operands, start: opStart, end: lexer.pos });
        operands = [];
        opStart = -1;
        break;
      }
      default:
        push(t);
    }
  }
  return ops;
}

// --- Serialisation of replacement operations ---

export function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const s = n.toFixed(4).replace(/0+$/, "").replace(/\.$/, "");
  return s === "-0" ? "0" : s;
}

export function formatString(bytes: Uint8Array): string {
  let out = "(";
  for (const b of bytes) {
    if (b === 0x28 || b === 0x29 || b === 0x5c) out += "\\" + String.fromCharCode(b);
    else if (b < 0x20 || b > 0x7e) out += "\\" + b.toString(8).padStart(3, "0");
    else out += String.fromCharCode(b);
  }
  return out + ")";
}

export function formatOperand(o: Operand): string {
  switch (o.kind) {
    case "number":
      return formatNumber(o.value);
    case "string":
      return formatString(o.bytes);
    case "name":
      return "/" + o.value.replace(/[^\x21-\x7e]|[#()<>[\]{}/%]/g, (c) => "#" + c.charCodeAt(0).toString(16).padStart(2, "0"));
    case "array":
      return "[" + o.items.map(formatOperand).join(" ") + "]";
    case "dict":
      return "<<" + [...o.entries].map(([k, v]) => formatOperand({ kind: "name", value: k }) + " " + formatOperand(v)).join(" ") + ">>";
    case "keyword":
      return o.value;
  }
}
