/**
 * The insights panel and the category column (`?include=insights`, docs/insights.md). When a
 * finished job is shown, its result is fetched again with include=insights (made from the kept
 * parse: nothing is parsed or counted again); the panel shows salary, charges and levies, lenders,
 * betting and money in/out per month, and the table gains a Category column with a filter. Every
 * figure names how many rows it adds up from. Self-contained: the page hooks it in with one call.
 */
import { node } from "./dom.ts";
import { money, plural } from "./format.ts";
import type { TransactionTable } from "./table.ts";
import type { JobRef, ParseResponse, Transaction } from "./types.ts";

interface Figure { amount: string; rows: number[] }
interface Enrichment { category: string; counterparty: { name: string; bank: string | null } | null }
interface Insights {
  monthly: { month: string; inflow: Figure; outflow: Figure }[];
  salary: { employer: string; amount: string; day_of_month: number; months_seen: string[]; months_missed: string[]; regularity: string; total: Figure }[];
  charges: { total: Figure; bank_charges: Figure; levies: Figure; vat: Figure; emtl: Figure; stamp_duty: Figure };
  loans: { disbursed: Figure; repaid: Figure; lenders: { lender: string; disbursed: Figure; repaid: Figure }[] };
  betting: { staked: Figure; won: Figure; operators: { operator: string; staked: Figure; won: Figure }[] };
}
interface Enriched { transactions: (Transaction & { enrichment: Enrichment })[]; accounts?: { transactions: (Transaction & { enrichment: Enrichment })[] }[]; insights: Insights }

const ALL = "";
const figure = (f: Figure) => `₦${money(f.amount)} (${plural(f.rows.length, "row")})`;

export class InsightsView {
  private readonly panel = node("section", undefined, "checks");
  private readonly filter = node("select");
  private categories: string[] = [];
  /** The shown statement's transaction lists (the page's own arrays), each with its first row's statement index. */
  private offsets = new Map<Transaction[], number>();
  private shown = 0;

  constructor(private readonly table: TransactionTable, private readonly key: () => string) {
    this.panel.id = "insights";
    this.panel.setAttribute("aria-label", "Insights");
    this.panel.hidden = true;
    this.filter.id = "category-filter";
    this.filter.addEventListener("change", () => this.table.refreshRows());
  }

  /** Adds the panel, the filter and the column header to the page once. */
  private mount(): void {
    if (this.panel.isConnected) return;
    document.getElementById("charts")?.before(this.panel);
    const label = node("label", "Category ", "inline");
    label.htmlFor = "category-filter";
    label.append(this.filter);
    document.querySelector(".table-tools")?.append(label);
    document.querySelector("#transactions thead tr")?.append(Object.assign(node("th", "Category"), { scope: "col" }));
    document.querySelector("#transactions tfoot tr")?.append(node("td"));
  }

  /** A finished json or csv job's insights; the panel hides for anything else. */
  async show(job: JobRef | undefined, parse: ParseResponse | undefined): Promise<void> {
    const ticket = ++this.shown;
    this.clear();
    if (!job || !parse) return;
    const res = await fetch(`/v1/parse/jobs/${encodeURIComponent(job.job_id)}/result?format=json&include=insights`, { headers: { authorization: `Bearer ${this.key()}` } });
    if (!res.ok || ticket !== this.shown) return;
    const enriched = (await res.json()) as Enriched;
    const mine = parse.accounts && parse.accounts.length > 0 ? parse.accounts.map((a) => a.transactions) : [parse.transactions];
    const theirs = enriched.accounts && enriched.accounts.length > 0 ? enriched.accounts.map((a) => a.transactions) : [enriched.transactions];
    const rows = theirs.flat();
    let offset = 0;
    for (const list of mine) {
      this.offsets.set(list, offset);
      offset += list.length;
    }
    this.mount();
    this.render(enriched.insights);
    this.categories = rows.map((t) => t.enrichment.category);
    const present = [...new Set(this.categories)].sort();
    this.filter.replaceChildren(node("option", "All", undefined), ...present.map((c) => node("option", c.replace(/_/g, " "))));
    (this.filter.firstChild as HTMLOptionElement).value = ALL;
    present.forEach((c, i) => ((this.filter.children[i + 1] as HTMLOptionElement).value = c));
    this.table.extend({
      cell: (index, list) => node("td", (this.categories[(this.offsets.get(list) ?? 0) + index] ?? "").replace(/_/g, " "), "category"),
      keep: (index, list) => this.filter.value === ALL || this.categories[(this.offsets.get(list) ?? 0) + index] === this.filter.value,
    });
  }

  clear(): void {
    this.panel.hidden = true;
    this.categories = [];
    this.offsets.clear();
    this.filter.value = ALL;
    this.table.extend(undefined);
  }

  private render(i: Insights): void {
    const section = (title: string, lines: string[]) => [node("h3", title), ...(lines.length ? [list(lines)] : [node("p", "None found.", "hint")])];
    const list = (lines: string[]) => {
      const ul = node("ul", undefined, "checks-list");
      ul.append(...lines.map((l) => node("li", l)));
      return ul;
    };
    const c = i.charges;
    const months = node("table", undefined, "insight-months");
    months.createTHead().insertRow().append(node("th", "Month"), node("th", "In", "num"), node("th", "Out", "num"));
    const body = months.createTBody();
    for (const m of i.monthly) {
      const tr = body.insertRow();
      tr.append(node("td", m.month), node("td", money(m.inflow.amount), "num credit"), node("td", money(m.outflow.amount), "num debit"));
    }
    this.panel.replaceChildren(
      node("h2", "Insights"),
      ...section("Salary", i.salary.map((s) => `${s.employer}: ₦${money(s.amount)} around day ${s.day_of_month}, ${plural(s.months_seen.length, "month")} (${s.regularity.replace(/_/g, " ")}${s.months_missed.length ? `, missed ${s.months_missed.join(", ")}` : ""}); total ${figure(s.total)}`)),
      ...section("Charges and levies", [`Total ${figure(c.total)}`, `Bank charges ${figure(c.bank_charges)}`, `Levies ${figure(c.levies)}: VAT ${figure(c.vat)}, EMTL ${figure(c.emtl)}, stamp duty ${figure(c.stamp_duty)}`]),
      ...section("Lenders", i.loans.lenders.map((l) => `${l.lender}: received ${figure(l.disbursed)}, repaid ${figure(l.repaid)}`)),
      ...section("Betting", i.betting.staked.rows.length + i.betting.won.rows.length === 0 ? [] : [`Staked ${figure(i.betting.staked)}, won ${figure(i.betting.won)}`, ...i.betting.operators.map((o) => `${o.operator}: staked ₦${money(o.staked.amount)}, won ₦${money(o.won.amount)}`)]),
      node("h3", "Money in and out by month"),
      months,
    );
    this.panel.hidden = false;
  }
}
