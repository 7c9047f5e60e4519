import { buildLines, sourceRun } from "./lines.ts";
import { buildMatchers } from "./patterns.ts";
import type { PageRuns, TextRun } from "./pdf-text.ts";
import { findSpans } from "./spans.ts";
import type { PiiKind, PiiValues } from "./values.ts";

/**
 * Finds personal data in a statement's text. Two steps: `detectPii` (detect.ts) reads the values
 * the statement declares about its holder, then `findHits` finds every occurrence of those values
 * (patterns.ts: the whole name and each of its parts, numbers in their printed spellings), plus
 * anything shaped like an e-mail address, a Nigerian phone number or a BVN, on every page. Works
 * on pdf.js text runs (PDF) and on plain strings (spreadsheet cells, markup text).
 */

export { BREAK, buildLines, type Line, sourceRun } from "./lines.ts";
export { detectPii } from "./detect.ts";
export { looksLikeLabel, validValue } from "./labels.ts";
export { buildMatchers, type Matcher, nameParts, NAME_PART_STOP_WORDS } from "./patterns.ts";
export { findSpans, replaceSpans, type Span, textContainsPii } from "./spans.ts";
export { emptyValues, type KnownPii, mergeValues, type PiiKind, type PiiValues } from "./values.ts";

/** A piece of one occurrence of a value inside one pdf.js run: chars [start, end) of run.str. */
export interface RunHit {
  page: number;
  run: TextRun;
  start: number;
  end: number;
  kind: PiiKind;
  /** Occurrence id: the pieces of one occurrence split over several runs share it. */
  group: number;
}

export function findHits(pages: PageRuns[], values: PiiValues): RunHit[] {
  const matchers = buildMatchers(values);
  const hits: RunHit[] = [];
  let group = 0;
  for (const page of pages) {
    for (const line of buildLines(page.runs)) {
      for (const span of findSpans(line.text, matchers)) {
        group++;
        const pieces = new Map<number, [number, number]>();
        for (let i = span.start; i < span.end; i++) {
          const at = line.map[i];
          if (!at) continue;
          const [r, k] = at;
          const p = pieces.get(r);
          if (p) p[1] = k + 1;
          else pieces.set(r, [k, k + 1]);
        }
        for (const [r, [start, end]] of pieces) hits.push({ page: page.index, run: sourceRun(line.runs[r]!), start, end, kind: span.kind, group });
      }
    }
  }
  return hits;
}
