/**
 * A content stream read into operations for the covered-text check (overlay.ts), token for token
 * as the redaction's lexer reads it (src/engine/redact/content-lexer.ts: the same tokens, stray
 * delimiters, malformed numbers, operators inside arrays, inline images), but keeping only what
 * the check looks at: numbers, names, how many bytes a string decodes to, arrays of those.
 * Strings are measured, not decoded, dictionaries are skipped, and nothing records byte ranges:
 * the lexer built an object per operand and a byte array per string, which was a third of the
 * integrity pass on a small statement. test/engine/content-scan.test.ts holds the two to the
 * same operations over every corpus content stream and mangled copies of them.
 */
import { hexValue, isRegular, isWhitespace, numberOfWord, unescapeName } from "../pdf/content-syntax.ts";

export type ScanOperand =
  | { kind: "number"; value: number }
  | { kind: "string"; length: number }
  | { kind: "name"; value: string }
  | { kind: "array"; items: ScanOperand[] }
  /** A dictionary, or true/false/null, or an operator found inside an array. */
  | { kind: "other" };

const OTHER: ScanOperand = { kind: "other" };


type Token =
  | ScanOperand
  | { kind: "open-array" }
  | { kind: "close-array" }
  | { kind: "open-dict" }
  | { kind: "close-dict" }
  | { kind: "operator"; value: string };

const OPEN_ARRAY: Token = { kind: "open-array" };
const CLOSE_ARRAY: Token = { kind: "close-array" };
const OPEN_DICT: Token = { kind: "open-dict" };
const CLOSE_DICT: Token = { kind: "close-dict" };

class Scanner {
  pos = 0;
  private readonly text: Buffer;
  constructor(private readonly src: Uint8Array) {
    this.text = Buffer.from(src.buffer, src.byteOffset, src.byteLength);
  }

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

  private word(): string {
    const s = this.src;
    const start = this.pos;
    while (this.pos < s.length && isRegular(s[this.pos]!)) this.pos++;
    return this.text.toString("latin1", start, this.pos);
  }

  next(): Token | null {
    this.skipSpaceAndComments();
    const s = this.src;
    if (this.pos >= s.length) return null;
    const b = s[this.pos]!;
    if (b === 0x28) return { kind: "string", length: this.literalLength() };
    if (b === 0x3c) {
      if (s[this.pos + 1] === 0x3c) {
        this.pos += 2;
        return OPEN_DICT;
      }
      return { kind: "string", length: this.hexLength() };
    }
    if (b === 0x3e) {
      this.pos += s[this.pos + 1] === 0x3e ? 2 : 1;
      return CLOSE_DICT;
    }
    if (b === 0x5b) {
      this.pos++;
      return OPEN_ARRAY;
    }
    if (b === 0x5d) {
      this.pos++;
      return CLOSE_ARRAY;
    }
    if (b === 0x2f) {
      this.pos++;
      const raw = this.word();
      return { kind: "name", value: unescapeName(raw) };
    }
    if (b === 0x7b || b === 0x7d || b === 0x29) {
      this.pos++;
      return { kind: "operator", value: String.fromCharCode(b) };
    }
    const word = this.word();
    const value = numberOfWord(word);
    if (value !== undefined) return { kind: "number", value };
    if (word === "true" || word === "false" || word === "null") return OTHER;
    return { kind: "operator", value: word };
  }

  /** Bytes a literal string decodes to (escapes, octal codes and line continuations as the lexer reads them). */
  private literalLength(): number {
    const s = this.src;
    let n = 0;
    let depth = 1;
    this.pos++;
    while (this.pos < s.length) {
      const b = s[this.pos++]!;
      if (b === 0x5c) {
        const e = s[this.pos++];
        if (e === undefined) break;
        if (e === 0x0d) {
          if (s[this.pos] === 0x0a) this.pos++;
        } else if (e !== 0x0a) {
          if (e >= 0x30 && e <= 0x37) for (let i = 0; i < 2 && s[this.pos]! >= 0x30 && s[this.pos]! <= 0x37; i++) this.pos++;
          n++;
        }
      } else if (b === 0x29) {
        if (--depth === 0) break;
        n++;
      } else {
        if (b === 0x28) depth++;
        n++;
      }
    }
    return n;
  }

  /** Bytes a hex string decodes to (an odd last digit is padded). */
  private hexLength(): number {
    const s = this.src;
    let nibbles = 0;
    this.pos++;
    while (this.pos < s.length && s[this.pos] !== 0x3e) if (hexValue(s[this.pos++]!) >= 0) nibbles++;
    this.pos++;
    return (nibbles + (nibbles % 2)) / 2;
  }

  /** After ID: skips the inline image's data up to and including "EI". */
  skipInlineImageData(): void {
    const s = this.src;
    this.pos++;
    for (let i = this.pos; i + 1 < s.length; i++) {
      if (s[i] === 0x45 && s[i + 1] === 0x49 && (i === 0 || isWhitespace(s[i - 1]!)) && (i + 2 >= s.length || isWhitespace(s[i + 2]!))) {
        this.pos = i + 2;
        return;
      }
    }
    this.pos = s.length;
  }
}

/** Calls `op` with each operation's operator and operands, in order. Malformed input yields what could be read. */
export function scanContent(src: Uint8Array, op: (operator: string, operands: ScanOperand[]) => void): void {
  const scanner = new Scanner(src);
  let operands: ScanOperand[] = [];
  const stack: { array: boolean; items: ScanOperand[] }[] = [];
  const push = (v: ScanOperand) => {
    const top = stack.at(-1);
    if (top) top.items.push(v);
    else operands.push(v);
  };
  for (;;) {
    const t = scanner.next();
    if (t === null) break;
    switch (t.kind) {
      case "open-array":
        stack.push({ array: true, items: [] });
        break;
      case "open-dict":
        stack.push({ array: false, items: [] });
        break;
      case "close-array":
      case "close-dict": {
        const top = stack.pop();
        if (top) push(top.array ? { kind: "array", items: top.items } : OTHER);
        break;
      }
      case "operator":
        if (stack.length > 0) {
          push(OTHER);
          break;
        }
        if (t.value === "BI") {
          for (;;) {
            const u = scanner.next();
            if (u === null) break;
            if (u.kind === "operator" && u.value === "ID") {
              scanner.skipInlineImageData();
              break;
            }
          }
        }
        op(t.value, operands);
        operands = [];
        break;
      default:
        push(t);
    }
  }
}
