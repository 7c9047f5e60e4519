import { BVN, type Matcher } from "./patterns.ts";
import type { PiiKind } from "./values.ts";

export interface Span {
  kind: PiiKind;
  start: number;
  end: number;
}

const SEPARATOR = /[\s,.-]/;

/**
 * Every PII span in `text`, overlapping spans merged. For BVN the whole "BVN: 123..." is not
 * cut, only the number.
 */
export function findSpans(text: string, matchers: Matcher[]): Span[] {
  const spans: Span[] = [];
  for (const m of matchers) {
    m.regex.lastIndex = 0;
    for (const hit of text.matchAll(m.regex)) {
      if (m.accept && !m.accept(hit[0])) continue;
      let start = hit.index;
      let end = start + hit[0].length;
      if (m.kind === "bvn" && hit[1] !== undefined && m.regex === BVN) {
        start = start + hit[0].lastIndexOf(hit[1]);
        end = start + hit[1].length;
      }
      // Trailing separators (space, hyphen) are not part of the value.
      while (end > start && SEPARATOR.test(text[end - 1]!)) end--;
      if (end > start) spans.push({ kind: m.kind, start, end });
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}

/**
 * `text` with every PII span replaced by `replacement` and how many were replaced, or undefined
 * when nothing matched (callers then keep the original untouched).
 */
export function replaceSpans(text: string, matchers: Matcher[], replacement = ""): { text: string; count: number } | undefined {
  const spans = findSpans(text, matchers);
  if (spans.length === 0) return undefined;
  const parts: string[] = [];
  let pos = 0;
  for (const sp of spans) {
    parts.push(text.slice(pos, sp.start), replacement);
    pos = sp.end;
  }
  parts.push(text.slice(pos));
  return { text: parts.join(""), count: spans.length };
}

export function textContainsPii(text: string, matchers: Matcher[]): boolean {
  return findSpans(text, matchers).length > 0;
}
