/**
 * What a workbook's cells produce as text, measured on the raw XML before any object model is
 * built. A cell of type "s" holds only an index into the shared strings, so a 2 MB workbook of
 * 900,000 cells all pointing at one 32,000-character string produces 28.8 billion characters
 * (issue 29: ~7 GB and a worker held 120 s). The guard bounds this sum, not only the bytes inflated.
 */

/** Most characters all cells of a workbook may produce: 200,000 rows of 8 cells of 60 characters, with room to spare (~200 MB as text). */
export const MAX_XLSX_TEXT_CHARS = 100_000_000;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const isTagEnd = (b: number) => b === GT || b === SLASH || b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
const isNameByte = (b: number) => (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b === 0x5f || b === 0x2d || b === 0x2e;

/** The element name at `<` (namespace prefix skipped, "/" of an end tag kept out): [start, end) of the local name and whether it is an end tag. */
function tagName(xml: Uint8Array, lt: number): { start: number; end: number; closing: boolean } {
  let i = lt + 1;
  const closing = xml[i] === SLASH;
  if (closing) i++;
  let start = i;
  while (isNameByte(xml[i] ?? 0)) i++;
  if (xml[i] === 0x3a) {
    start = ++i;
    while (isNameByte(xml[i] ?? 0)) i++;
  }
  return { start, end: i, closing };
}

const nameIs = (xml: Uint8Array, t: { start: number; end: number }, name: string) =>
  t.end - t.start === name.length && [...name].every((c, k) => xml[t.start + k] === c.charCodeAt(0));

/**
 * The text length (UTF-8 bytes of character data, an upper bound on characters) of each shared
 * string `<si>`, in order.
 */
export function sharedStringLengths(xml: Uint8Array): Uint32Array {
  const lengths: number[] = [];
  let inSi = false;
  let current = 0;
  let i = xml.indexOf(LT);
  while (i !== -1) {
    const gt = xml.indexOf(GT, i);
    if (gt === -1) break;
    const t = tagName(xml, i);
    if (nameIs(xml, t, "si")) {
      const selfClosing = xml[gt - 1] === SLASH;
      if (t.closing) {
        if (inSi) lengths.push(current);
        inSi = false;
      } else if (selfClosing) lengths.push(0);
      else {
        inSi = true;
        current = 0;
      }
    }
    const next = xml.indexOf(LT, gt);
    // Character data between this tag and the next one.
    if (inSi) current += (next === -1 ? xml.length : next) - gt - 1;
    i = next;
  }
  return Uint32Array.from(lengths);
}

/** The `t` attribute of a `<c ...>` tag spanning [lt, gt) is "s" (a shared-string cell). */
function isSharedStringCell(xml: Uint8Array, lt: number, gt: number): boolean {
  for (let k = lt + 2; k + 3 < gt; k++) {
    if (xml[k] === 0x74 /* t */ && xml[k + 1] === 0x3d /* = */ && (xml[k - 1] === 0x20 || xml[k - 1] === 0x09 || xml[k - 1] === 0x0a || xml[k - 1] === 0x0d)) {
      const q = xml[k + 2];
      return (q === 0x22 || q === 0x27) && xml[k + 3] === 0x73 /* s */ && xml[k + 4] === q;
    }
  }
  return false;
}

/**
 * XML text bytes no cell Excel wrote can exceed: Excel holds at most 32,767 characters in a cell,
 * and one character takes at most 10 bytes of XML (`&#x10FFFF;`). A longer cell or shared string
 * is crafted, and costs the PII finder and the redactor dearly (a 64 MiB string held a worker past
 * the time limit), so the guard refuses it before anything is built.
 */
export const MAX_CELL_XML_BYTES = 32_767 * 10;

export interface SheetText {
  /** Characters (UTF-8 bytes of character data, an upper bound) all cells produce. */
  chars: number;
  /** The longest one cell produces. */
  longest: number;
}

/**
 * Characters a worksheet's cells produce: each shared-string cell the length of the string it points
 * at, every other cell its own character data. One pass over the bytes.
 */
export function worksheetText(xml: Uint8Array, shared: Uint32Array): SheetText {
  let total = 0;
  let longest = 0;
  const add = (n: number) => {
    total += n;
    if (n > longest) longest = n;
  };
  let sharedCell = false;
  let inValue = false;
  let i = xml.indexOf(LT);
  while (i !== -1) {
    const gt = xml.indexOf(GT, i);
    if (gt === -1) break;
    const t = tagName(xml, i);
    const next = xml.indexOf(LT, gt);
    const dataEnd = next === -1 ? xml.length : next;
    if (nameIs(xml, t, "c") && isTagEnd(xml[t.end] ?? 0)) {
      if (!t.closing) sharedCell = isSharedStringCell(xml, i, gt);
      else sharedCell = false;
    } else if (nameIs(xml, t, "v") && !t.closing && xml[gt - 1] !== SLASH) {
      inValue = true;
      if (sharedCell) {
        let index = 0;
        for (let k = gt + 1; k < dataEnd; k++) {
          const d = xml[k]!;
          if (d >= 0x30 && d <= 0x39) index = index * 10 + (d - 0x30);
        }
        add(shared[index] ?? 0);
      } else add(dataEnd - gt - 1);
    } else if (nameIs(xml, t, "v") && t.closing) inValue = false;
    else if (!inValue && !t.closing && nameIs(xml, t, "t")) add(dataEnd - gt - 1); // inline strings (<is><t>)
    i = next;
  }
  return { chars: total, longest };
}
