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

// Rotated text is read in its own frame: u along the baseline, v across it (v decreasing to the
// next line), so "to the right of" and "below" mean the same for every orientation.
const SOURCE = new WeakMap<TextRun, TextRun>();

function inReadingFrame(r: TextRun): TextRun {
  if (Math.abs(r.dy) < 0.01 && r.dx > 0) return r;
  const framed = { ...r, x: r.x * r.dx + r.y * r.dy, y: -r.x * r.dy + r.y * r.dx, dx: 1, dy: 0 };
  SOURCE.set(framed, r);
  return framed;
}

/** The pdf.js run a (possibly reframed) line run stands for. */
export const sourceRun = (r: TextRun): TextRun => SOURCE.get(r) ?? r;

/**
 * Groups a page's runs into lines (same direction, same baseline within half a font height), each
 * sorted along the baseline.
 */
export function buildLines(runs: TextRun[]): Line[] {
  const byDirection = new Map<string, TextRun[]>();
  for (const r of runs) {
    const key = `${Math.round(r.dx * 100)},${Math.round(r.dy * 100)}`;
    byDirection.set(key, [...(byDirection.get(key) ?? []), inReadingFrame(r)]);
  }
  const groups: TextRun[][] = [];
  for (const framed of byDirection.values()) {
    const local: TextRun[][] = [];
    for (const r of framed.sort((a, b) => b.y - a.y || a.x - b.x)) {
      const g = local.find((l) => Math.abs(l[0]!.y - r.y) <= Math.max(1, 0.5 * Math.min(l[0]!.height, r.height)));
      if (g) g.push(r);
      else local.push([r]);
    }
    groups.push(...local);
  }
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
        const sep = gap < -0.2 * h ? "\n" : gap > 3 * h ? BREAK : gap > 0.15 * h ? " " : "";
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

/** Separates runs a column apart (or overlapping) in a line's text. */
export const BREAK = "\u241e";

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
/**
 * `text` with every PII span replaced by `replacement` and how many were replaced, or undefined
 * when nothing matched (callers then keep the original untouched).
 */
export function replaceSpans(text: string, matchers: Matcher[], replacement = ""): { text: string; count: number } | undefined {
  const spans = findSpans(text, matchers);
  if (spans.length === 0) return undefined;
  let out = "";
  let pos = 0;
  for (const sp of spans) {
    out += text.slice(pos, sp.start) + replacement;
    pos = sp.end;
  }
  return { text: out + text.slice(pos), count: spans.length };
}

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
  {
    kind: "name",
    // A bare "Customer" only with a colon ("Customer Care" is no label).
    regex: /^(?:account\s*(?:name|title)|a\/c\s*name|acc(?:oun)?t\.?\s*name|customer(?:'s)?\s*name|customer(?=\s*:)|account\s*holder(?:'s)?(?:\s*name)?|name\s*of\s*(?:account|customer)|full\s*name|name|dear)(?![\p{L}])\s*[:.\-]?\s*/iu,
  },
  { kind: "account_number", regex: /^(?:account\s*(?:no|number|num)|acc(?:oun)?t?\.?\s*(?:no|number)|a\/c\s*(?:no|number)?|nuban)(?![\p{L}])\.?\s*[:.\-#]?\s*/iu },
  { kind: "phone", regex: /^(?:phone|mobile|tel(?:ephone)?|gsm)(?:\s*(?:no|number))?(?![\p{L}])\.?\s*[:.\-]?\s*/iu },
  { kind: "email", regex: /^e-?mail(?:\s*address)?(?![\p{L}])\s*[:.\-]?\s*/iu },
  { kind: "address", regex: /^(?:(?:customer|postal|residential|home|contact)\s*)?address(?![\p{L}])\s*[:.\-]?\s*/iu },
  { kind: "bvn", regex: /^bvn(?:\s*(?:no|number))?(?![\p{L}])\.?\s*[:.\-]?\s*/iu },
];

const ADDRESS_WORDS =
  /(?<![\p{L}])(?:address|street|str|st|road|rd|avenue|ave|close|crescent|cres|estate|lane|drive|way|layout|quarters|junction|plot|block|flat|house|off|opp(?:osite)?|p\.?\s*o\.?\s*box|lga|state|lagos|abuja|nigeria)(?![\p{L}])/iu;

function labelOf(s: string): { kind: PiiKind; rest: string; length: number } | undefined {
  const t = s.trimStart();
  const lead = s.length - t.length;
  for (const l of LABELS) {
    const m = l.regex.exec(t);
    if (m) return { kind: l.kind, rest: t.slice(m[0].length).trim(), length: lead + m[0].length };
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

/** Index in line.text where each run starts. */
function runStarts(line: Line): number[] {
  const starts: number[] = [];
  line.map.forEach((m, c) => {
    if (m && starts[m[0]] === undefined) starts[m[0]] = c;
  });
  return starts;
}

/** The run that holds char `c` of the line's text (or the next run after a separator). */
function runAt(line: Line, c: number): number {
  for (let k = c; k < line.map.length; k++) {
    const m = line.map[k];
    if (m) return m[0];
  }
  return line.runs.length - 1;
}

interface Found {
  text: string;
  loc: Located;
}

/**
 * The value printed after a label on its own line: the first phrase after it (separators and a
 * lone ":" skipped), within 250 pt, unless that phrase is itself a label.
 */
function valueRightOf(line: Line, labelEnd: number, labelRun: TextRun, labelText: string): Found | undefined {
  let offset = labelEnd;
  for (const segment of line.text.slice(labelEnd).split(/[\u241e\n]/)) {
    const start = offset;
    offset += segment.length + 1;
    const lead = /^[\s:.\-#]*/.exec(segment)![0].length;
    const text = segment.slice(lead).trim();
    // An overprinted copy of the label itself (fake bold) is skipped.
    if (!text || text === labelText) continue;
    const run = line.runs[runAt(line, start + lead)]!;
    if (run.x - (labelRun.x + labelRun.width) > 250 || labelOf(text) || /:\s*$/.test(text)) return undefined;
    return { text, loc: { run, line } };
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
      const text = line.text.slice(starts[i]).split(/[\u241e\n]/)[0]!.trim();
      if (!text || labelOf(text) || /:\s*$/.test(text)) return;
      best = { text, loc: { run, line } };
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

/**
 * What the engine already knows of a statement. `labelledNames` were read from a holder label by
 * the engine's PII finder and are trusted as they are; other names (the parse's metadata guess)
 * must also stand on a line of their own before they are believed.
 */
export type KnownPii = Partial<PiiValues> & { labelledNames?: readonly string[] };

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
  for (const loc of all) {
    // (Rotated text has no "top" in page terms; its letter head is taken as such.)
    const inTopHalf = vy1 <= vy0 || loc.run !== sourceRun(loc.run) || loc.run.y > (vy0 + vy1) / 2;
    const leftmost = loc.line.runs.filter((r) => r.x < loc.run.x).every((r) => looksLikeLabel(r.str));
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
