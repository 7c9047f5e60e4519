/**
 * The transactions table for results of any size: a page of rows at a time, with search and sort,
 * so a 10,000-row statement renders as fast as a 10-row one. Row numbers stay the statement's own.
 */
import { $, node } from "./dom.ts";
import { parseAmount } from "../src/engine/money.ts";
import { blankZero, day, money } from "./format.ts";
import type { Transaction } from "./types.ts";

/** Rows drawn at once; the pager moves through the rest. */
export const PAGE_SIZE = 100;

type SortKey = "date-asc" | "date-desc" | "amount-desc" | "amount-asc";
interface Row { t: Transaction; index: number; amount: bigint; haystack: string }

const byAmount = (a: Row, b: Row) => (a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : a.index - b.index);
const SORTS: Record<SortKey, (a: Row, b: Row) => number> = {
  // Dates are ISO strings, so text order is time order; the statement's own order breaks ties.
  "date-asc": (a, b) => (a.t.date < b.t.date ? -1 : a.t.date > b.t.date ? 1 : a.index - b.index),
  "date-desc": (a, b) => (a.t.date > b.t.date ? -1 : a.t.date < b.t.date ? 1 : b.index - a.index),
  "amount-desc": (a, b) => byAmount(b, a),
  "amount-asc": byAmount,
};

export interface TableExtension {
  cell(index: number, list: Transaction[]): HTMLTableCellElement;
  keep(index: number, list: Transaction[]): boolean;
}

export class TransactionTable {
  private readonly tbody = document.querySelector("#transactions tbody") as HTMLTableSectionElement;
  private readonly search = $<HTMLInputElement>("search");
  private readonly sort = $<HTMLSelectElement>("sort");
  private readonly prev = $<HTMLButtonElement>("page-prev");
  private readonly next = $<HTMLButtonElement>("page-next");
  private readonly info = $<HTMLSpanElement>("page-info");
  private rows: Row[] = [];
  private view: Row[] = [];
  private page = 0;
  private breakAt: number | null = null;
  private rounding = new Set<number>();
  private list: Transaction[] = [];
  /** Another module's extra cell and row filter (web/insights.ts); index is the row's in the shown list. */
  private extra?: TableExtension;

  constructor() {
    let pending: ReturnType<typeof setTimeout> | undefined;
    this.search.addEventListener("input", () => {
      clearTimeout(pending);
      pending = setTimeout(() => this.refresh(), 120);
    });
    this.sort.addEventListener("change", () => this.refresh());
    this.prev.addEventListener("click", () => this.go(this.page - 1));
    this.next.addEventListener("click", () => this.go(this.page + 1));
  }

  show(transactions: Transaction[], o: { breakAt: number | null; roundingRows: number[] }): void {
    this.list = transactions;
    this.rows = transactions.map((t, index) => {
      const d = parseAmount(t.debit)?.kobo ?? 0n;
      const c = parseAmount(t.credit)?.kobo ?? 0n;
      return { t, index, amount: d > c ? d : c, haystack: `${day(t.date)} ${t.narration} ${t.reference} ${t.debit} ${t.credit}`.toLowerCase() };
    });
    this.breakAt = o.breakAt;
    this.rounding = new Set(o.roundingRows);
    this.search.value = "";
    this.sort.value = "date-asc";
    this.refresh();
  }

  /**
   * Adds (or, with undefined, removes) an extra cell per row and a row filter; the rows are drawn
   * again on the page the reader is on. The insights arrive after the table is shown, so a reader
   * who already paged on is not sent back to the first page.
   */
  extend(extra: TableExtension | undefined): void {
    this.extra = extra;
    this.refresh(this.page);
  }

  /** Draws the rows again (an extension's filter changed). */
  refreshRows(): void {
    this.refresh();
  }

  /** Filters and sorts again, then shows `page` (the first unless told: a new search or sort starts over). */
  private refresh(page = 0): void {
    const q = this.search.value.trim().toLowerCase();
    const extra = this.extra;
    const kept = extra ? this.rows.filter((r) => extra.keep(r.index, this.list)) : this.rows;
    const matched = q ? kept.filter((r) => r.haystack.includes(q)) : kept.slice();
    // The statement's own order is the default: it is already oldest first and keeps same-time groups as printed.
    const key = this.sort.value as SortKey;
    this.view = key === "date-asc" ? matched : matched.sort(SORTS[key] ?? SORTS["date-asc"]);
    this.go(page);
  }

  private go(page: number): void {
    const pages = Math.max(1, Math.ceil(this.view.length / PAGE_SIZE));
    this.page = Math.min(Math.max(0, page), pages - 1);
    const start = this.page * PAGE_SIZE;
    const slice = this.view.slice(start, start + PAGE_SIZE);
    this.tbody.replaceChildren(...slice.map((r) => this.row(r)));
    this.prev.disabled = this.page === 0;
    this.next.disabled = this.page >= pages - 1;
    const total = this.view.length;
    this.info.textContent =
      total === 0
        ? "No matching rows"
        : `Rows ${(start + 1).toLocaleString("en")}–${(start + slice.length).toLocaleString("en")} of ${total.toLocaleString("en")}${total < this.rows.length ? ` (filtered from ${this.rows.length.toLocaleString("en")})` : ""}`;
  }

  private row(r: Row): HTMLTableRowElement {
    const tr = document.createElement("tr");
    tr.dataset.index = String(r.index);
    if (r.index === this.breakAt) {
      tr.className = "break";
      tr.title = "The balance on this row does not follow from the previous balance, credit and debit.";
    } else if (this.rounding.has(r.index)) {
      tr.className = "rounding";
      tr.title = "Off by ₦0.01 from the previous balance: the bank rounded a half-kobo charge.";
    }
    const t = r.t;
    // The classes and labels let a phone-width screen lay a row out as a card (style.css).
    const amount = (text: string, cls: string, label: string) => {
      const td = node("td", text, `num ${cls}`);
      td.dataset.label = label;
      return td;
    };
    tr.append(
      node("td", day(t.date), "date"),
      node("td", t.narration, "narr"),
      node("td", t.reference, "ref"),
      amount(blankZero(t.debit), "debit", "Out"),
      amount(blankZero(t.credit), "credit", "In"),
      amount(money(t.balance), "bal", "Balance"),
      node("td", t.currency, "ccy"),
    );
    if (this.extra) tr.append(this.extra.cell(r.index, this.list));
    return tr;
  }
}
