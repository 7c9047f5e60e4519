/**
 * The engine's one date parser. A statement's dates are read in two steps: `scanDate` recognises
 * a date form and keeps ambiguous numeric parts apart, then `resolveDate` applies the day/month
 * order inferred once per document (`inferDayMonthOrder`) from all its dates. Output is ISO 8601
 * with the Lagos offset (+01:00, no daylight saving), keeping the time when the statement has one.
 */
import { squeezeSpaces } from "./whitespace.ts";

export type DayMonthOrder = "dmy" | "mdy";

export interface RawDate {
  year: number;
  /** For named-month and ISO forms, month and day are certain. */
  month: number;
  day: number;
  /** True when month/day come from `a/b/yyyy` and could be swapped. */
  ambiguous: boolean;
  hour: number;
  minute: number;
  second: number;
}

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11,
  november: 11, dec: 12, december: 12,
};
const MON = String.raw`(?<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const SEP = String.raw`[-/. ]\s*`;
// Times after a date: 14:22, 14:22:11, 02:13:00 PM, Oracle's 12.00.00 AM, ISO's T14:22:11.000Z.
const TIME = String.raw`(?:[ T,]+(?<h>\d{1,2})[:.](?<mi>\d{2})(?:[:.](?<s>\d{2})(?:\.\d+)?)?\s*(?<ap>[ap]\.?m\.?)?(?:Z|[+-]\d{2}:?\d{2})?)?`;

const FORMS: RegExp[] = [
  // 2024-01-03, 2024/01/03 (ISO order is never ambiguous)
  new RegExp(String.raw`^(?<y>\d{4})[-/.](?<m>\d{1,2})[-/.](?<d>\d{1,2})${TIME}$`, "i"),
  // 03-Jan-2024, 03 Jan 2024, 3 January, 2024, 03-JAN-24, 03Jan2024
  new RegExp(String.raw`^(?<d>\d{1,2})(?:st|nd|rd|th)?(?:${SEP})?${MON}\.?,?(?:${SEP})?(?<y>\d{4}|\d{2})${TIME}$`, "i"),
  // Jan 03, 2024 / January 3 2024
  new RegExp(String.raw`^${MON}\.?${SEP}(?<d>\d{1,2})(?:st|nd|rd|th)?,?${SEP}(?<y>\d{4}|\d{2})${TIME}$`, "i"),
  // 2024 Jan 03 14:22:11
  new RegExp(String.raw`^(?<y>\d{4})${SEP}${MON}${SEP}(?<d>\d{1,2})${TIME}$`, "i"),
  // 03/01/2024, 03-01-24, 01/03/2024 02:13:00 PM (order resolved per document)
  new RegExp(String.raw`^(?<a>\d{1,2})[-/.](?<b>\d{1,2})[-/.](?<y>\d{4}|\d{2})${TIME}$`, "i"),
];

const WEEKDAY_NAME = String.raw`(?:mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)`;
/** A weekday before the date ("Fri, 27 Nov 2026", "Thursday, November 27, 2026"): read past, not checked. */
const WEEKDAY = new RegExp(String.raw`^${WEEKDAY_NAME}\.?,?\s+(?=[a-z\d])`, "i");
/** The text without the weekday that opens it, if any ("Fri, 02 Jan 2026" → "02 Jan 2026"). */
export const withoutWeekday = (text: string): string => text.replace(WEEKDAY, "");

/**
 * A date cell wrapped in a narrow column leaves word-sized parts on the lines below its first
 * ("03 Jan" / "2026," / "12:53" / "AM"): a year with its punctuation, a meridiem, a weekday or a
 * month name, or a month-first date's day with its comma ("Jan" / "5," / "2026").
 */
const DATE_PART = new RegExp(String.raw`^(?:(?:19|20)\d\d[,.]?|[ap]\.?m\.?|${WEEKDAY_NAME}\.?,?|${MON}\.?,?|(?:0?[1-9]|[12]\d|3[01]),)$`, "i");
export const isWrappedDatePart = (text: string): boolean => DATE_PART.test(text.trim());

/** A weekday's name alone, as it opens a date (`Sun,`, `Sunday`, `Tue.`). */
const WEEKDAY_WORD = new RegExp(String.raw`^${WEEKDAY_NAME}\.?,?$`, "i");
export const isWeekdayWord = (text: string): boolean => WEEKDAY_WORD.test(text.trim());

function fullYear(y: string): number {
  const n = Number(y);
  // Two-digit years: statements are recent; 00-69 -> 2000s, 70-99 -> 1900s.
  if (y.length === 2) return n < 70 ? 2000 + n : 1900 + n;
  return n;
}

/**
 * Results of recently scanned strings: a statement repeats each date on many rows, and the layout
 * passes ask about the same cell more than once. Cached dates are frozen, as callers share them.
 */
const scanned = new Map<string, Readonly<RawDate> | null>();
/** Entries kept before the cache is emptied (about 2 MB at most). */
const SCAN_CACHE_SIZE = 20_000;

/** Recognises a whole string as a date (with optional time); null when it is not one. */
export function scanDate(text: string): Readonly<RawDate> | null {
  const hit = scanned.get(text);
  if (hit !== undefined) return hit;
  const raw = scanUncached(text);
  const result = raw && Object.freeze(raw);
  if (scanned.size >= SCAN_CACHE_SIZE) scanned.clear();
  scanned.set(text, result);
  return result;
}

function scanUncached(text: string): RawDate | null {
  const t = withoutWeekday(squeezeSpaces(text));
  if (t.length < 6 || t.length > 40 || !/\d/.test(t)) return null;
  for (const re of FORMS) {
    const g = re.exec(t)?.groups;
    if (!g) continue;
    const time = clock(g.h, g.mi, g.s, g.ap);
    if (!time) return null;
    const { hour, minute, second } = time;
    const year = fullYear(g.y ?? "");
    if (year < 1900 || year > 2200) return null;
    let month: number;
    let day: number;
    let ambiguous = false;
    if (g.a !== undefined && g.b !== undefined) {
      const a = Number(g.a);
      const b = Number(g.b);
      if (a < 1 || b < 1 || a > 31 || b > 31 || (a > 12 && b > 12)) return null;
      // Stored as day=a, month=b (day-first, the Nigerian default); resolveDate may swap.
      day = a;
      month = b;
      ambiguous = true;
    } else {
      month = g.mon ? (MONTHS[g.mon.toLowerCase()] ?? 0) : Number(g.m);
      day = Number(g.d);
    }
    if (!ambiguous && !validDay(year, month, day)) return null;
    return { year, month, day, ambiguous, hour, minute, second };
  }
  return null;
}

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/**
 * Day/month order of a document from all its numeric dates: a first part above 12 proves
 * day-first, a second part above 12 proves month-first; otherwise the order under which the dates
 * run monotonically (statements are sorted) wins, and day-first (the Nigerian convention) breaks ties.
 */
export function inferDayMonthOrder(dates: RawDate[]): DayMonthOrder {
  const amb = dates.filter((d) => d.ambiguous);
  let dmy = 0;
  let mdy = 0;
  for (const d of amb) {
    if (d.day > 12) dmy++;
    if (d.month > 12) mdy++;
  }
  if (dmy !== mdy) return dmy > mdy ? "dmy" : "mdy";
  const disorder = (order: DayMonthOrder) => {
    const keys = amb.map((d) => key(resolveDate(d, order)));
    let up = 0;
    let down = 0;
    for (let i = 1; i < keys.length; i++) {
      const a = keys[i - 1] ?? 0;
      const b = keys[i] ?? 0;
      if (b > a) up++;
      else if (b < a) down++;
    }
    return Math.min(up, down);
  };
  return disorder("mdy") < disorder("dmy") ? "mdy" : "dmy";
}

const key = (d: RawDate) => d.year * 10000 + d.month * 100 + d.day;

export function resolveDate(d: RawDate, order: DayMonthOrder): RawDate {
  if (!d.ambiguous) return d;
  const swap = order === "mdy" ? d.day <= 12 : d.month > 12;
  const r = swap ? { ...d, day: d.month, month: d.day, ambiguous: false } : { ...d, ambiguous: false };
  return validDay(r.year, r.month, r.day) ? r : { ...d, ambiguous: false, day: d.month, month: d.day };
}

/** "00".."99": every transaction's date is formatted, six fields each. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));
const pad = (n: number, w = 2) => (w === 2 && Number.isInteger(n) && n >= 0 && n < 100 ? TWO_DIGITS[n]! : String(n).padStart(w, "0"));

/** `2024-01-03T14:22:11+01:00` */
export function formatLagos(d: RawDate): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}T${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}+01:00`;
}

/** Sort key of a resolved date, including time. */
export function dateSortKey(d: RawDate): number {
  return ((d.year * 100 + d.month) * 100 + d.day) * 100000 + d.hour * 3600 + d.minute * 60 + d.second;
}

const MONTH_ONLY = new RegExp(String.raw`^${MON}\.?,?\s+(?<y>\d{4})$`, "i");

/** A period text longer than this is not one (and long lines never reach the splitters). */
const MAX_PERIOD_TEXT = 120;
/** A word a date can start with: a digit or a month name ("01", "JUL.01", "May"). */
const DATE_WORD = /^(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;
/** What stands between a period's two dates: "-", "to", "To:", "through", "till", "until", "and" (after "between"). */
const PERIOD_SPLITTERS = [
  /\s{1,20}(?:-|–|—|to:?|through|thru|till|until|and)\s{1,20}/i,
  /(?<=\d{4})\s{0,20}[-–]\s{0,20}(?=\d{1,2}\s{0,20}[a-z])/i,
  /(?<=\d{4})\s{0,20}[-–]\s{0,20}(?=\d{1,2}[/.])/,
];

/**
 * Finds `date - date` / `date to date` in a statement-period text, after any leading words
 * ("Statement Period:", "From:", "Covering", "for the period"); a lone `May 2023` is that whole
 * month, `Jan 2026 - Mar 2026` those whole months. Two numeric dates are read in one order: when
 * one of them proves month-first ("04/30/2026 - 08/01/2026"), so is the other.
 */
export function scanPeriod(text: string): [RawDate, RawDate] | null {
  if (text.length > MAX_PERIOD_TEXT) return null;
  const t = stripLeadingWords(squeezeSpaces(text));
  const whole = monthOf(t);
  if (whole) return whole;
  for (const re of PERIOD_SPLITTERS) {
    const parts = t.split(re);
    if (parts.length !== 2) continue;
    const a = scanDate(parts[0] ?? "");
    const b = scanDate(parts[1] ?? "");
    if (a && b) return sameOrder(a, b);
    // A range of whole months ("Jan 2026 - Mar 2026"): the first's first day to the last's last.
    const from = monthOf(parts[0] ?? "");
    const to = monthOf(parts[1] ?? "");
    if (from && to) return [from[0], to[1]];
  }
  return null;
}

/** A month written alone ("May 2023"): its first and last days. */
function monthOf(text: string): [RawDate, RawDate] | null {
  const whole = MONTH_ONLY.exec(text.trim())?.groups;
  if (!whole) return null;
  const year = Number(whole.y);
  const month = MONTHS[whole.mon!.toLowerCase()] ?? 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = (d: number): RawDate => ({ year, month, day: d, ambiguous: false, hour: 0, minute: 0, second: 0 });
  return [day(1), day(last)];
}

/** Drops words before the first one a date can start with ("Statement Period: From 01 May…"). */
function stripLeadingWords(t: string): string {
  let at = 0;
  while (at < t.length) {
    const end = t.indexOf(" ", at);
    const word = end < 0 ? t.slice(at) : t.slice(at, end);
    if (DATE_WORD.test(word) || end < 0) break;
    at = end + 1;
  }
  return t.slice(at);
}

/**
 * Both ends of a period in the order one of them proves (a part above 12). The proving end stays
 * ambiguous, so it still counts in the document's order and resolves the same way under either.
 */
function sameOrder(a: Readonly<RawDate>, b: Readonly<RawDate>): [RawDate, RawDate] {
  const proves = (d: RawDate): DayMonthOrder | null => (!d.ambiguous ? null : d.month > 12 ? "mdy" : d.day > 12 ? "dmy" : null);
  const pa = proves(a);
  const pb = proves(b);
  if (pa && b.ambiguous && !pb) return [a, resolveDate(b, pa)];
  if (pb && a.ambiguous && !pa) return [resolveDate(a, pb), b];
  return [a, b];
}

/** A day and month without a year ("02 Dec", "02-Dec"), as statements that print the year on a second line or not at all. */
// "02 Dec", "02-Dec", and "03-Jan-" whose year went to the next line.
/** "Jan 3," / "January 3": a month-first date whose year went to the next line, or is not printed. */
const PARTIAL_MONTH_FIRST = new RegExp(String.raw`^${MON}\.?[ -]?(?<d>\d{1,2})(?:st|nd|rd|th)?,?$`, "i");
const PARTIAL = new RegExp(String.raw`^(?<d>\d{1,2})(?:st|nd|rd|th)?[-/. ]?${MON}\.?[-/,]?$`, "i");

export function scanPartialDate(text: string): { month: number; day: number } | null {
  // A weekday before it is read past, as scanDate does ("Mon, 05 Jan").
  const t = withoutWeekday(text.trim());
  const g = PARTIAL.exec(t)?.groups ?? PARTIAL_MONTH_FIRST.exec(t)?.groups;
  if (!g) return null;
  const month = MONTHS[g.mon!.toLowerCase()] ?? 0;
  const day = Number(g.d);
  return month >= 1 && day >= 1 && day <= 31 ? { month, day } : null;
}

/** Time of day in a row's own time cell. */
export type TimeOfDay = Pick<RawDate, "hour" | "minute" | "second">;

/**
 * Places a yearless date in the statement period: the period's year in which that month falls;
 * at `time` when the row prints one in a cell of its own.
 */
export function completePartialDate(p: { month: number; day: number }, period: [RawDate, RawDate] | null, fallbackYear: number, time?: TimeOfDay | null): RawDate {
  let year = fallbackYear;
  if (period) {
    const [a, b] = period;
    year = a.year === b.year || p.month >= a.month ? a.year : b.year;
  }
  return { year, month: p.month, day: p.day, ambiguous: false, hour: time?.hour ?? 0, minute: time?.minute ?? 0, second: time?.second ?? 0 };
}

/** TIME_ONLY's parts. */
const TIME_PARTS = /^(?<h>\d{1,2}):(?<mi>\d{2})(?::(?<s>\d{2}))?\s*(?<ap>[ap]\.?m\.?)?$/i;

/** A time of day alone (TIME_ONLY: `14:22`, `14:22:11`, `02:13:00 PM`), or null. */
export function scanTimeOfDay(text: string): TimeOfDay | null {
  const g = TIME_PARTS.exec(text.trim())?.groups;
  return g ? clock(g.h, g.mi, g.s, g.ap) : null;
}

/** A time of day from its printed parts (a missing part is 0; `pm` adds 12 hours, `12 am` is midnight), or null when out of range. */
function clock(h: string | undefined, mi: string | undefined, s: string | undefined, meridiem: string | undefined): TimeOfDay | null {
  let hour = h ? Number(h) : 0;
  const ap = meridiem?.toLowerCase().replace(/\./g, "");
  if (ap === "pm" && hour < 12) hour += 12;
  if (ap === "am" && hour === 12) hour = 0;
  const minute = mi ? Number(mi) : 0;
  const second = s ? Number(s) : 0;
  return hour > 23 || minute > 59 || second > 59 ? null : { hour, minute, second };
}

/** `14:22`, `14:22:11`, `02:13:00 PM`. */
export const TIME_ONLY = /^\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?$/i;

/** A clock time anywhere in a text (`14:03`, `2:13 PM`, a date's `... 10:00:22`). */
export const hasClockTime = (text: string): boolean => /\d:\d\d/.test(text);
