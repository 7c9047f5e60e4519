/**
 * The byte-level syntax of a PDF content stream (ISO 32000-1, 7.2 and 7.3), shared by its two
 * readers: the redaction's lexer (src/engine/redact/content-lexer.ts), which keeps every operand
 * and byte range, and the covered-text check's lighter scanner
 * (src/engine/integrity/content-scan.ts), which keeps only what that check looks at. Whatever
 * they keep, both must read the same tokens, so how bytes are classed and how a word or name
 * reads lives here once.
 */

/** Whitespace (0), delimiters (1) and regular bytes (2), ISO 32000-1 7.2.2; a table, as the scan runs per byte. */
const CLASS = new Uint8Array(256).fill(2);
for (const b of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[b] = 0;
for (const b of [0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) CLASS[b] = 1;

export const isWhitespace = (b: number): boolean => CLASS[b] === 0;
export const isRegular = (b: number): boolean => CLASS[b] === 2;

/** A hex digit's value, or -1. */
export const hexValue = (b: number): number =>
  b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x41 && b <= 0x46 ? b - 0x37 : b >= 0x61 && b <= 0x66 ? b - 0x57 : -1;

// One way to read each digit (digits, then an optional fraction), so a long numeric word
// cannot make the match backtrack quadratically.
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const NUMBERISH = /^[+-.\d]+$/;
const MALFORMED = /^[+-]?(?:\d*\.\d*|\d*)[+-]/;

/**
 * The number a word of regular bytes reads as, or undefined when it is no number (an operator, a
 * keyword). Malformed numbers such as "0.-5" or "--1" read as their leading valid part, as readers take them.
 */
export function numberOfWord(word: string): number | undefined {
  if (NUMBER.test(word)) return Number(word);
  if (!NUMBERISH.test(word) || !MALFORMED.test(word)) return undefined;
  const m = /^[+-]?\d*\.?\d*/.exec(word.replace(/^([+-])[+-]+/, "$1"));
  return Number(m?.[0]) || 0;
}

/** A name's text after the `/` with its `#xx` escapes decoded. */
export const unescapeName = (raw: string): string => (raw.includes("#") ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : raw);
