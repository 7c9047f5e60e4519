import { Encodings, Font, FontNames } from "@pdf-lib/standard-fonts";
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFStream, type PDFObject } from "pdf-lib";
import { parseToUnicode, type ToUnicodeMap } from "./cmap.ts";
import { latin1 } from "./content-lexer.ts";
import { decodeStream } from "./stream-data.ts";

/**
 * What the redactor needs from a font: how a string operand splits into character codes, how far
 * each code advances (in text space per unit of font size, i.e. glyph width / 1000 for most fonts)
 * and, where the font says so, which text each code stands for.
 */
export interface FontInfo {
  split(bytes: Uint8Array): Uint8Array[];
  width(code: number): number;
  unicode(code: number): string | undefined;
}

const codeOf = (b: Uint8Array) => b.reduce((n, x) => n * 256 + x, 0);

// WinAnsi code -> [glyph name, text], built once from pdf-lib's own encoding table.
const WIN_ANSI = new Map<number, [string, string]>();
const NAME_TO_TEXT = new Map<string, string>();
for (const cp of Encodings.WinAnsi.supportedCodePoints) {
  const { code, name } = Encodings.WinAnsi.encodeUnicodeCodePoint(cp);
  if (!WIN_ANSI.has(code)) WIN_ANSI.set(code, [name, String.fromCodePoint(cp)]);
  if (!NAME_TO_TEXT.has(name)) NAME_TO_TEXT.set(name, String.fromCodePoint(cp));
}

function glyphNameText(name: string): string | undefined {
  const known = NAME_TO_TEXT.get(name);
  if (known) return known;
  const uni = /^uni([0-9A-Fa-f]{4,6})$/.exec(name) ?? /^u([0-9A-Fa-f]{4,6})$/.exec(name);
  if (uni) return String.fromCodePoint(parseInt(uni[1]!, 16));
  if (name.length === 1) return name;
  return undefined;
}

const standardFontCache = new Map<string, Font>();

/** Maps a BaseFont to one of the standard 14 whose metrics stand in when a font has no /Widths. */
function standardFontFor(baseFont: string): Font {
  const n = baseFont.replace(/^[A-Z]{6}\+/, "").toLowerCase();
  const bold = /bold|black|heavy/.test(n);
  const italic = /italic|oblique/.test(n);
  let name: FontNames;
  if (n.includes("symbol")) name = FontNames.Symbol;
  else if (n.includes("dingbat")) name = FontNames.ZapfDingbats;
  else if (n.includes("courier")) name = bold ? (italic ? FontNames.CourierBoldOblique : FontNames.CourierBold) : italic ? FontNames.CourierOblique : FontNames.Courier;
  else if (n.includes("times")) name = bold ? (italic ? FontNames.TimesRomanBoldItalic : FontNames.TimesRomanBold) : italic ? FontNames.TimesRomanItalic : FontNames.TimesRoman;
  else name = bold ? (italic ? FontNames.HelveticaBoldOblique : FontNames.HelveticaBold) : italic ? FontNames.HelveticaOblique : FontNames.Helvetica;
  let font = standardFontCache.get(name);
  if (!font) {
    font = Font.load(name);
    standardFontCache.set(name, font);
  }
  return font;
}

const num = (o: PDFObject | undefined, fallback: number) => (o instanceof PDFNumber ? o.asNumber() : fallback);
const nameOf = (o: PDFObject | undefined) => (o instanceof PDFName ? o.decodeText() : undefined);

function readToUnicode(font: PDFDict): ToUnicodeMap | undefined {
  const s = font.lookup(PDFName.of("ToUnicode"));
  if (!(s instanceof PDFStream)) return undefined;
  const d = decodeStream(s);
  return "bytes" in d ? parseToUnicode(latin1(d.bytes)) : undefined;
}

function simpleFont(font: PDFDict): FontInfo {
  const subtype = nameOf(font.lookup(PDFName.of("Subtype")));
  const baseFont = nameOf(font.lookup(PDFName.of("BaseFont"))) ?? "";
  const toUnicode = readToUnicode(font);
  // Type 3 glyph widths are in glyph space, scaled by the font matrix rather than by 1/1000.
  const matrix = font.lookup(PDFName.of("FontMatrix"));
  const scale = subtype === "Type3" && matrix instanceof PDFArray ? num(matrix.lookup(0), 0.001) : 0.001;

  // Code -> glyph name: base encoding, then /Differences.
  const names = new Map<number, string>();
  for (const [code, [name]] of WIN_ANSI) names.set(code, name);
  const enc = font.lookup(PDFName.of("Encoding"));
  if (enc instanceof PDFDict) {
    const diffs = enc.lookup(PDFName.of("Differences"));
    if (diffs instanceof PDFArray) {
      let code = 0;
      for (const item of diffs.asArray()) {
        const resolved = item instanceof PDFNumber || item instanceof PDFName ? item : font.context.lookup(item);
        if (resolved instanceof PDFNumber) code = resolved.asNumber();
        else if (resolved instanceof PDFName) names.set(code++, resolved.decodeText());
      }
    }
  }

  const widthsObj = font.lookup(PDFName.of("Widths"));
  const firstChar = num(font.lookup(PDFName.of("FirstChar")), 0);
  const widths = widthsObj instanceof PDFArray ? widthsObj.asArray().map((w) => num(font.context.lookup(w) ?? w, 0)) : undefined;
  const descriptor = font.lookup(PDFName.of("FontDescriptor"));
  const missing = descriptor instanceof PDFDict ? num(descriptor.lookup(PDFName.of("MissingWidth")), 0) : 0;
  const standard = widths ? undefined : standardFontFor(baseFont);

  return {
    split: (bytes) => [...bytes].map((b) => Uint8Array.of(b)),
    width(code) {
      if (widths) {
        const w = widths[code - firstChar];
        return (w ?? missing) * scale;
      }
      const name = names.get(code);
      const w = name ? standard?.getWidthOfGlyph(name) : undefined;
      return (typeof w === "number" ? w : missing) * scale;
    },
    unicode(code) {
      const mapped = toUnicode?.map.get(code);
      if (mapped !== undefined) return mapped;
      const name = names.get(code);
      return (name && glyphNameText(name)) ?? (code >= 0x20 ? String.fromCharCode(code) : undefined);
    },
  };
}

function compositeFont(font: PDFDict): FontInfo {
  const toUnicode = readToUnicode(font);
  const descendants = font.lookup(PDFName.of("DescendantFonts"));
  const cid = descendants instanceof PDFArray ? descendants.lookup(0) : undefined;
  const cidFont = cid instanceof PDFDict ? cid : undefined;
  const dw = num(cidFont?.lookup(PDFName.of("DW")), 1000);
  const widths = new Map<number, number>();
  const w = cidFont?.lookup(PDFName.of("W"));
  if (w instanceof PDFArray) {
    const items = w.asArray().map((x) => font.context.lookup(x) ?? x);
    for (let i = 0; i < items.length; ) {
      const first = num(items[i], 0);
      const next = items[i + 1];
      if (next instanceof PDFArray) {
        next.asArray().forEach((x, k) => widths.set(first + k, num(font.context.lookup(x) ?? x, dw)));
        i += 2;
      } else {
        const last = num(next, first);
        const width = num(items[i + 2], dw);
        for (let c = first; c <= last && c - first < 0x10000; c++) widths.set(c, width);
        i += 3;
      }
    }
  }
  // Identity-H/V and nearly all embedded CMaps use 2-byte codes; a ToUnicode codespace that declares
  // a single length overrides that (mixed-length CMaps are not supported: see the README).
  const lengths = toUnicode?.codeLengths ?? [];
  const codeLength = lengths.length === 1 ? lengths[0]! : 2;
  return {
    split(bytes) {
      const out: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += codeLength) out.push(bytes.subarray(i, i + codeLength));
      return out;
    },
    // Without an embedded CMap, the CID equals the code (Identity).
    width: (code) => (widths.get(code) ?? dw) / 1000,
    unicode: (code) => toUnicode?.map.get(code),
  };
}

const FALLBACK: FontInfo = { split: (b) => [...b].map((x) => Uint8Array.of(x)), width: () => 0.5, unicode: (c) => String.fromCharCode(c) };

const cache = new WeakMap<PDFDict, FontInfo>();

export function fontInfo(font: PDFDict | undefined): FontInfo {
  if (!font) return FALLBACK;
  let info = cache.get(font);
  if (!info) {
    info = nameOf(font.lookup(PDFName.of("Subtype"))) === "Type0" ? compositeFont(font) : simpleFont(font);
    cache.set(font, info);
  }
  return info;
}

export { codeOf };
