import type { PageRuns, TextRun } from "./pdf-text.ts";

/**
 * Finds personal data in a statement's text. Two steps: `detectPii` reads the values the statement
 * declares about its holder (from labels such as "Account Name" on the first page, the salutation,
 * the address block), then `findHits` finds every occurrence of those values, plus anything shaped
 * like an e-mail address, a Nigerian phone number or a BVN, on every page. Works on pdf.js text
 * runs (PDF) and on plain strings (spreadsheet cells, annotation text).
 */

export type PiiKind = "name" | "account_number" | "bvn" | "phone" | "email" | "address";

export interface PiiValues {
  names: string[];
  accountNumbers: string[];
  bvns: string[];
  phones: string[];
  emails: string[];
  addresses: string[];
}

export const emptyValues = (): PiiValues => ({ names: [], accountNumbers: [], bvns: [], phones: [], emails: [], addresses: [] });

export function mergeValues(into: PiiValues, from: Partial<PiiValues>): void {
  for (const k of Object.keys(into) as (keyof PiiValues)[]) {
    for (const v of from[k] ?? []) if (!into[k].some((x) => x.toLowerCase() === v.toLowerCase())) into[k].push(v);
  }
}

// --- Lines of runs ---

export interface Line {
  runs: TextRun[];
  /** Text of the runs joined: "" between abutting runs, " " across a gap, "\n" where runs overlap, "\u241e" a column apart. */
  text: string;
  /** For each char of `text`: [run index in `runs`, char index in that run], or null for a separator. */
  map: ([number, number] | null)[];
  baseline: number;
}

const isHorizontal = (r: TextRun) => Math.abs(r.dy) < 0.01 && r.dx > 0;

/** Groups a page's runs into lines (same baseline within half a font height), each sorted by x. */
export function buildLines(runs: TextRun[]): Line[] {
  const horizontal = runs.filter(isHorizontal).sort((a, b) => b.y - a.y || a.x - b.x);
  const groups: TextRun[][] = [];
  for (const r of horizontal) {
    const g = groups.find((l) => Math.abs(l[0]!.y - r.y) <= Math.max(1, 0.5 * Math.min(l[0]!.height, r.height)));
    if (g) g.push(r);
    else groups.push([r]);
  }
  // Rotated runs are matched on their own.
  for (const r of runs) if (!isHorizontal(r)) groups.push([r]);
  return groups.map((g) => {
    const sorted = g.length > 1 ? [...g].sort((a, b) => a.x - b.x) : g;
    let text = "";
    const map: ([number, number] | null)[] = [];
    sorted.forEach((r, i) => {
      if (i > 0) {
        const prev = sorted[i - 1]!;
        const gap = r.x - (prev.x + prev.width);
        const h = Math.max(prev.height, r.height, 1);
        // Overlapping runs and runs a column apart are never read as one phrase.
        const sep = gap < -0.2 * h ? "\n" : gap > 3 * h ? "\u241e" : gap > 0.15 * h ? " " : "";
        if (sep) {
          text += sep;
          map.push(null);
        }
      }
      for (let k = 0; k < r.str.length; k++) map.push([i, k]);
      text += r.str;
    });
    return { runs: sorted, text, map, baseline: sorted[0]!.y };
  });
}

// --- Patterns ---

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const B = "(?<![\\p{L}\\p{N}])";
const E = "(?![\\p{L}\\p{N}])";

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
// Nigerian numbers: +234 with an optional (0), or 234 glued to a mobile prefix, or a local mobile
// number 0[789][01]XXXXXXXX; digits may be grouped by spaces or hyphens.
const PHONE = /(?<![\p{N}+])(?:\+234[\s-]*(?:\(0\)[\s-]*|0[\s-]*)?[1-9](?:[\s-]?\d){6,9}|234[789][01]\d{8}|0[789][01](?:[\s-]?\d){8})(?!\p{N})/gu;
const BVN = /(?<![\p{L}\p{N}])BVN(?:\s*(?:no|number))?\.?\s*[:.\-]?\s*((?:\d[\s-]?){10}\d)(?!\p{N})/giu;
// A masked rendering of a number: digits around one run of mask characters.
const MASKED = /(?<![\p{L}\p{N}*•])[0-9]*[*Xx•]{2,}[0-9]*(?![\p{L}\p{N}*•])/gu;

const digitsPattern = (digits: string) => B + digits.split("").map(escape).join("[\\s-]?") + E;

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

/** Titles printed before names; the name is matched with or without them. */
const TITLES = /^(?:mr|mrs|ms|miss|dr|chief|alhaji|alhaja|pastor|engr|prof|barr|rev|hon|sir|madam)\.?$/i;

function namePattern(name: string): string | undefined {
  const tokens = name.split(/[\s,]+/).filter((t) => t.length > 0 && !TITLES.test(t));
  if (tokens.length === 0) return undefined;
  if (tokens.length === 1 && tokens[0]!.length < 3) return undefined;
  // Every order of the name's words (surname first is common), for up to 4 words.
  const orders = tokens.length <= 4 ? permutations(tokens) : [tokens];
  return B + "(?:" + orders.map((o) => o.map(escape).join("[\\s,.]*")).join("|") + ")" + E;
}

const phraseNormal = (s: string) => s.replace(/\s+/g, " ").trim();

export interface Matcher {
  kind: PiiKind;
  regex: RegExp;
  /** Optional check of a regex match (masked numbers must agree with the account number). */
  accept?: (m: string) => boolean;
}

function maskedAgrees(token: string, digits: string): boolean {
  const visible = token.replace(/[^0-9]/g, "").length;
  if (visible < 3) return false;
  if (token.length === digits.length) return [...token].every((c, i) => !/[0-9]/.test(c) || c === digits[i]);
  const suffix = /^[*Xx•]{2,}([0-9]{3,4})$/.exec(token);
  return !!suffix && digits.endsWith(suffix[1]!);
}

export function buildMatchers(values: PiiValues): Matcher[] {
  const out: Matcher[] = [
    { kind: "email", regex: EMAIL },
    { kind: "phone", regex: PHONE },
    { kind: "bvn", regex: BVN },
  ];
  for (const n of values.names) {
    const p = namePattern(n);
    if (p) out.push({ kind: "name", regex: new RegExp(p, "giu") });
  }
  for (const d of values.accountNumbers) {
    if (!/^\d+$/.test(d)) {
      out.push({ kind: "account_number", regex: new RegExp(`(?<![\\p{L}\\p{N}*•])${escape(d)}(?![\\p{L}\\p{N}*•])`, "gu") });
      continue;
    }
    out.push({ kind: "account_number", regex: new RegExp(digitsPattern(d), "gu") });
    out.push({ kind: "account_number", regex: MASKED, accept: (m) => maskedAgrees(m, d) });
  }
  for (const d of [...values.bvns, ...values.phones.map((p) => p.replace(/\D/g, ""))]) {
    if (d.length >= 7) out.push({ kind: d.length === 11 && values.bvns.includes(d) ? "bvn" : "phone", regex: new RegExp(digitsPattern(d), "gu") });
  }
  for (const e of values.emails) out.push({ kind: "email", regex: new RegExp(B + escape(e) + E, "giu") });
  for (const a of values.addresses) {
    const words = phraseNormal(a).split(" ").map(escape);
    if (words.join("").length >= 3) out.push({ kind: "address", regex: new RegExp(B + words.join("\\s*") + E, "giu") });
  }
  return out;
}

export interface Span {
  kind: PiiKind;
  start: number;
  end: number;
}

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
      while (end > start && /[\s,.-]/.test(text[end - 1]!)) end--;
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

export function textContainsPii(text: string, matchers: Matcher[]): boolean {
  return findSpans(text, matchers).length > 0;
}

// --- Detection of the holder's values from labels ---

const LABELS: { kind: PiiKind; regex: RegExp }[] = [
  { kind: "name", regex: /^(?:account\s*name|customer(?:'s)?\s*name|account\s*holder(?:'s)?(?:\s*name)?|name\s*of\s*account|full\s*name|name|dear)(?![\p{L}])\s*[:.\-]?\s*/iu },
  { kind: "account_number", regex: /^(?:account\s*(?:no|number|num)|acc(?:oun)?t?\.?\s*(?:no|number)|a\/c\s*(?:no|number)?|nuban)(?![\p{L}])\.?\s*[:.\-#]?\s*/iu },
  { kind: "phone", regex: /^(?:phone|mobile|tel(?:ephone)?|gsm)(?:\s*(?:no|number))?(?![\p{L}])\.?\s*[:.\-]?\s*/iu },
  { kind: "email", regex: /^e-?mail(?:\s*address)?(?![\p{L}])\s*[:.\-]?\s*/iu },
  { kind: "address", regex: /^(?:(?:customer|postal|residential|home|contact)\s*)?address(?![\p{L}])\s*[:.\-]?\s*/iu },
  { kind: "bvn", regex: /^bvn(?:\s*(?:no|number))?(?![\p{L}])\.?\s*[:.\-]?\s*/iu },
];

const ADDRESS_WORDS =
  /(?<![\p{L}])(?:address|street|str|st|road|rd|avenue|ave|close|crescent|cres|estate|lane|drive|way|layout|quarters|junction|plot|block|flat|house|off|opp(?:osite)?|p\.?\s*o\.?\s*box|lga|state|lagos|abuja|nigeria)(?![\p{L}])/iu;

function labelOf(s: string): { kind: PiiKind; rest: string } | undefined {
  const t = s.trim();
  for (const l of LABELS) {
    const m = l.regex.exec(t);
    if (m) return { kind: l.kind, rest: t.slice(m[0].length).trim() };
  }
  return undefined;
}

export const looksLikeLabel = (s: string) => labelOf(s) !== undefined || /:\s*$/.test(s.trim());

export function validValue(kind: PiiKind, raw: string): string | undefined {
  const v = phraseNormal(raw);
  const digits = v.replace(/\D/g, "");
  switch (kind) {
    case "name":
      return /\p{L}/u.test(v) && !/\d/.test(v) && !v.includes(":") && v.length >= 2 && v.length <= 80 && v.split(" ").length <= 6 ? v : undefined;
    case "account_number":
      if (/^[\d\s-]+$/.test(v)) return digits.length >= 6 && digits.length <= 20 ? digits : undefined;
      // Printed masked only ("******4321"): the masked form itself is what gets removed.
      return /^[0-9]*[*Xx•]{2,}[0-9]*$/.test(v) && digits.length >= 3 && v.length >= 6 && v.length <= 20 ? v : undefined;
    case "bvn":
      return /^[\d\s-]+$/.test(v) && digits.length === 11 ? digits : undefined;
    case "phone":
      return /^[+\d\s()-]+$/.test(v) && digits.length >= 7 && digits.length <= 15 ? v : undefined;
    case "email":
      return /^\S+@\S+$/.test(v) ? v : undefined;
    case "address":
      return /\p{L}/u.test(v) && v.length <= 160 && !v.includes(":") ? v : undefined;
  }
}

interface Located {
  run: TextRun;
  line: Line;
}

function locate(lines: Line[]): Located[] {
  return lines.flatMap((line) => line.runs.map((run) => ({ run, line })));
}

/** The value for a label: the rest of the label's own run, the run to its right, or the run below it. */
function valueFor(label: Located, all: Located[], kind: PiiKind): Located | undefined {
  const r = label.run;
  const right = label.line.runs.filter((x) => x.x > r.x + r.width - 1 && x.x - (r.x + r.width) < 220).sort((a, b) => a.x - b.x)[0];
  if (right && !looksLikeLabel(right.str) && validValue(kind, right.str)) return all.find((l) => l.run === right);
  const h = Math.max(r.height, 4);
  const below = all
    .filter(({ run: x }) => x !== r && x.y < r.y - 0.3 * h && r.y - x.y <= 3.5 * h && x.x < r.x + r.width && x.x + x.width > r.x - 2)
    .sort((a, b) => b.run.y - a.run.y || a.run.x - b.run.x)[0];
  if (below && !looksLikeLabel(below.run.str) && validValue(kind, below.run.str)) return below;
  return undefined;
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

/**
 * The holder's values as the statement declares them. Labels are read on the first page only,
 * where statements print their header, so "Name:" inside a narration never names the holder.
 */
const DATE_LIKE = /\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{1,2}[ -](?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[ -,]+\d{2,4}\b/i;
const AMOUNT_LIKE = /\d{1,3}(?:,\d{3})*\.\d{2}\b/;

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

export function detectPii(pages: PageRuns[], known?: Partial<PiiValues>): PiiValues {
  const values = emptyValues();
  const first = pages[0];
  if (!first) return values;
  const firstLines = buildLines(first.runs);
  // Values known from elsewhere (the parse's own header reading) join in before the letter-head
  // search, which looks for the holder's name.
  if (known) mergeValues(values, { ...known, names: (known.names ?? []).filter((n) => plausibleHolder(n, firstLines)) });
  const all = locate(firstLines);
  // Where the holder's name stands: the address block of a letter head sits under it.
  const holderRuns: Located[] = [];
  for (const loc of all) {
    const label = labelOf(loc.run.str);
    if (!label) continue;
    let found: Located | undefined;
    let raw: string | undefined;
    if (label.rest && validValue(label.kind, label.rest)) {
      found = loc;
      raw = label.rest;
    } else if (!label.rest) {
      found = valueFor(loc, all, label.kind);
      raw = found?.run.str;
    }
    if (!found || raw === undefined) continue;
    const value = validValue(label.kind, raw);
    switch (label.kind) {
      case "name":
        pushUnique(values.names, value);
        if (value) holderRuns.push(found);
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
        for (const r of blockUnder(found, all)) pushUnique(values.addresses, validValue("address", r.str));
        break;
    }
  }
  // BVN printed inline ("BVN: 22212345678") on any header line.
  for (const line of firstLines) for (const m of line.text.matchAll(BVN)) pushUnique(values.bvns, m[1]!.replace(/\D/g, ""));
  // The holder's name printed alone at the left of a line in the top half of the page (a letter
  // head without a label) also heads an address block.
  const [, vy0, , vy1] = first.view;
  const namePatterns = values.names.map(namePattern).filter((p): p is string => !!p).map((p) => new RegExp(p, "iu"));
  for (const loc of all) {
    const inTopHalf = vy1 <= vy0 || loc.run.y > (vy0 + vy1) / 2;
    const leftmost = loc.line.runs.filter((r) => r.x < loc.run.x).every((r) => looksLikeLabel(r.str));
    if (inTopHalf && leftmost && !holderRuns.includes(loc) && namePatterns.some((re) => re.test(loc.run.str))) holderRuns.push(loc);
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
        for (const [r, [start, end]] of pieces) hits.push({ page: page.index, run: line.runs[r]!, start, end, kind: span.kind, group });
      }
    }
  }
  return hits;
}
