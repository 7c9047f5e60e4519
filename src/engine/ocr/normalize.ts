/**
 * Word readings with one meaning only, rewritten before the layout stage: an amount whose thousands
 * separators came out as points ("5.000.00"), whose decimal point came out as a comma
 * ("1,234,56") or as a colon ("1,234:56", "3:75"; not a word that reads as a clock time, "9:45")
 * cannot be anything but that amount, yet no amount parser reads it. Each rewrite is kept, so the
 * row it lands in is reported as repaired, and the chain must still confirm it: a row whose links
 * do not hold with it is a break (read.ts), never a reconciled row.
 */
import type { OcrPage } from "./page-text.ts";
import type { OcrWord } from "./words.ts";

export interface Rewrite {
  page: number;
  /** Index of the word in its page's words. */
  word: number;
  printed: string;
  used: string;
  reason: RewriteReason;
}

/** Thousands separators read as points, some or all ("5.000.00", "19.040,824.36"): every separator but the last is followed by three digits. */
const POINTS_AS_SEPARATORS = /^([+-]?[₦#N]?)(\d{1,3}(?:[.,]\d{3})*\.\d{3}(?:[.,]\d{3})*)\.(\d{2})([-+]?|DR|CR)$/i;
const COMMA_AS_POINT = /^([+-]?[₦#N]?)(\d{1,3}(?:,\d{3})*),(\d{2})([-+]?|DR|CR)$/i;

/** A decimal point read as a colon ("1,234:56", "3:75"). */
const COLON_AS_POINT = /^([+-]?[₦#N]?)(\d{1,3}(?:,\d{3})*):(\d{2})([-+]?|DR|CR)$/i;
/** A clock time ("9:45", "23:59") reads the same: such a word is left as it is (its row then breaks the chain). */
const CLOCK = /^(\d{1,2}):(\d{2})$/;

const isClockTime = (text: string) => {
  const m = CLOCK.exec(text);
  return m !== null && Number(m[1]) <= 23 && Number(m[2]) <= 59;
};

export type RewriteReason = "separator_misread" | "decimal_point_read_as_colon" | "decimal_point_read_as_space";

/** The amount a word can only mean, and why it was misread; null when the word is left as read. */
export function rewriteAmount(text: string): { used: string; reason: RewriteReason } | null {
  const a = POINTS_AS_SEPARATORS.exec(text);
  if (a) return { used: `${a[1]}${a[2]!.replaceAll(".", ",")}.${a[3]}${a[4]}`, reason: "separator_misread" };
  const b = COMMA_AS_POINT.exec(text);
  if (b) return { used: `${b[1]}${b[2]}.${b[3]}${b[4]}`, reason: "separator_misread" };
  const c = COLON_AS_POINT.exec(text);
  if (c && !isClockTime(text)) return { used: `${c[1]}${c[2]}.${c[3]}${c[4]}`, reason: "decimal_point_read_as_colon" };
  return null;
}

/** A whole amount with thousands separators ("20,021,284"): statements print kobo, so its point may have been read as a space. */
const GROUPED_WHOLE = /^([+-]?[₦#N]?)(\d{1,3}(?:,\d{3})+)$/;
const KOBO = /^(\d{2})([-+]?|DR|CR)$/i;
/** The gap a lost point leaves, as a share of the words' height: a column gap is several glyphs wide. */
const POINT_GAP = 0.6;

/**
 * "20,021,284" followed on its line, a point's width away, by "41": the kobo split off by a decimal
 * point read as a space. Joined into one word ("20,021,284.41"); its index in the joined words.
 */
function joinSplitKobo(p: OcrPage, rewrites: Rewrite[]): OcrWord[] {
  const out: OcrWord[] = [];
  for (let i = 0; i < p.words.length; i++) {
    const a = p.words[i]!;
    const b = p.words[i + 1];
    const whole = GROUPED_WHOLE.exec(a.text);
    const kobo = b && b.line === a.line ? KOBO.exec(b.text) : null;
    const gap = b ? b.left - (a.left + a.width) : Infinity;
    if (whole && kobo && gap >= 0 && gap <= POINT_GAP * a.height) {
      const used = `${a.text}.${kobo[1]}${kobo[2]}`;
      rewrites.push({ page: p.number, word: out.length, printed: `${a.text} ${b!.text}`, used, reason: "decimal_point_read_as_space" });
      out.push({ ...a, text: used, width: b!.left + b!.width - a.left, conf: Math.min(a.conf, b!.conf) });
      i++;
    } else out.push(a);
  }
  return out;
}

/** The pages with such words rewritten (new objects; the input is not changed), and the rewrites. */
export function normalizePages(pages: readonly OcrPage[]): { pages: OcrPage[]; rewrites: Rewrite[] } {
  const rewrites: Rewrite[] = [];
  const out = pages.map((p) => ({
    ...p,
    words: joinSplitKobo(p, rewrites).map((w, i) => {
      const r = rewriteAmount(w.text);
      if (r === null) return w;
      rewrites.push({ page: p.number, word: i, printed: w.text, ...r });
      return { ...w, text: r.used };
    }),
  }));
  return { pages: out, rewrites };
}
