/**
 * Reads the parts of a ToUnicode CMap that map character codes to text (bfchar / bfrange), and the
 * codespace ranges that say how many bytes a code has. Enough to know which characters a string
 * operand draws; CID-keyed glyph selection itself is not needed for redaction.
 */
export interface ToUnicodeMap {
  /** Byte lengths of codes, from the codespace ranges (empty when the CMap declares none). */
  codeLengths: number[];
  map: Map<number, string>;
}

function hexBytes(h: string): number[] {
  const clean = h.replace(/[^0-9a-fA-F]/g, "");
  const out: number[] = [];
  for (let i = 0; i + 1 < clean.length; i += 2) out.push(parseInt(clean.slice(i, i + 2), 16));
  return out;
}

function hexNumber(h: string): number {
  return hexBytes(h).reduce((n, b) => n * 256 + b, 0);
}

function utf16be(h: string): string {
  const b = hexBytes(h);
  let s = "";
  for (let i = 0; i + 1 < b.length; i += 2) s += String.fromCharCode(b[i]! * 256 + b[i + 1]!);
  if (b.length % 2) s += String.fromCharCode(b.at(-1)!);
  return s;
}

/**
 * The bodies between `begin` and `end` markers, found with indexOf: a lazy `begin([\s\S]*?)end`
 * regex rescans to the end of the stream for every unclosed `begin`, which is quadratic.
 */
function* blocks(text: string, begin: string, end: string): Generator<string> {
  for (let at = text.indexOf(begin); at !== -1; ) {
    const from = at + begin.length;
    const close = text.indexOf(end, from);
    if (close === -1) return;
    yield text.slice(from, close);
    at = text.indexOf(begin, close + end.length);
  }
}

export function parseToUnicode(text: string): ToUnicodeMap {
  const map = new Map<number, string>();
  const codeLengths = new Set<number>();
  for (const block of blocks(text, "begincodespacerange", "endcodespacerange")) {
    for (const m of block.matchAll(/<([0-9a-fA-F\s]*)>\s*<[0-9a-fA-F\s]*>/g)) codeLengths.add(hexBytes(m[1]!).length);
  }
  for (const block of blocks(text, "beginbfchar", "endbfchar")) {
    for (const m of block.matchAll(/<([0-9a-fA-F\s]*)>\s*<([0-9a-fA-F\s]*)>/g)) map.set(hexNumber(m[1]!), utf16be(m[2]!));
  }
  for (const body of blocks(text, "beginbfrange", "endbfrange")) {
    // A destination array is read item by item (at most 256: a range never crosses a high byte),
    // so an unclosed "[" costs a bounded amount of work.
    for (const m of body.matchAll(/<([0-9a-fA-F\s]*)>\s*<([0-9a-fA-F\s]*)>\s*(<[0-9a-fA-F\s]*>|\[(?:\s*<[0-9a-fA-F\s]{0,64}>){0,256}\s*\])/g)) {
      const lo = hexNumber(m[1]!);
      const hi = hexNumber(m[2]!);
      const dst = m[3]!;
      if (hi < lo || hi - lo > 0xffff) continue;
      if (dst.startsWith("[")) {
        const items = [...dst.matchAll(/<([0-9a-fA-F\s]*)>/g)].map((x) => utf16be(x[1]!));
        items.forEach((s, i) => {
          if (lo + i <= hi) map.set(lo + i, s);
        });
      } else {
        const base = utf16be(dst.slice(1, -1));
        // The last UTF-16 unit is incremented across the range.
        const head = base.slice(0, -1);
        const last = base.charCodeAt(base.length - 1);
        for (let c = lo; c <= hi; c++) map.set(c, head + String.fromCharCode(last + (c - lo)));
      }
    }
  }
  return { codeLengths: [...codeLengths].sort((a, b) => a - b), map };
}
