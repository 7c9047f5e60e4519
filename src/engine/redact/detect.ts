import { BREAK, buildLines, type Line, runAt, runStarts, sourceRun } from "./lines.ts";
import { ADDRESS_WORDS, labelOf, looksLikeLabel, validValue, VALUE_WINDOW } from "./labels.ts";
import { BVN, namePattern } from "./patterns.ts";
import type { PageRuns, TextRun } from "./pdf-text.ts";
import { emptyValues, type KnownPii, mergeValues, type PiiKind, type PiiValues } from "./values.ts";

/**
 * Reads the values a statement declares about its holder: from labels such as "Account Name" on
 * the first page, the salutation, the address block under the holder's name. Every step reads a
 * bounded window of a line, so a line of any length costs time in proportion to its length.
 */

interface Located {
  run: TextRun;
  line: Line;
  /** Index of the run in its line (runs are sorted along the line). */
  index: number;
}

function locate(lines: Line[]): Located[] {
  return lines.flatMap((line) => line.runs.map((run, index) => ({ run, line, index })));
}

interface Found {
  text: string;
  loc: Located;
}

const isSeparator = (c: string) => c === BREAK || c === "\n";

/** The phrase of `text` from `start` up to the next column break (at most VALUE_WINDOW + 1 characters, so an overlong one fails validValue). */
function phraseAt(text: string, start: number): string {
  let end = start;
  const limit = Math.min(text.length, start + VALUE_WINDOW + 1);
  while (end < limit && !isSeparator(text[end]!)) end++;
  return text.slice(start, end);
}

/**
 * The value printed after a label on its own line: the first phrase after it (separators and a
 * lone ":" skipped), within 250 pt, unless that phrase is itself a label.
 */
function valueRightOf(line: Line, labelEnd: number, labelRun: TextRun, labelText: string): Found | undefined {
  let start = labelEnd;
  while (start <= line.text.length) {
    const segment = phraseAt(line.text, start);
    // A phrase longer than any value: there is no value here.
    if (segment.length > VALUE_WINDOW) return undefined;
    const lead = /^[\s:.\-#]*/.exec(segment)![0].length;
    const text = segment.slice(lead).trim();
    // An overprinted copy of the label itself (fake bold) is skipped.
    if (text && text !== labelText) {
      const run = line.runs[runAt(line, start + lead)]!;
      if (run.x - (labelRun.x + labelRun.width) > 250 || labelOf(text) || /:\s*$/.test(text)) return undefined;
      return { text, loc: { run, line, index: line.runs.indexOf(run) } };
    }
    // Past this segment and its separator.
    start += segment.length + 1;
  }
  return undefined;
}

/** The value printed under a label: the nearest phrase below that overlaps the label across. */
function valueBelow(label: { x0: number; x1: number; y: number; h: number }, lines: Line[]): Found | undefined {
  let best: Found | undefined;
  for (const line of lines) {
    if (!(line.baseline < label.y - 0.3 * label.h && label.y - line.baseline <= 3.5 * label.h)) continue;
    const starts = runStarts(line);
    line.runs.forEach((run, i) => {
      if (!(run.x < label.x1 && run.x + run.width > label.x0 - 2)) return;
      if (best && best.loc.line.baseline >= line.baseline) return;
      const text = phraseAt(line.text, starts[i]!).trim();
      if (!text || labelOf(text) || /:\s*$/.test(text)) return;
      best = { text, loc: { run, line, index: i } };
    });
  }
  return best;
}

/** Every labelled value on the lines: kind, value text and where the value stands. */
function labelledValues(lines: Line[]): { kind: PiiKind; value: Found }[] {
  const out: { kind: PiiKind; value: Found }[] = [];
  for (const line of lines) {
    const starts = runStarts(line);
    let next = 0;
    for (let i = 0; i < line.runs.length; i++) {
      if (i < next) continue;
      const label = labelOf(line.text.slice(starts[i]));
      if (!label) continue;
      const labelEnd = starts[i]! + label.length;
      const lastLabelRun = runAt(line, Math.max(starts[i]!, labelEnd - 1));
      next = lastLabelRun + 1;
      const labelRun = line.runs[lastLabelRun]!;
      const first = line.runs[i]!;
      const labelText = line.text.slice(starts[i], labelEnd).trim();
      const value =
        valueRightOf(line, labelEnd, labelRun, labelText) ??
        valueBelow({ x0: first.x, x1: labelRun.x + labelRun.width, y: line.baseline, h: Math.max(first.height, 4) }, lines);
      if (value && validValue(label.kind, value.text)) out.push({ kind: label.kind, value });
    }
  }
  return out;
}

/** Lines directly under `start`'s line whose first run lines up with that line's left edge. */
function blockUnder(start: Located, all: Located[], maxLines = 4): TextRun[] {
  const out: TextRun[] = [];
  const left = start.line.runs[0]!.x;
  let y = start.line.baseline;
  let h = Math.max(start.run.height, 4);
  for (let n = 0; n < maxLines; n++) {
    const next = all
      .filter(({ run: x }) => x.y < y - 0.3 * h && y - x.y <= 2.2 * h && Math.abs(x.x - left) <= 20)
      .sort((a, b) => b.run.y - a.run.y)[0];
    if (!next) break;
    const s = next.run.str.trim();
    if (looksLikeLabel(s) || s.includes(":") || !/\p{L}/u.test(s) || /^[\d\s,./-]+$/.test(s)) break;
    // A run with a value close to its right is a label of another field ("Statement Period  06/05...").
    const end = next.run.x + next.run.width;
    if (next.line.runs.some((x) => x !== next.run && x.x >= end - 1 && x.x - end < 120)) break;
    out.push(next.run);
    y = next.run.y;
    h = Math.max(next.run.height, 4);
  }
  return out;
}

const pushUnique = (list: string[], v: string | undefined) => {
  if (v && !list.some((x) => x.toLowerCase() === v.toLowerCase())) list.push(v);
};

// Bounded repetitions: these run on whole lines of the first page.
const DATE_LIKE = /\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{1,2}[ -](?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]{0,6}[ -,]{1,3}\d{2,4}\b/i;
const AMOUNT_LIKE = /\d{1,3}(?:,\d{3}){0,6}\.\d{2}\b/;

/**
 * A holder name guessed elsewhere (the parse reads unlabelled letter heads) is only trusted when
 * the first page prints it on a line that is not a transaction row (no date, no amount): a wrong
 * guess such as a narration must never make the redactor cut transactions.
 */
function plausibleHolder(name: string, lines: Line[]): boolean {
  const p = namePattern(name);
  if (!p) return false;
  const re = new RegExp(p, "iu");
  return lines.some((l) => re.test(l.text) && !DATE_LIKE.test(l.text) && !AMOUNT_LIKE.test(l.text));
}

/** For each line, how many of its first runs (left to right) look like labels. */
function labelPrefixes(lines: Line[]): Map<Line, number> {
  const out = new Map<Line, number>();
  for (const line of lines) {
    let n = 0;
    while (n < line.runs.length && looksLikeLabel(line.runs[n]!.str)) n++;
    out.set(line, n);
  }
  return out;
}

/**
 * The holder's values as the statement declares them. Labels are read on the first page only,
 * where statements print their header, so "Name:" inside a narration never names the holder.
 */
export function detectPii(pages: PageRuns[], known?: KnownPii): PiiValues {
  const values = emptyValues();
  const first = pages[0];
  if (!first) return values;
  const firstLines = buildLines(first.runs);
  // Values known from elsewhere (the parse's own header reading) join in before the letter-head
  // search, which looks for the holder's name.
  if (known) {
    const labelled = known.labelledNames ?? [];
    const names = (known.names ?? []).filter((n) => labelled.includes(n) || plausibleHolder(n, firstLines));
    mergeValues(values, { ...known, names });
  }
  const all = locate(firstLines);
  // Where the holder's name stands: the address block of a letter head sits under it.
  const holderRuns: Located[] = [];
  for (const { kind, value: found } of labelledValues(firstLines)) {
    const value = validValue(kind, found.text);
    switch (kind) {
      case "name":
        pushUnique(values.names, value);
        if (value) holderRuns.push(found.loc);
        break;
      case "account_number":
        pushUnique(values.accountNumbers, value);
        break;
      case "bvn":
        pushUnique(values.bvns, value);
        break;
      case "phone":
        pushUnique(values.phones, value);
        break;
      case "email":
        pushUnique(values.emails, value);
        break;
      case "address":
        pushUnique(values.addresses, value);
        for (const r of blockUnder(found.loc, all)) pushUnique(values.addresses, validValue("address", r.str));
        break;
    }
  }
  // BVN printed inline ("BVN: 22212345678") on any header line.
  for (const line of firstLines) for (const m of line.text.matchAll(BVN)) pushUnique(values.bvns, m[1]!.replace(/\D/g, ""));
  // The holder's name printed alone at the left of a line in the top half of the page (a letter
  // head without a label) also heads an address block.
  const [, vy0, , vy1] = first.view;
  const namePatterns = values.names.map(namePattern).filter((p): p is string => !!p).map((p) => new RegExp(p, "iu"));
  const prefixes = labelPrefixes(firstLines);
  for (const loc of all) {
    // (Rotated text has no "top" in page terms; its letter head is taken as such.)
    const inTopHalf = vy1 <= vy0 || loc.run !== sourceRun(loc.run) || loc.run.y > (vy0 + vy1) / 2;
    // Leftmost: every run before it on its line (the runs are sorted along the line) is a label.
    const leftmost = loc.index <= prefixes.get(loc.line)!;
    if (inTopHalf && leftmost && !holderRuns.some((h) => h.run === loc.run) && namePatterns.some((re) => re.test(loc.run.str))) holderRuns.push(loc);
  }
  for (const loc of holderRuns) {
    // The letter head: lines under the holder's name line, aligned with its left edge.
    for (const r of blockUnder(loc, all)) pushUnique(values.addresses, validValue("address", r.str));
    // An address printed on the holder's line, beside the name (OPay's header).
    for (const r of loc.line.runs) {
      if (r.x > loc.run.x && !looksLikeLabel(r.str) && ADDRESS_WORDS.test(r.str)) pushUnique(values.addresses, validValue("address", r.str));
    }
  }
  return values;
}
