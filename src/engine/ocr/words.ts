/**
 * Tesseract's TSV output (one row per layout element; level 5 rows are words) as word boxes in
 * image pixels, with their line (block, paragraph, line numbers) kept for deskewing.
 */

export interface OcrWord {
  text: string;
  /** Box in pixels of the rendered page: left, top, width, height. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** Tesseract's confidence in the word, 0..100. */
  conf: number;
  /** "block.paragraph.line": words of one line as tesseract found it. */
  line: string;
}

/** TSV columns: level page block par line word left top width height conf text. */
const WORD_LEVEL = "5";

export function wordsFromTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  for (const row of tsv.split("\n")) {
    const f = row.split("\t");
    if (f[0] !== WORD_LEVEL || f.length < 12) continue;
    const text = f.slice(11).join("\t").trim();
    const conf = Number(f[10]);
    if (text === "" || !(conf >= 0)) continue;
    words.push({ text, left: Number(f[6]), top: Number(f[7]), width: Number(f[8]), height: Number(f[9]), conf, line: `${f[2]}.${f[3]}.${f[4]}` });
  }
  return words;
}

/** Mean word confidence (0..100) of a set of words, 0 for none. */
export function meanConfidence(words: readonly { conf: number }[]): number {
  if (words.length === 0) return 0;
  return words.reduce((s, w) => s + w.conf, 0) / words.length;
}
