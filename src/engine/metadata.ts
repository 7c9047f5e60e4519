import { BANK_PROFILES } from "./banks/profiles.ts";
import { type RawDate, scanDate, scanPeriod } from "./dates.ts";
import type { Cell } from "./layout/cells.ts";
import type { Line } from "./layout/lines.ts";
import { type Kobo, parseAmount } from "./money.ts";
import type { PrintedTotals } from "./reconcile.ts";

/**
 * Statement facts printed outside the table: "label value" on one line, or the value under its
 * label (summary boxes). The first occurrence of each label wins, so a second account section
 * (OPay's empty Savings block) does not overwrite the first.
 */
export interface HeaderFacts extends PrintedTotals {
  accountNumber: string | null;
  holder: string | null;
  /** The holder was read from a label ("Account Name: …"), not guessed from a salutation or letter head. */
  holderLabelled: boolean;
  period: [RawDate, RawDate] | null;
  currency: string | null;
}

type Field = "accountNumber" | "holder" | "salutation" | "period" | "periodStart" | "periodEnd" | "opening" | "closing" | "totalDebit" | "totalCredit" | "debitCount" | "creditCount" | "currency";

const LABELS: [Field, RegExp][] = [
  ["accountNumber", /^(?:customer\s+)?(?:account|acct|a\/c|acc)\.?\s*(?:no|number|num|#)?\.?(?:\s*\/\s*nuban)?$|^nuban$|^wallet\s+(?:no|number|id)\.?$/i],
  ["holder", /^(?:(?:account|acct|a\/c)\.?\s+name|account\s+holder|customer\s+name|name\s+of\s+account|name|customer|account\s+title|holder)$/i],
  ["salutation", /^dear$/i],
  ["period", /^(?:statement\s+|transaction\s+|reporting\s+|report\s+)?period$|^statement\s+(?:date|range|from|for\s+the\s+period)$|^date\s+range$|^period\s+covered$/i],
  ["periodStart", /^(?:start\s+date|from|period\s+from|from\s+date|start)$/i],
  ["periodEnd", /^(?:end\s+date|to|period\s+to|to\s+date|end)$/i],
  ["opening", /^(?:opening|beginning|start(?:ing)?|previous)\s+bal(?:ance)?\.?$|^balance\s+b\/?f$|^brought\s+forward$/i],
  ["closing", /^(?:closing|ending|end|final)\s+bal(?:ance)?\.?$|^balance\s+c\/?f$/i],
  ["totalDebit", /^total\s+(?:debits?|withdrawals?|money\s+out|payments?|outflows?|debit\s+amount)$|^money\s+out$/i],
  ["totalCredit", /^total\s+(?:credits?|deposits?|lodgements?|money\s+in|inflows?|credit\s+amount)$|^money\s+in$/i],
  ["debitCount", /^(?:total\s+)?(?:debit|withdrawal)s?\s+count$|^(?:no\.?|number)\s+of\s+(?:debits|withdrawals)$/i],
  ["creditCount", /^(?:total\s+)?(?:credit|deposit|lodgement)s?\s+count$|^(?:no\.?|number)\s+of\s+(?:credits|deposits|lodgements)$/i],
  ["currency", /^(?:currency|ccy)$/i],
];

/** An account number: 6 to 20 digits, possibly grouped ("000 000 0000"), at the start of the value ("0123456789 (NGN)"). */
const ACCOUNT_DIGITS = /^\d(?:[\s-]?\d){5,19}(?![\d])/;

const clean = (s: string) => s.replace(/\s*:\s*$/, "").replace(/\s+/g, " ").trim();

export function labelField(text: string): Field | null {
  const t = clean(text);
  if (t.length > 40) return null;
  for (const [field, re] of LABELS) if (re.test(t)) return field;
  return null;
}

/** A label and value in one run: "Period: 30/06/2025 TO 28/02/2026", "CURRENCY: NGN". */
function splitInline(text: string): [Field, string] | null {
  const m = /^([^:]{2,40}):\s*(.+)$/.exec(text.trim());
  if (m) {
    const field = labelField(m[1] ?? "");
    return field ? [field, m[2]!.trim()] : null;
  }
  // No colon: a label phrase of up to four words run together with its value ("Name TEST USER").
  const words = text.trim().split(/\s+/);
  for (let n = Math.min(4, words.length - 1); n >= 1; n--) {
    const field = labelField(words.slice(0, n).join(" "));
    const value = words.slice(n).join(" ");
    if (field && acceptable(field, value)) return [field, value];
  }
  return null;
}

/** Value cells after a label: the first cell, then neighbours closer than this many glyph heights. */
const VALUE_RUN_GAP = 2;
/** A value under its label is looked for within this many glyph heights below. */
const VALUE_BELOW = 3.6;

/** Largest gap between cells of one value: sheet cells never join, PDF runs join when close. */
const runGap = (line: Line) => (line.source === "sheet" ? 0 : VALUE_RUN_GAP * line.h);


/**
 * `tableTop`: page and baseline of the first transaction row; a name without a label is only
 * looked for above it.
 */
export function extractHeaderFacts(all: Line[], tableTop?: { page: number; y: number }): HeaderFacts {
  const lines = all.map(splitLabelledRuns);
  const raw = new Map<Field, string>();
  const put = (field: Field, v: string) => {
    // A separate ":" cell between label and value ("Account Name" ":" "NWOSU ...") is not the value.
    const value = v.replace(/^:\s*/, "").trim();
    // "From 01-Jan-2024 To 31-Jan-2024": a start label followed by the whole period.
    const f = (field === "periodStart" || field === "periodEnd") && scanPeriod(value) ? "period" : field;
    if (value !== "" && !raw.has(f) && acceptable(f, value)) raw.set(f, value);
  };
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!;
    const cells = line.cells;
    for (let ci = 0; ci < cells.length; ci++) {
      const cell = cells[ci]!;
      const inline = splitInline(joinFrom(cells, ci, runGap(line)));
      // Label and value in one run ("ACCOUNT No.: 1234", "Period: a TO b").
      if (inline && !labelField(cell.text)) {
        put(inline[0], inline[1]);
        continue;
      }
      // A label drawn as two words ("ACCOUNT" "NO:") wins over its first word alone.
      const pair = ci + 1 < cells.length ? labelField(cells.slice(ci, ci + 2).map((c) => c.text).join(" ")) : null;
      const field = pair ?? labelField(cell.text) ?? wrappedLabel(lines, li, cell);
      if (!field) continue;
      const labelSpan = pair ? 2 : 1;
      const valueCells: Cell[] = [];
      for (let k = ci + labelSpan; k < cells.length; k++) {
        const c = cells[k]!;
        const prev = valueCells[valueCells.length - 1];
        if (prev && c.x0 - prev.x1 > runGap(line)) break;
        // A label word inside a value run ("01-Jan-2024 To 31-Mar-2024") is part of the value.
        if (!prev && (labelField(c.text) || splitInline(c.text))) break;
        valueCells.push(c);
      }
      const sameLine = valueCells.map((c) => c.text).join(" ");
      if (valueCells.length > 0 && acceptable(field, sameLine.trim())) {
        put(field, sameLine);
        ci += labelSpan - 1 + valueCells.length;
        continue;
      }
      // Value under the label (summary boxes).
      const label = cells.slice(ci, ci + labelSpan);
      const x0 = label[0]!.x0;
      const x1 = label[label.length - 1]!.x1;
      for (let lj = li + 1; lj < lines.length; lj++) {
        const below = lines[lj]!;
        if (below.page !== line.page || below.y - line.y > VALUE_BELOW * Math.max(line.h, below.h)) break;
        const start = below.cells.findIndex((c) => c.x1 > x0 - line.h && c.x0 < x1 + line.h * 0.5 && c.x0 >= x0 - 3 * line.h);
        if (start < 0) continue;
        const run: Cell[] = [below.cells[start]!];
        for (let k = start + 1; k < below.cells.length; k++) {
          const c = below.cells[k]!;
          // "to" between two dates is part of a period, not the next label.
          const periodJoin = PERIOD_JOINER.test(c.text) && scanDate(run[run.length - 1]!.text) !== null;
          if (c.x0 - run[run.length - 1]!.x1 > runGap(below) || (labelField(c.text) && !periodJoin)) break;
          run.push(c);
        }
        if (labelField(run[0]!.text)) break;
        put(field, run.map((c) => c.text).join(" "));
        break;
      }
      ci += labelSpan - 1;
    }
  }
  // A title naming the period ("Statement for January 2024", "Statement of account from 01/01/2024 to 31/01/2024").
  if (!raw.has("period")) {
    for (const line of lines) {
      const m = PERIOD_TITLE.exec(line.text);
      if (m && scanPeriod(m[1]!)) {
        raw.set("period", m[1]!);
        break;
      }
    }
  }
  // A labelled name wins; then the letter's salutation ("Dear ADA OKAFOR"); then a capitalised name atop the address.
  const holderLabelled = raw.has("holder");
  const salutation = raw.get("salutation");
  if (!raw.has("holder") && salutation) raw.set("holder", salutation.replace(/,\s*$/, ""));
  if (!raw.has("holder")) {
    const name = unlabelledHolder(tableTop ? lines.filter((l) => l.page < tableTop.page || (l.page === tableTop.page && l.y < tableTop.y)) : lines);
    if (name) raw.set("holder", name);
  }
  return { ...interpret(raw), holderLabelled };
}

/** Words that make a capitalised line an institution, a title or an address rather than a person. */
const NOT_A_NAME = /\b(?:bank|plc|ltd|limited|microfinance|mfb|statement|account|group|member|street|road|avenue|close|crescent|estate|lagos|abuja|nigeria|branch|customer|transaction|history|report|period|page|currency|balance|date|summary|savings|current|wallet|mortgage|cooperative|trust|island|state|office|plaza|house|floor|tel|email|www|private|confidential|copy|original|duplicate|electronic|generated|computer|services|digital|financial|finance|payments?|solutions|technologies|holdings|company|enterprises?|ventures|international|africa|details|information|particulars|dear|sir|madam)\b/i;

/** Words of the supported banks' names ("FIRST CITY MONUMENT") are not a person's name. */
const BANK_WORDS: ReadonlySet<string> = new Set(
  BANK_PROFILES.flatMap((p) => p.name.toLowerCase().split(/\s+/)).filter((w) => w.length > 3 && !["bank", "nigeria"].includes(w)),
);

/**
 * Statements that print the holder's name without a label put it, in capitals, atop the address
 * block before the table. Two to five alphabetic words in capitals, not an institution or address.
 */
function unlabelledHolder(lines: Line[]): string | null {
  const firstPage = lines[0]?.page;
  for (const line of lines) {
    if (line.page !== firstPage) break;
    for (const cell of line.cells) {
      const t = cell.text.trim();
      if (cell.kind !== "text" || t !== t.toUpperCase() || labelField(t)) continue;
      const words = t.split(/\s+/);
      if (words.length < 2 || words.length > 5 || !words.every((w) => /^[A-Z][A-Z'.-]*$/.test(w))) continue;
      if (NOT_A_NAME.test(t) || words.some((w) => BANK_WORDS.has(w.toLowerCase()))) continue;
      return t;
    }
  }
  return null;
}

/** The second half of a label wrapped in a narrow box cell starts within this share of the glyph height of the first. */
const WRAP_EDGE = 0.6;
/** ... on a line at most this many glyph heights below. */
const WRAP_BELOW = 1.8;

/**
 * A label wrapped in its cell ("Statement" over "Period"): the field of the two halves joined,
 * when the second half is alone at the same left edge just below. Its value is the first half's.
 */
function wrappedLabel(lines: Line[], li: number, cell: Cell): Field | null {
  if (cell.kind !== "text" || cell.text.length > 25) return null;
  const line = lines[li]!;
  for (let lj = li + 1; lj < lines.length; lj++) {
    const below = lines[lj]!;
    if (below.page !== line.page || below.y - line.y > WRAP_BELOW * line.h) break;
    const tail = below.cells.find((c) => Math.abs(c.x0 - cell.x0) <= WRAP_EDGE * line.h);
    if (!tail) continue;
    return tail.kind === "text" ? labelField(`${cell.text} ${tail.text}`) : null;
  }
  return null;
}

/** The word between a period's two dates. */
const PERIOD_JOINER = /^(?:to|through|till|until|-|–)$/i;

/** A value that is itself a label or a title ("Account Type:", "Account Statement"): never a holder's name. */
const LABEL_LIKE = /:\s*$|^(?:account|acct|a\/c|customer|statement|address|branch|currency|bvn|phone|e-?mail|period|opening|closing|balance|date)\b/i;

/** A statement title that carries its period. */
const PERIOD_TITLE = /\bstatement(?:\s+of\s+accounts?)?\s+(?:for|from|covering)\s+(?:the\s+(?:month|period)\s+(?:of\s+)?)?(.{6,60})$/i;

/** Where a further "Label:" starts inside one run ("Account Name: ADA OKAFOR Account Number: 0123456789"). */
const NEXT_LABEL = /\s+(?=(?:(?:customer|account|acct|a\/c)\.?\s+(?:name|number|no\.?|type|holder|currency)|account|period|statement\s+period|opening\s+balance|closing\s+balance|total\s+(?:debits?|credits?|withdrawals?|lodgements?|deposits?)|currency|start\s+date|end\s+date|from|to|branch|address|phone(?:\s+number)?|e-?mail|bvn)\s*:)/i;

/** Cuts runs holding several "Label: value" pairs (an HTML cell with <br>s flattened) into one cell per pair. */
function splitLabelledRuns(line: Line): Line {
  if (!line.cells.some((c) => c.text.includes(":") && NEXT_LABEL.test(c.text))) return line;
  const cells: Cell[] = [];
  for (const c of line.cells) {
    const parts = c.text.split(NEXT_LABEL).filter((p) => p.trim() !== "");
    if (parts.length < 2) {
      cells.push(c);
      continue;
    }
    const per = (c.x1 - c.x0) / c.text.length;
    let at = 0;
    for (const p of parts) {
      const start = c.text.indexOf(p, at);
      cells.push({ text: p.trim(), x0: c.x0 + start * per, x1: c.x0 + (start + p.length) * per, kind: "text" });
      at = start + p.length;
    }
  }
  return { ...line, cells };
}

/** Text of cells ci.. joined while they are close together (one visual run). */
function joinFrom(cells: Cell[], ci: number, gap: number): string {
  let text = cells[ci]!.text;
  for (let k = ci + 1; k < cells.length; k++) {
    if (cells[k]!.x0 - cells[k - 1]!.x1 > gap) break;
    text += ` ${cells[k]!.text}`;
  }
  return text;
}

function acceptable(field: Field, value: string): boolean {
  switch (field) {
    case "accountNumber":
      return ACCOUNT_DIGITS.test(value);
    case "holder":
    case "salutation":
      if (/^(?:customer|sir|madam|sir\/madam|valued customer|client)\b/i.test(value)) return false;
      if (LABEL_LIKE.test(value) || labelField(value)) return false;
      return /[a-z]{2}/i.test(value) && !parseAmount(value) && !scanDate(value) && value.length <= 80 && !/\bstatement\b/i.test(value);
    case "opening":
    case "closing":
    case "totalDebit":
    case "totalCredit":
      return parseAmount(value) !== null || /^₦?\s*-{1,3}$/.test(value);
    case "debitCount":
    case "creditCount":
      return /^\d+$/.test(value);
    case "currency":
      return /^[A-Z]{3}\b/.test(value) || CURRENCY_NAMES.some(([re]) => re.test(value));
    case "period":
      return scanPeriod(value) !== null;
    case "periodStart":
    case "periodEnd":
      return scanDate(value) !== null || scanPeriod(value) !== null;
    default:
      return true;
  }
}

function interpret(raw: Map<Field, string>): Omit<HeaderFacts, "holderLabelled"> {
  const money = (f: Field) => {
    const v = raw.get(f);
    const a = v ? parseAmount(v) : null;
    if (!a) return null;
    return a.marker === "DR" && a.kobo > 0n ? -a.kobo : a.kobo;
  };
  const count = (f: Field) => {
    const v = raw.get(f);
    return v && /^\d+$/.test(v) ? Number(v) : null;
  };
  let period: [RawDate, RawDate] | null = raw.has("period") ? scanPeriod(raw.get("period")!) : null;
  if (!period) {
    const a = raw.has("periodStart") ? scanDate(raw.get("periodStart")!) : null;
    const b = raw.has("periodEnd") ? scanDate(raw.get("periodEnd")!) : null;
    if (a && b) period = [a, b];
  }
  return {
    accountNumber: ACCOUNT_DIGITS.exec(raw.get("accountNumber") ?? "")?.[0].replace(/\D/g, "") ?? null,
    holder: raw.get("holder") ?? null,
    period,
    opening: money("opening"),
    closing: money("closing"),
    totalDebit: money("totalDebit"),
    totalCredit: money("totalCredit"),
    debitCount: count("debitCount"),
    creditCount: count("creditCount"),
    currency: currencyCode(raw.get("currency")),
  };
}

/** Currencies printed by name instead of code. */
const CURRENCY_NAMES: [RegExp, string][] = [
  [/^naira\b/i, "NGN"],
  [/^(?:us\s*)?dollars?\b/i, "USD"],
  [/^(?:pounds?(?:\s+sterling)?|sterling)\b/i, "GBP"],
  [/^euros?\b/i, "EUR"],
];

function currencyCode(value: string | undefined): string | null {
  if (!value) return null;
  for (const [re, code] of CURRENCY_NAMES) if (re.test(value)) return code;
  return /^[A-Z]{3}\b/.test(value) ? value.slice(0, 3) : null;
}

/** `0123456789` -> `******6789`: only the last four digits survive. */
export function maskAccountNumber(digits: string | null): string {
  if (!digits || digits.length < 4) return "";
  return `${"*".repeat(Math.max(digits.length - 4, 6))}${digits.slice(-4)}`;
}

/** A function that replaces every whole-token occurrence of the account number in free text by its mask. */
export function accountScrubber(digits: string | null): (text: string) => string {
  if (!digits || digits.length < 6) return (text) => text;
  const re = new RegExp(`(?<!\\d)${digits}(?!\\d)`, "g");
  const mask = maskAccountNumber(digits);
  return (text) => (text.includes(digits) ? text.replace(re, mask) : text);
}
