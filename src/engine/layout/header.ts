import { isRuleLine, type Line, withCells } from "./lines.ts";
import type { Cell } from "./cells.ts";
import { advanceOffsets } from "./advance.ts";
import { cutRun, wordStartXs } from "./run-words.ts";

/** What a column holds. `other` columns are read but not used (channel, branch, ...). */
export type ColumnRole =
  | "date"
  | "time"
  | "value_date"
  | "narration"
  | "debit"
  | "credit"
  | "amount"
  | "drcr"
  | "balance"
  | "balance_before"
  | "reference"
  | "currency"
  | "extra_amount"
  | "status"
  | "other";

/** Columns of a day or a time of day. */
export const DATE_ROLES: ReadonlySet<ColumnRole> = new Set(["date", "value_date", "time"]);
/** Columns of a row's words, which a narration's figures and dates may stand in. */
export const WORD_ROLES: ReadonlySet<ColumnRole> = new Set(["narration", "reference"]);
/** Columns a row's text wraps in: its words', and a column of unknown heading. */
export const TEXT_ROLES: ReadonlySet<ColumnRole> = new Set(["narration", "reference", "other"]);

export interface Column {
  role: ColumnRole;
  label: string;
  x0: number;
  x1: number;
  /**
   * A run that reads as one money heading but also as two or more ("Amount(₦) Closing Balance",
   * "Deposits Running Balance"): the headings it would be, kept for the body to decide (two
   * columns of figures under it make it two columns, layout/columns.ts splitMergedHeadings).
   */
  merged?: Column[];
}

export interface Header {
  columns: Column[];
  /** Lines (1 or 2) the header occupies. */
  lineCount: number;
}

/** Normalises a header label: lower case, currency marks and punctuation to spaces. */
export function normaliseLabel(text: string): string {
  return text
    .toLowerCase()
    .replace(/₦|\(ngn\)|\bngn\b|\(n\)/g, " ")
    .replace(/[^a-z/ ]+/g, " ")
    .replace(/\s*\/\s*/g, "/")
    .replace(/\s+/g, " ")
    .trim();
}

/** A currency sign or code in a heading: the column holds money. */
const CURRENCY_MARK = /₦|\bNGN\b|\(N\)/i;

/** Ordered: the first rule that matches a label decides its role. */
const VOCABULARY: [ColumnRole, RegExp][] = [
  ["drcr", /^(?:dr\/cr|cr\/dr|d\/c|c\/d|dr cr|debit\/credit|type|txn type|trans type|transaction type|indicator|sign)$/],
  // "Balance Before" beside "Balance After": each row then checks on its own (issue 13).
  ["balance_before", /^(?:bal(?:ance)? before|before bal(?:ance)?|prev(?:ious)? bal(?:ance)?)$/],
  // Wider wording of wide app exports ("Pre-Balance", "Initial Balance"); "Balance After" and
  // "Post Balance" are the row's `balance`, the chain's running balance.
  ["balance_before", /^(?:(?:available|ledger|book) bal(?:ance)? before|old bal(?:ance)?|pre ?bal(?:ance)?|initial bal(?:ance)?|bal(?:ance)? b\/f)$/],
  ["balance", /\bbal(?:ance)?\b|^running bal|^closing bal|^book bal|^available bal|^ledger bal/],
  ["value_date", /^value ?(?:date|dt)$|^val(?:ue)? date$|^effective date$/],
  ["debit", /^(?:debits?|withdrawals?|money out|payments?|dr|paid out|outflows?|debit amount|withdrawal dr|debit dr|amount out|outward|outgoing|charges and debits|out|sent|spent)(?: dr| amount)?$/],
  ["credit", /^(?:credits?|deposits?|lodgements?|lodgments?|money in|cr|paid in|inflows?|receipts?|credit amount|deposit cr|credit cr|amount in|inward|incoming|in|received)(?: cr| amount)?$/],
  // "Amount (DR)" / "Amount (CR)": one amount heading per side, its side named after it.
  ["debit", /^(?:amount|amt|transaction amount|txn amount) (?:dr|debit|debited|out|withdrawn|paid)$/],
  ["credit", /^(?:amount|amt|transaction amount|txn amount) (?:cr|credit|credited|in|deposited|lodged|received)$/],
  // Charges and fees printed beside the movement (wide app exports): amounts, never the movement.
  ["extra_amount", /^(?:charges?|fees?|commission|vat|stamp duty|levy|tax|charge amount|fee amount|settlement amount|gross amount|net amount)$/],
  ["amount", /^(?:amount|amt|transaction amount|txn amount|trans amount|amount ngn|value)$/],
  ["time", /^(?:time|trans(?:action)? time only)$/],
  ["date", /^(?:(?:trans(?:action)?|txn|tran|posting|post|posted|book(?:ing)?|entry|created|actual)\.? ?)?(?:date|dt|time|date ?time|date\/time|date and time|time ?stamp)$|^date posted$|^(?:posted|booked|created|completed|initiated) (?:on|at)$/],
  ["narration", /^(?:(?:transaction|trans|txn) )?(?:description|narration|narrative|details?|remarks?|particulars|memo|descr|transaction details?|purpose)$/],
  ["reference", /^(?:(?:transaction|trans|txn|tran|session|payment) )?(?:ref(?:erence)?(?: (?:no|number|id))?|id|cheque(?: no| number)?|chq(?: no)?|doc(?:ument)? no|instrument(?: no)?|check no|receipt no)$|^ref no$|^rrn$/],
  ["currency", /^(?:currency|ccy|curr)$/],
  // Whether the transaction went through (app histories list failed attempts too).
  ["status", /^(?:(?:transaction|trans|txn|payment) )?status$/],
  ["other", /^(?:channel|medium|branch|sn|s\/n|no|serial|category|type of transaction|beneficiary|counterparty|time|teller|initiator)$/],
];

/** Tried when no exact label matches: a role word anywhere in a short label ("Amount Withdrawn", "Details of Transaction"). */
const LENIENT: [ColumnRole, RegExp][] = [
  ["value_date", /\bvalue\b.*\bdate\b/],
  ["debit", /\b(?:debits?|debited|withdrawals?|withdrawn|money out|paid out)\b/],
  ["credit", /\b(?:credits?|credited|deposits?|deposited|lodge?ments?|money in|paid in)\b/],
  ["narration", /\b(?:descriptions?|narrations?|narratives?|details?|particulars|remarks?|memo)\b/],
  ["reference", /\b(?:ref(?:erence)?|cheque|chq|instrument)\b/],
  ["date", /\bdate\b/],
  ["amount", /\bamount\b/],
];

/** Role of a header label; `strict` only accepts whole-label vocabulary (used to split runs of several labels). */
export function labelRole(text: string, strict = false): ColumnRole | null {
  const n = normaliseLabel(text);
  if (n === "" || n.split(" ").length > 5) return null;
  const role = roleOf(n, strict);
  // "Debit/Credit(₦)", "DR/CR Amount": a side heading that names a currency or an amount heads
  // one column of signed amounts, not a column of DR/CR markers.
  if (role === "drcr" && CURRENCY_MARK.test(text)) return "amount";
  if (role || !n.includes("/")) return role;
  // "Description/Narration", "Ref/Cheque No": the first alternative that names a role. Every
  // alternative must name one: `Channel Dr/Cr` is two headings printed as one run, not one.
  // An alternative is a short name (`Cheque No`); a longer one is headings run together after a
  // slash inside one of them (`Dr/Cr Ledger Balance Remarks`).
  const parts = n.split("/").map((part) => part.trim());
  if (parts.some((part) => part.split(" ").length > MAX_ALTERNATIVE_WORDS)) return null;
  const roles = parts.map((part) => roleOf(part, strict));
  // Whole-label reading (splitting runs): two names of one column agree on its role (a value
  // date and a date are one kind: `Value Date/Trans Date`); `DR/CR Amount` is a marker heading
  // and an amount heading printed as one run.
  const family = (r: ColumnRole | null) => (r === "value_date" ? "date" : r);
  if (strict && roles.some((r) => family(r) !== family(roles[0]!))) return null;
  return roles.every((r) => r !== null) ? roles[0]! : null;
}

/** Words one alternative of a slashed label may have (`Ref/Cheque Number`, `Narration/Transaction Details`). */
const MAX_ALTERNATIVE_WORDS = 2;

function roleOf(n: string, strict: boolean): ColumnRole | null {
  for (const [role, re] of VOCABULARY) {
    if (!re.test(n)) continue;
    return role === "balance" && strict && balanceBesideTextHeading(n.split(" ")) ? null : role;
  }
  if (strict || n.split(" ").length > 4) return null;
  for (const [role, re] of LENIENT) if (re.test(n)) return role;
  return null;
}

const MONEY_ROLES = new Set<ColumnRole>(["debit", "credit", "amount", "balance", "balance_before"]);
/** The balance word of a normalised label (`bal`, `balance`). */
const BALANCE_WORD = /^bal(?:ance)?$/;
/** Headings that may stand beside a balance heading in one run of words: text columns' and dates'. */
const BESIDE_BALANCE = new Set<ColumnRole>(["narration", "reference", "date", "value_date", "status", "currency", "other"]);

/**
 * The balance pattern finds `balance` anywhere in a label, so a balance heading run together with
 * a text heading one space away (a fixed-width report's `Transaction Description Available
 * Balance`, `Ledger Balance Remarks`) read as one balance heading. Whole words (normalised) before
 * or after the balance word that are a heading of their own, a text column's or a date's, make
 * the run two headings, and so does a DR/CR heading before it (`Dr/Cr Ledger Balance`); after it
 * (`Balance DR/CR`) it may name the balance's own marker. A money word beside it (`Balance
 * Amount`, `Debit Balance`) keeps the one label here: runs of money headings are split by the
 * figures under them (mergedMoneyHeadings).
 */
function balanceBesideTextHeading(words: string[]): boolean {
  const at = words.findIndex((w) => BALANCE_WORD.test(w));
  if (at < 0 || words.length < 2) return false;
  let beside = false;
  for (const [side, before] of [[words.slice(0, at), true], [words.slice(at + 1), false]] as const) {
    for (let i = 0; i < side.length; i++) {
      for (let j = i + 1; j <= side.length; j++) {
        const role = roleOf(side.slice(i, j).join(" "), true);
        if (role && MONEY_ROLES.has(role)) return false;
        if (role && (BESIDE_BALANCE.has(role) || (before && role === "drcr"))) beside = true;
      }
    }
  }
  return beside;
}
const MOVEMENT_ROLES = new Set<ColumnRole>(["debit", "credit", "amount"]);

/** A header must name at least this many columns, one of them a date and one an amount. */
const MIN_HEADER_COLUMNS = 3;

/** Columns of a single header line, or null when the line is not a table header. */
/** Header lines hold words only: a date, amount, time or number on the line rules it out. */
const dataLike = (line: Line) => line.cells.some((c) => c.kind !== "text" && c.kind !== "drcr" && c.kind !== "empty");

export function headerColumns(line: Line): Column[] | null {
  const columns: Column[] = [];
  const cells = line.cells;
  if (cells.length < MIN_HEADER_COLUMNS - 1 || dataLike(line)) return null;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    if (cell.kind === "money" || cell.kind === "integer" || cell.kind === "date") return null;
    const role = labelRole(cell.text);
    // A run holding several labels ("DATE POSTED VALUE DATE"): split it word by word when every
    // word belongs to some exact label; otherwise read the run as one label.
    const strict = labelRole(cell.text, true);
    const split = strict ? null : splitLabels(cell.text, cell.x0, cell.x1, !line.fixedWidth);
    // A label of the split may itself be money headings run together (`Category DR/CR
    // Transaction Amount Closing Balance`), read as the whole run's would be.
    if (split && split.length > 1) columns.push(...split.map((c) => ({ ...c, ...mergedMoneyHeadings({ ...cell, text: c.label, x0: c.x0, x1: c.x1 }, labelRole(c.label, true), !line.fixedWidth) })));
    else if (role) columns.push({ role, label: cell.text, x0: cell.x0, x1: cell.x1, ...mergedMoneyHeadings(cell, strict, !line.fixedWidth) });
    else columns.push({ role: "other", label: cell.text, x0: cell.x0, x1: cell.x1 });
  }
  return isHeader(columns) ? adoptNarration(dedupeRoles(dedupeDates(columns))) : null;
}

/**
 * A table without a recognised narration heading ("Transaction", "Beneficiary / Purpose") whose
 * one unrecognised heading names a text column: that column is the narration.
 */
function adoptNarration(columns: Column[]): Column[] {
  if (columns.some((c) => c.role === "narration")) return columns;
  const unknown = columns.filter((c) => c.role === "other" && labelRole(c.label) === null);
  if (unknown.length !== 1) return columns;
  return columns.map((c) => (c === unknown[0] ? { ...c, role: "narration" as const } : c));
}

/** Roles that name one value per row; a second column of the same role is read but not used. */
const ONE_PER_ROW: ReadonlySet<ColumnRole> = new Set(["debit", "credit", "amount", "balance", "balance_before", "drcr", "currency", "time"]);

/**
 * Keeps one column per single-valued role. With two balances (ledger and available), the one that
 * is not the available/uncleared figure is the chain's.
 */
function dedupeRoles(columns: Column[]): Column[] {
  const seen = new Map<ColumnRole, number>();
  const out = columns.map((c) => ({ ...c }));
  // Several reference-like columns (Reference and Chq. No): the one named a reference is the
  // transaction's reference; cheque and document numbers are read but not used.
  const refs = out.filter((c) => c.role === "reference");
  if (refs.length > 1) {
    const keep = refs.find((c) => /\bref|transaction id|session/i.test(c.label)) ?? refs[0]!;
    for (const c of refs) if (c !== keep) c.role = "other";
  }
  out.forEach((c, i) => {
    if (!ONE_PER_ROW.has(c.role)) return;
    const first = seen.get(c.role);
    if (first === undefined) {
      seen.set(c.role, i);
      return;
    }
    const secondary = /availab|uncleared|cleared|effective/i;
    const demoted = MONEY_ROLES.has(c.role) ? "extra_amount" : "other";
    if (c.role === "balance" && secondary.test(out[first]!.label) && !secondary.test(c.label)) {
      out[first]!.role = demoted;
      seen.set(c.role, i);
    } else c.role = demoted;
  });
  return out;
}

function isHeader(runs: Column[]): boolean {
  // A run of headings read as one (`Amount(₦) Running Balance Details`) counts as the headings it holds.
  const columns = runs.flatMap((c) => c.merged ?? [c]);
  const known = columns.filter((c) => c.role !== "other" || labelRole(c.label) === "other");
  // A time column alone keys a table whose days head their rows (layout/day-headings.ts).
  const hasDate = columns.some((c) => c.role === "date" || c.role === "value_date" || c.role === "time");
  const hasMoney = columns.some((c) => MONEY_ROLES.has(c.role));
  const unknown = columns.length - known.length;
  // A summary box's labels ("Opening Balance | Closing Balance | Date Printed | Start Date") name
  // dates and a balance too, but no movement and no description: a table of rows has one of them.
  const rowsOfMovements = columns.some((c) => MOVEMENT_ROLES.has(c.role) || c.role === "narration" || (c.role === "other" && labelRole(c.label) === null));
  return hasDate && hasMoney && rowsOfMovements && known.length >= MIN_HEADER_COLUMNS && unknown <= known.length;
}

/** A heading that names a time (`Trans. Time`, `Transaction Date Time`). */
export const TIME_LABEL = /\btime\b/i;

/** The first date column is the row date; later plain "date" columns are value dates. */
function dedupeDates(columns: Column[]): Column[] {
  let seenDate = false;
  const hasTransDate = columns.some((c) => c.role === "date");
  let timed = columns.some((c) => c.role === "time");
  return columns.map((c) => {
    if (c.role === "date") {
      // A second date heading that names a time only ("Trans. Time" after "Trans. Date") heads the rows' times.
      if (seenDate && !timed && TIME_LABEL.test(c.label) && !/\bdate\b/i.test(c.label)) {
        timed = true;
        return { ...c, role: "time" };
      }
      if (seenDate) return { ...c, role: "value_date" };
      seenDate = true;
    }
    // Only a value date: it is the row date.
    if (!hasTransDate && c.role === "value_date" && !seenDate) {
      seenDate = true;
      return { ...c, role: "date" };
    }
    return c;
  });
}

/** Words one run of header labels may hold. */
const MAX_RUN_LABELS = 12;

/** A word longer than this is not two headings printed together. */
const MAX_JOINED_WORD = 40;

/**
 * Words of a header run with their character offsets, a currency mark standing alone joined to
 * the word before it. A word that names no role but is two labels printed with no gap
 * ("WithdrawalsLodgements", "DEBITCREDIT") is cut where both halves are labels.
 */
function labelWords(text: string): { w: string; at: number }[] {
  const out: { w: string; at: number }[] = [];
  const re = /\S+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const w = m[0];
    const prev = out[out.length - 1];
    // A currency mark of its own ("Balance (NGN)", "Amount ₦") belongs to the label before it.
    if (prev && normaliseLabel(w) === "") {
      prev.w = text.slice(prev.at, m.index + w.length);
      continue;
    }
    const cut = w.length <= MAX_JOINED_WORD && !labelRole(w, true) ? joinedLabelCut(w) : -1;
    // A heading that ends in its currency's parenthesis ends there: a letter right after it starts
    // the next heading's first word (`Amount(₦)Running Balance`, a font without the naira sign
    // printing it as a missing glyph).
    const close = cut > 0 ? -1 : closedLabelEnd(w);
    if (close > 0) out.push({ w: w.slice(0, close), at: m.index }, { w: w.slice(close), at: m.index + close });
    else if (cut > 0) out.push({ w: w.slice(0, cut), at: m.index }, { w: w.slice(cut), at: m.index + cut });
    else out.push({ w, at: m.index });
  }
  return out;
}

/** Where a word splits after a heading closed by a parenthesis (`Amount(₦)` + `Running`), or -1. */
function closedLabelEnd(w: string): number {
  const at = w.search(/\)\p{L}/u);
  return at > 0 && w.length <= MAX_JOINED_WORD && labelRole(w.slice(0, at + 1), true) ? at + 1 : -1;
}

/** Where a word splits into two labels (a case change preferred), or -1. */
function joinedLabelCut(w: string): number {
  let found = -1;
  for (let k = 2; k <= w.length - 2; k++) {
    if (!labelRole(w.slice(0, k), true) || !labelRole(w.slice(k), true)) continue;
    if (/[a-z)]/.test(w[k - 1]!) && /[A-Z(]/.test(w[k]!)) return k;
    if (found < 0) found = k;
  }
  return found;
}

/**
 * A run read as one money heading that is also two or more money headings of different roles, no
 * label taking the whole run, perhaps with other headings run into it (`Outflow Running Balance
 * Particulars`, `MediumAmount(₦) Balance`: headings in tight columns): `{ merged }` with them, else
 * nothing.
 */
function mergedMoneyHeadings(cell: Cell, strict: ColumnRole | null, proportional: boolean): Pick<Column, "merged"> {
  if (!strict || !MONEY_ROLES.has(strict)) return {};
  // The finest reading: labels of one word if they all are, else of up to two, and so on.
  const words = labelWords(cell.text).length;
  let parts: Column[] | null = null;
  for (let longest = 1; longest < words && !parts; longest++) parts = splitLabels(cell.text, cell.x0, cell.x1, proportional, longest);
  if (!parts || new Set(parts.map((p) => p.role)).size < parts.length) return {};
  const money = parts.filter((p) => MONEY_ROLES.has(p.role));
  if (money.length < 2) return {};
  return { merged: parts };
}

/**
 * Greedy longest-label split of a run of words (labels of at most `longest` words), with x
 * extents estimated from the characters as tokensOf estimates them: their likely widths in a
 * proportional font, evenly in a fixed-width one.
 */
function splitLabels(text: string, x0: number, x1: number, proportional: boolean, longest = 4): Column[] | null {
  // A run of more words than a header has labels is text, not headings (checked before any cut).
  if (text.split(/\s+/).length > MAX_RUN_LABELS) return null;
  const pieces = labelWords(text);
  if (pieces.length < 2 || pieces.length > MAX_RUN_LABELS) return null;
  // Character offsets, worked out only once a label is found: most runs tried are no headings.
  let offsets: Float64Array | undefined;
  let per: number | undefined;
  const at = (k: number) => {
    if (per === undefined) {
      offsets = proportional ? advanceOffsets(text) : undefined;
      per = (x1 - x0) / ((offsets ? offsets[text.length] : text.length) || 1);
    }
    return x0 + (offsets ? offsets[k]! : k) * per;
  };
  const words = pieces.map((p) => p.w);
  // The reading with the fewest labels (the longest label first among equals), a balance label
  // holding words that do not qualify a balance counting half a label more (see `balanceTail`).
  // Worked out from the first word on, only at words a label ends before: a run of prose fails
  // at its first word, as most runs tried do.
  const best = new Float64Array(words.length + 1).fill(NaN);
  const take = new Int32Array(words.length);
  const roles: (ColumnRole | null)[] = [];
  best[words.length] = 0;
  const cost = (i: number): number => {
    if (!Number.isNaN(best[i]!)) return best[i]!;
    best[i] = Infinity;
    for (let n = Math.min(longest, words.length - i); n >= 1; n--) {
      const label = words.slice(i, i + n).join(" ");
      const role = labelRole(label, true);
      if (!role) continue;
      const total = 1 + (role === "balance" ? balanceTail(label) : 0) + cost(i + n);
      if (total < best[i]!) {
        best[i] = total;
        take[i] = n;
        roles[i] = role;
      }
    }
    return best[i]!;
  };
  if (cost(0) === Infinity) return null;
  const out: Column[] = [];
  for (let i = 0; i < words.length; i += take[i]!) {
    const n = take[i]!;
    const e = pieces[i + n - 1]!.at + words[i + n - 1]!.length;
    out.push({ role: roles[i]!, label: words.slice(i, i + n).join(" "), x0: at(pieces[i]!.at), x1: at(e) });
  }
  return out;
}

/** Words that may follow `balance` in one balance heading (`Balance After`, `Balance B/F`, `Bal. Amount`). */
const BALANCE_TAIL = /^(?:after|before|amount|amt|cr|dr|dr\/cr|cr\/dr|b\/f|c\/f|bf|cf|brought|carried|forward|due)$/;

/**
 * Half a label for each word after the balance word that does not qualify a balance: the balance
 * pattern matches `balance` anywhere, so `Ledger Balance Transaction` reads as one label, and
 * `Ledger Balance` + `Transaction Description` must read better than it + `Description`.
 */
function balanceTail(label: string): number {
  const words = normaliseLabel(label).split(" ");
  const at = words.findIndex((w) => BALANCE_WORD.test(w));
  return at < 0 ? 0 : words.slice(at + 1).filter((w) => !BALANCE_TAIL.test(w)).length / 2;
}

/** Lines closer than this many glyph heights may form a two-line header. */
const TWO_LINE_HEADER_GAP = 1.9;
/**
 * Or this many, when every word of one line lies under (or over) a heading of the other, as a
 * heading's lines stack whether its cells are top- or bottom-aligned: ReportLab's table cells
 * keep a 12-point leading whatever their font size, so a 6-point header's second line stands two
 * glyph heights below its first.
 */
const SPACED_HEADER_GAP = 2.2;

/** Two cells share some of their width (one prints over the other). */
const overlapAcross = (a: Cell, b: Cell): boolean => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0;

/** Every cell of `line` lies over or under a cell of `other`. */
const stacksOn = (line: Line, other: Line): boolean => line.cells.every((c) => other.cells.some((u) => overlapAcross(u, c)));

/**
 * Finds a header at line i: the line alone, or the line merged with the next one when labels are
 * split over two lines ("Withdrawal" over "(DR)", "Value" over "Date"). Returns the better reading.
 */
export function headerAt(lines: Line[], i: number): Header | null {
  const line = lines[i]!;
  if (dataLike(line)) return null;
  // The section split and then the table scan look for a header on every line of the same lines
  // (the scan's are slices of the split's): the answer depends on this line and the next
  // HEADER_WINDOW only, and no stage changes a line in place, so it is kept per line.
  const known = headerMemo.get(line);
  if (known && known.following.every((l, k) => l === lines[i + 1 + k]) && known.following.length === Math.min(HEADER_WINDOW, lines.length - i - 1)) return known.header;
  const header = findHeaderAt(lines, i);
  headerMemo.set(line, { following: lines.slice(i + 1, i + 1 + HEADER_WINDOW), header });
  return header;
}

/** headerAt's answers by line, with the lines that followed it then (callers only read a Header). */
const headerMemo = new WeakMap<Line, { following: Line[]; header: Header | null }>();

function findHeaderAt(lines: Line[], i: number): Header | null {
  const line = lines[i]!;
  const single = headerColumns(line);
  let best: Header | null = single ? { columns: single, lineCount: 1 } : null;
  // Up to three lines: a one-line label vertically centred between two-line ones ("Posting" /
  // "Narration" / "Date") prints on a baseline of its own between theirs.
  if (holdsValues(line)) return best;
  let stacked = line;
  for (let n = 2; n <= MAX_HEADER_LINES; n++) {
    const next = lines[i + n - 1];
    if (!next || dataLike(next) || holdsValues(next) || next.page !== line.page || next.cells.length === 0 || isRuleLine(next)) break;
    const gap = (next.y - line.y) / Math.max(line.h, next.h);
    if (gap > TWO_LINE_HEADER_GAP && !(gap <= SPACED_HEADER_GAP && (stacksOn(next, stacked) || stacksOn(stacked, next)))) break;
    if (topOfFirstRow(lines, i + n - 1)) break;
    const further = mergeHeaderLines(stacked, next);
    if (!further) break;
    stacked = further;
    const merged = headerColumns(stacked);
    if (merged && (!best || score(merged) > score(best.columns) || renames(best.columns, merged))) best = { columns: merged, lineCount: n };
  }
  return best;
}

/** Lines one table header may take. */
const MAX_HEADER_LINES = 3;
/** A row's text lines lie nearer each other than the header line above them, by at least this share. */
const NEARER_BELOW = 0.9;
/** Lines of a row's text above its figures that topOfFirstRow follows down. */
const ROW_TEXT_LINES = 4;
/** The lines after a header's first that findHeaderAt reads (headerAt's memo keys on them). */
const HEADER_WINDOW = MAX_HEADER_LINES - 1 + ROW_TEXT_LINES;

/**
 * A line under a header that is the top of the table's first row, not a heading's second line: the
 * row's date or figures follow it, closer than it lies to the header (a row's text centred on its
 * figures wraps at the row's own pitch; a header's padding sets its last line apart from the rows).
 */
function topOfFirstRow(lines: readonly Line[], at: number): boolean {
  const line = lines[at]!;
  const pitch = NEARER_BELOW * (line.y - lines[at - 1]!.y);
  // Down through the row's wrapped text, each line as close to the one before, to its figures.
  for (let k = at + 1, y = line.y; k < lines.length && k <= at + ROW_TEXT_LINES; k++) {
    const below = lines[k]!;
    if (below.page !== line.page || below.y - y >= pitch) return false;
    if (dataLike(below)) return true;
    y = below.y;
  }
  return false;
}

/**
 * A line of "Label: value" pairs or long numbers ("Name: ADA OBI  Account: 0123456789"), a
 * statement's facts printed right above its table, or their labels alone once redaction has
 * blanked the values ("Name:  Account:"): never a line of a stacked heading.
 */
const holdsValues = (line: Line) => line.cells.some((c) => /\d{4}/.test(c.text) || /\S:(?:\s*\S|\s*$)/.test(c.text));

/**
 * How well columns read as a table's header: each named column counts, an unnamed one counts
 * against. A second amount column (`extra_amount`) is a guess from a lone money word (`Value`,
 * whose `Date` wrapped onto the line below), so it counts less than a column its label names.
 */
const score = (cols: Column[]) => cols.reduce((n, c) => n + (c.role === "other" ? -1 : c.role === "extra_amount" ? 1 : 2), 0);

/**
 * Stacking finished the labels without adding a column, as well read, and gave some column
 * another role or made its label one the vocabulary names whole: `Value` (an amount, alone) over
 * `Date` is the value date's heading, whatever money word it first looked like, and `Transaction`
 * (a narration only by elimination) over `Description` is a heading's two lines.
 */
function renames(before: Column[], after: Column[]): boolean {
  if (after.length !== before.length || score(after) !== score(before)) return false;
  return after.some((c, k) => c.role !== before[k]!.role || (labelRole(c.label, true) !== null && labelRole(before[k]!.label, true) === null));
}


/**
 * Stacks two lines' cells: cells that overlap horizontally become one label, others stand alone.
 * Null when a word below would turn a complete narration or reference label into another role's
 * (`Remarks` over `BALANCE`, the opening row's label wrapped in the narration column right under
 * the header): the line below finishes no label then, it is the table's first line. (Money labels
 * are refined so: `Balance` over `Before`, `Amount (NGN)` over `Debit`.) Runs that hold two
 * headings are cut first (partedRuns) when every part then stacks into a label.
 */
function mergeHeaderLines(a: Line, b: Line): Line | null {
  const parted = partedRuns(a, b);
  const stacked = parted && stackLines(parted[0], parted[1]);
  if (stacked && parted[2].every((part) => stacked.cells.some((c) => c.x0 <= part.x0 && c.x1 >= part.x1 && labelRole(c.text) !== null))) return stacked;
  return stackLines(a, b);
}

/** A word's start may lie this many glyph heights from the other line's cell edge and still be on it. */
const EDGE_TOLERANCE = 0.5;

/**
 * Two lines of headings whose runs hold two labels one word space apart (a fixed-width font, or
 * a header drawn as one string): where a cell of one line starts right at a word of a run on the
 * other (`Effective Transaction` over `Date` and `Details`, `Details` starting under
 * `Transaction`), ends under the run's first word (`Transaction Val. Date` over `Date`), or has a
 * word starting where one of the run's does (`Balance Transaction` over `(NGN) Description`, both
 * runs glued across one column gap), the run is two headings and is cut there. Answers both lines
 * cut and the new parts, or null when nothing lines up.
 */
function partedRuns(a: Line, b: Line): [Line, Line, Cell[]] | null {
  const tol = EDGE_TOLERANCE * Math.max(a.h, b.h);
  const parts: Cell[] = [];
  const cut = (line: Line, other: Line): Line => {
    const cells = line.cells.flatMap((u) => {
      const starts = other.cells.map((c) => c.x0).filter((x) => x > u.x0 + tol && x < u.x1 - tol);
      // A second line under the run's first word only (`Date` under `Transaction` of
      // `Transaction Val. Date`; `Balance` right-aligned over `(NGN)` of `(NGN) Narrative`): the
      // run may part at the next word.
      const words = wordStartXs(u);
      // Runs on both lines with a word starting at one x inside both (`Balance Transaction` over
      // `(NGN) Description`): a column's edge.
      const shared = other.cells.flatMap((c) => (c.x0 < u.x1 && c.x1 > u.x0 ? wordStartXs(c) : [])).filter((x) => words.some((w) => Math.abs(w - x) <= tol));
      const second = words[0] ?? u.x1;
      const ends = other.cells.filter((c) => c.x1 > u.x0 + tol && c.x1 <= second + tol && c.x1 < u.x1 - tol).map((c) => words.find((x) => x >= c.x1 - tol));
      const pieces = cutRun(u, [...starts, ...shared, ...ends.filter((x) => x !== undefined)], tol);
      if (pieces.length > 1) parts.push(...pieces);
      return pieces;
    });
    return cells.length === line.cells.length ? line : withCells(line, cells);
  };
  const [a2, b2] = [cut(a, b), cut(b, a)];
  return parts.length > 0 ? [a2, b2, parts] : null;
}

/** mergeHeaderLines' stacking of the two lines as they are. */
function stackLines(a: Line, b: Line): Line | null {
  const cells = a.cells.map((c) => ({ ...c }));
  for (const c of b.cells) {
    const over = cells.find((u) => overlapAcross(u, c));
    if (over) {
      const complete = labelRole(over.text, true);
      const joined = labelRole(`${over.text} ${c.text}`);
      if (complete && WORD_ROLES.has(complete) && joined && joined !== complete) return null;
      over.text = `${over.text} ${c.text}`;
      over.x0 = Math.min(over.x0, c.x0);
      over.x1 = Math.max(over.x1, c.x1);
      over.kind = "text";
    } else {
      cells.push({ ...c });
    }
  }
  cells.sort((p, q) => p.x0 - q.x0);
  return withCells(a, cells);
}

/**
 * Columns whose labels wrapped onto lines under the header (`Value` over `Date`, `Running` over
 * `Balance`, the header's other labels centred between them): each tail word completes the label
 * it lies under, and the completed label's role replaces the first word's when no other column
 * holds that role yet.
 */
export function completeLabels(columns: Column[], tail: readonly Line[]): Column[] {
  const out = columns.map((c) => ({ ...c }));
  let changed = false;
  for (const line of tail) {
    for (const cell of line.cells) {
      let best: Column | null = null;
      let most = 0;
      for (const c of out) {
        const overlap = Math.min(c.x1, cell.x1) - Math.max(c.x0, cell.x0);
        if (overlap > most) [best, most] = [c, overlap];
      }
      if (!best) continue;
      best.label = `${best.label} ${cell.text}`;
      const role = labelRole(best.label);
      if (role && role !== best.role && !out.some((c) => c !== best && c.role === role)) {
        best.role = role;
        changed = true;
      }
    }
  }
  if (!changed) return out;
  // A role given up (`Value` read as an amount) goes back to the column that was demoted for it.
  return adoptNarration(dedupeRoles(dedupeDates(out.map((c) => ({ ...c, role: labelRole(c.label) ?? c.role })))));
}
