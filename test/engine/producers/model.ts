/**
 * The data model of the producer corpus: statements rendered by real-world tools (Chromium,
 * wkhtmltopdf, LibreOffice, groff) rather than by our own pdf-lib/exceljs writers. Each document's
 * expected parse is computed from this model, never from the engine. Pure: no tools needed here,
 * so the test can check the committed expected.json files against it.
 */

export type Producer = "chromium" | "wkhtmltopdf" | "libreoffice-writer" | "libreoffice-calc-pdf" | "libreoffice-xlsx" | "libreoffice-csv-xlsx" | "groff";

/** Columns a statement may print, in the order given by the spec. */
export type ColumnKind = "date" | "valueDate" | "narration" | "reference" | "debit" | "credit" | "signed" | "amount" | "drcr" | "balance";

export type DateStyle = "dd/mm/yyyy" | "dd-Mon-yyyy" | "dd Mon yyyy" | "yyyy-mm-dd" | "Mon d, yyyy" | "dd.mm.yyyy" | "dd-MON-yy" | "d Month yyyy";

export interface DocSpec {
  name: string;
  producer: Producer;
  /** What the generator writes before the tool converts it. */
  file: "statement.pdf" | "statement.xlsx";
  seed: number;
  rows: number;
  /** Month of the statement, 1-12 of 2024. */
  month: number;
  columns: ColumnKind[];
  headings: Partial<Record<ColumnKind, string>>;
  dateStyle: DateStyle;
  /** Print a time after the date (kept in the expected date). */
  time?: boolean;
  newestFirst?: boolean;
  /** Currency sign in front of every figure. */
  sign?: "₦" | "NGN " | "N";
  font: string;
  /** CSS the HTML producers add (zebra rows, borders, justification, letter spacing). */
  css?: string;
  /** Label phrasing of the header block. */
  labels: { holder: string; number: string; period: string; opening: string; closing: string };
  /** How the period is printed: "range" (`A to B`), "fromTo" (`From A To B`). */
  periodForm: "to" | "dash" | "fromTo";
  /** Header block: label/value table, or "Label: value" lines. */
  block: "table" | "lines" | "twoColumn" | "stacked" | "after" | "letter";
  /** The empty side prints "0.00" instead of nothing. */
  zeroEmpty?: boolean;
  /** The DR/CR column spells the side out ("Debit" / "Credit"). */
  drcrWords?: boolean;
  /** A totals row after the last transaction. */
  totalsRow?: boolean;
  /** An undated Balance B/F row before the first transaction. */
  bfRow?: boolean;
  /** Long narrations that wrap in a narrow column. */
  longNarrations?: boolean;
  /** Vertical alignment of cells in wrapped rows. */
  valign?: "top" | "middle" | "bottom";
  /** Landscape pages. */
  landscape?: boolean;
  /** Vertical alignment of the date cell alone (amounts above their date when "bottom"). */
  dateValign?: "top" | "middle" | "bottom";
  /** Debits in the signed column as "(1,234.56)" instead of "-1,234.56". */
  parens?: boolean;
  /** The amount column carries its side as a suffix ("1,234.56 DR"), no DR/CR column. */
  suffix?: boolean;
  /** Rows may break across pages (no page-break-inside: avoid). */
  splitRows?: boolean;
  /** The date cell is narrow enough to wrap ("03 Jan" over "2024"); with a time, the time goes under the date. */
  narrowDate?: boolean;
  bankName: string;
}

export interface Txn {
  /** Day of the month; hour/minute/second when the statement prints a time. */
  day: number;
  hour: number;
  minute: number;
  second: number;
  narration: string;
  reference: string;
  /** Kobo; exactly one of debit/credit is positive. */
  debit: number;
  credit: number;
  balance: number;
}

export interface Statement {
  spec: DocSpec;
  holder: string;
  accountNumber: string;
  opening: number;
  closing: number;
  txns: Txn[];
  year: number;
  lastDay: number;
}

/** mulberry32: small, seeded, deterministic. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ["ADEBAYO", "CHIOMA", "IBRAHIM", "NGOZI", "OLUWASEUN", "FATIMA", "EMEKA", "AISHA", "TUNDE", "BLESSING"];
const LAST = ["OKAFOR", "BELLO", "ADEYEMI", "EZE", "MUSA", "NWOSU", "OGUNDIPE", "ABUBAKAR", "OKORO", "LAWAL"];
const SHORT = [
  "POS PURCHASE SHOPRITE LEKKI",
  "AIRTIME MTN 08031234567",
  "SMS ALERT CHARGES",
  "ATM WITHDRAWAL IKEJA",
  "DSTV SUBSCRIPTION",
  "SALARY PAYMENT",
  "TRANSFER FROM MUSA ALIYU",
  "IKEDC PREPAID TOKEN",
  "COT CHARGES",
  "WEB PURCHASE JUMIA",
];
const LONG = [
  "NIP TRANSFER TO OKONKWO CHINEDU PAUL FOR HOUSE RENT PART PAYMENT JANUARY",
  "INWARD TRANSFER FROM HALIMA YUSUF VIA MOBILE APP REF SCHOOL FEES SECOND TERM",
  "POS PURCHASE AT SPAR ADMIRALTY WAY LEKKI PHASE ONE LAGOS TERMINAL 2058ABCD",
  "ELECTRONIC MONEY TRANSFER LEVY ON TRANSFER RECEIVED FROM AMINU GARBA",
  "STANDING ORDER PAYMENT TO COOPERATIVE SOCIETY MONTHLY CONTRIBUTION",
  "BILL PAYMENT WATER CORPORATION CUSTOMER 40021187 JANUARY BILL",
];

const DEBIT_SHORT = new Set([0, 1, 2, 3, 4, 7, 8, 9]);

export function makeStatement(spec: DocSpec): Statement {
  const r = rng(spec.seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const holder = `${pick(LAST)} ${pick(FIRST)} ${pick(FIRST)}`;
  const accountNumber = String(2000000000 + Math.floor(r() * 999999999));
  const year = 2024;
  const lastDay = new Date(Date.UTC(year, spec.month, 0)).getUTCDate();
  const opening = 5_000_000 + Math.floor(r() * 50_000_000);
  const days = Array.from({ length: spec.rows }, () => 1 + Math.floor(r() * lastDay)).sort((a, b) => a - b);
  let balance = opening;
  let lastSecond = -1;
  let lastDayUsed = 0;
  const txns: Txn[] = days.map((day, i) => {
    let narration: string;
    let isDebit: boolean;
    if (spec.longNarrations && r() < 0.5) {
      const k = Math.floor(r() * LONG.length);
      narration = LONG[k]!;
      isDebit = k !== 1;
    } else {
      const k = Math.floor(r() * SHORT.length);
      narration = SHORT[k]!;
      isDebit = DEBIT_SHORT.has(k);
    }
    // Keep the account solvent so the chain stays positive; salaries are large.
    let amount = isDebit ? 10_000 + Math.floor(r() * 4_000_000) : 50_000 + Math.floor(r() * 9_000_000);
    if (i % 7 === 3) amount = Math.round(amount / 100) * 100;
    if (isDebit && amount > balance) isDebit = false;
    balance += isDebit ? -amount : amount;
    // Times increase within a day so the printed order is the only order.
    if (day !== lastDayUsed) lastSecond = 8 * 3600 + Math.floor(r() * 3600);
    lastSecond += 60 + Math.floor(r() * 1800);
    lastDayUsed = day;
    const sec = spec.time ? lastSecond : 0;
    return {
      day,
      hour: Math.floor(sec / 3600),
      minute: Math.floor((sec % 3600) / 60),
      second: sec % 60,
      narration,
      reference: `FT${String(year).slice(2)}${String(spec.month).padStart(2, "0")}${String(day).padStart(2, "0")}${String(1000 + i * 37).slice(-4)}`,
      debit: isDebit ? amount : 0,
      credit: isDebit ? 0 : amount,
      balance,
    };
  });
  return { spec, holder, accountNumber, opening, closing: balance, txns, year, lastDay };
}

// ---------- printing (shared by the generator and the expectations) ----------

const MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const p2 = (n: number) => String(n).padStart(2, "0");

export function printDate(style: DateStyle, y: number, m: number, d: number): string {
  switch (style) {
    case "dd/mm/yyyy":
      return `${p2(d)}/${p2(m)}/${y}`;
    case "dd-Mon-yyyy":
      return `${p2(d)}-${MON[m - 1]}-${y}`;
    case "dd Mon yyyy":
      return `${p2(d)} ${MON[m - 1]} ${y}`;
    case "yyyy-mm-dd":
      return `${y}-${p2(m)}-${p2(d)}`;
    case "Mon d, yyyy":
      return `${MON[m - 1]} ${d}, ${y}`;
    case "dd.mm.yyyy":
      return `${p2(d)}.${p2(m)}.${y}`;
    case "dd-MON-yy":
      return `${p2(d)}-${MON[m - 1]!.toUpperCase()}-${String(y).slice(2)}`;
    case "d Month yyyy":
      return `${d} ${MONTH[m - 1]} ${y}`;
  }
}

export function printTime(t: Txn): string {
  return `${p2(t.hour)}:${p2(t.minute)}:${p2(t.second)}`;
}

/** 1234567 kobo -> "12,345.67" with the spec's sign. */
export function printMoney(kobo: number, sign = ""): string {
  const neg = kobo < 0;
  const abs = Math.abs(kobo);
  const naira = Math.floor(abs / 100).toLocaleString("en-US");
  return `${neg ? "-" : ""}${sign}${naira}.${p2(abs % 100)}`;
}

export function plain(kobo: number): string {
  const abs = Math.abs(kobo);
  return `${kobo < 0 ? "-" : ""}${Math.floor(abs / 100)}.${p2(abs % 100)}`;
}

export function printPeriod(s: Statement): string {
  const a = printDate(s.spec.dateStyle, s.year, s.spec.month, 1);
  const b = printDate(s.spec.dateStyle, s.year, s.spec.month, s.lastDay);
  if (s.spec.periodForm === "fromTo") return `From ${a} To ${b}`;
  return s.spec.periodForm === "to" ? `${a} to ${b}` : `${a} - ${b}`;
}

// ---------- expectations ----------

export interface ExpectedTxn {
  date: string;
  narration: string;
  debit: string;
  credit: string;
  balance: string;
  reference: string;
  currency: string;
}

export interface Expected {
  format_version: string;
  metadata: {
    bank: string;
    account_holder: string;
    account_number_masked: string;
    statement_period_start: string;
    statement_period_end: string;
    opening_balance: string;
    closing_balance: string;
  };
  totals: { credit: string; debit: string };
  row_wise_reconcilable: boolean;
  transactions: ExpectedTxn[];
}

const isoDay = (y: number, m: number, d: number, t?: Txn) => `${y}-${p2(m)}-${p2(d)}T${t ? printTime(t) : "00:00:00"}+01:00`;

export function expectedOf(s: Statement): Expected {
  const hasRef = s.spec.columns.includes("reference");
  return {
    format_version: "1.0",
    metadata: {
      bank: "unknown",
      account_holder: s.holder,
      account_number_masked: `******${s.accountNumber.slice(-4)}`,
      statement_period_start: isoDay(s.year, s.spec.month, 1),
      statement_period_end: isoDay(s.year, s.spec.month, s.lastDay),
      opening_balance: plain(s.opening),
      closing_balance: plain(s.closing),
    },
    totals: { credit: plain(s.txns.reduce((a, t) => a + t.credit, 0)), debit: plain(s.txns.reduce((a, t) => a + t.debit, 0)) },
    row_wise_reconcilable: true,
    transactions: s.txns.map((t) => ({
      date: isoDay(s.year, s.spec.month, t.day, s.spec.time ? t : undefined),
      narration: t.narration,
      debit: plain(t.debit),
      credit: plain(t.credit),
      balance: plain(t.balance),
      reference: hasRef ? t.reference : "",
      currency: "NGN",
    })),
  };
}

export const expectedJson = (e: Expected) => `${JSON.stringify(e, null, 2)}\n`;
