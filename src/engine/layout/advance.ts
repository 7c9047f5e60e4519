import { Encodings, Font, FontNames } from "@pdf-lib/standard-fonts";

/**
 * How wide each character of a run is likely to be, for placing the words of a run of
 * proportional text whose characters were not measured one by one (an extractor's item is a
 * string with a start and a width). Helvetica's advance widths, the metrics most office and web
 * sans fonts (Arial, Liberation Sans) share: a digit or a capital is about twice a space or an
 * "i", so spreading a run's width evenly over its characters misplaces a word after a run of
 * capitals or before one of digits by several characters.
 */
const ADVANCE = new Float32Array(256);
const DEFAULT_ADVANCE = 556;
{
  const helvetica = Font.load(FontNames.Helvetica);
  ADVANCE.fill(DEFAULT_ADVANCE);
  for (let cp = 0x20; cp < 0x100; cp++) {
    if (!Encodings.WinAnsi.canEncodeUnicodeCodePoint(cp)) continue;
    const width = helvetica.getWidthOfGlyph(Encodings.WinAnsi.encodeUnicodeCodePoint(cp).name);
    if (width) ADVANCE[cp] = width;
  }
}

/** A character's likely advance in a proportional font, in thousandths of an em. */
export const advanceOf = (code: number): number => (code < 256 ? ADVANCE[code]! : DEFAULT_ADVANCE);

/**
 * Where each character of `text` starts, in thousandths of an em, and (last) where the text
 * ends: `out` when it is long enough, else a new array.
 */
export function advanceOffsets(text: string, out?: Float64Array): Float64Array {
  const n = text.length;
  const at = out && out.length > n ? out : new Float64Array(n + 1);
  at[0] = 0;
  for (let k = 0; k < n; k++) at[k + 1] = at[k]! + advanceOf(text.charCodeAt(k));
  return at;
}
