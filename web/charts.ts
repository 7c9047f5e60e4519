/**
 * Two pictures of a statement, drawn with uPlot (bundled from the package, no CDN): the balance over
 * time, and money in and out per month. Sums are made in BigInt kobo; numbers only feed the drawing.
 */
import uPlot from "uplot";
import { $, node } from "./dom.ts";
import { formatKobo, parseAmount } from "../src/engine/money.ts";
import { money } from "./format.ts";
import type { Transaction } from "./types.ts";

const HEIGHT = 220;
const IN_COLOUR = "#1a7f37";
const OUT_COLOUR = "#cf222e";
const BALANCE_COLOUR = "#0b5fff";

const toNaira = (k: bigint) => Number(k) / 100;
/** An amount string of the response as kobo (0 when empty). */
const kobo = (s: string): bigint => parseAmount(s)?.kobo ?? 0n;
const axisMoney = (_u: uPlot, values: number[]) => values.map((v) => money(v.toFixed(0)));

/** The axes' font, set on the axes and used to measure their labels. */
const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
/** Tick length plus the gap between tick and label (uPlot's defaults: 10 and 5), and a margin, px. */
const AXIS_CHROME = 20;
let measurer: CanvasRenderingContext2D | null | undefined;

/**
 * The money axis is as wide as its widest label: a fixed width clipped "-12,345,678" on the left
 * edge. uPlot asks again whenever the labels change (cycleNum lets it settle).
 */
function moneyAxisSize(_u: uPlot, values: string[] | null): number {
  if (!values || values.length === 0) return 50;
  measurer ??= document.createElement("canvas").getContext("2d");
  if (!measurer) return 96;
  measurer.font = AXIS_FONT;
  const ctx = measurer;
  return Math.ceil(Math.max(...values.map((v) => ctx.measureText(String(v ?? "")).width))) + AXIS_CHROME;
}
/** Width one month label ("2024-01") needs with some air, px. */
const MONTH_LABEL_PX = 64;

/** Every month when their labels fit side by side, else every second, third… so none overlap. */
function monthSplits(xs: number[], width: number): number[] {
  const step = Math.max(1, Math.ceil((xs.length * MONTH_LABEL_PX) / Math.max(1, width - 100)));
  return xs.filter((i) => i % step === 0);
}

/** Room on the right and top of each plot for the last time or month label and the top money label, px. */
const PADDING: uPlot.Padding = [12, 28, 0, 0];

/** Money in and out per calendar month (YYYY-MM of the transaction's own date), oldest first. */
export function monthlyFlows(ts: Transaction[]): { month: string; credit: bigint; debit: bigint }[] {
  const months = new Map<string, { credit: bigint; debit: bigint }>();
  for (const t of ts) {
    const m = t.date.slice(0, 7);
    const row = months.get(m) ?? { credit: 0n, debit: 0n };
    row.credit += kobo(t.credit);
    row.debit += kobo(t.debit);
    months.set(m, row);
  }
  return [...months.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([month, v]) => ({ month, ...v }));
}

export class Charts {
  private readonly box = $<HTMLElement>("charts");
  private plots: uPlot[] = [];

  constructor() {
    let pending: ReturnType<typeof setTimeout> | undefined;
    window.addEventListener("resize", () => {
      clearTimeout(pending);
      pending = setTimeout(() => this.plots.forEach((p) => p.setSize({ width: this.width(p.root.parentElement), height: HEIGHT })), 150);
    });
  }

  clear(): void {
    this.plots.forEach((p) => p.destroy());
    this.plots = [];
    this.box.replaceChildren();
  }

  show(ts: Transaction[]): void {
    this.clear();
    const dated = ts.filter((t) => !Number.isNaN(Date.parse(t.date)));
    if (dated.length === 0) return;
    this.box.hidden = false;
    this.plots.push(this.balance(dated), this.flows(dated));
  }

  /** The figure's own width (one or two charts a row, by the stylesheet). */
  private width(fig: HTMLElement | null): number {
    return Math.max(240, (fig ?? this.box).clientWidth - 2);
  }

  private figure(title: string, description: string): HTMLElement {
    const fig = node("figure", undefined, "chart");
    fig.setAttribute("aria-label", description);
    fig.append(node("figcaption", title));
    this.box.append(fig);
    return fig;
  }

  private balance(ts: Transaction[]): uPlot {
    const xs = ts.map((t) => Date.parse(t.date) / 1000);
    const ys = ts.map((t) => toNaira(kobo(t.balance)));
    const last = ts.at(-1)?.balance ?? "0";
    const fig = this.figure("Balance over time", `Balance from ${ts[0]?.date.slice(0, 10)} to ${ts.at(-1)?.date.slice(0, 10)}, ending at ${money(last)}`);
    return new uPlot(
      {
        width: this.width(fig),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        padding: PADDING,
        axes: [{ font: AXIS_FONT }, { values: axisMoney, size: moneyAxisSize, font: AXIS_FONT }],
        series: [{}, { label: "Balance", stroke: BALANCE_COLOUR, width: 2, fill: "rgba(11,95,255,0.08)", paths: uPlot.paths.stepped?.({ align: 1 }), points: { show: false } }],
      },
      [xs, ys],
      fig,
    );
  }

  private flows(ts: Transaction[]): uPlot {
    const months = monthlyFlows(ts);
    const xs = months.map((_, i) => i);
    const total = months.reduce((a, m) => ({ credit: a.credit + m.credit, debit: a.debit + m.debit }), { credit: 0n, debit: 0n });
    const fig = this.figure("Money in and out per month", `Over ${months.length} month(s): in ${money(formatKobo(total.credit))}, out ${money(formatKobo(total.debit))}`);
    const bars = (align: -1 | 1) => uPlot.paths.bars?.({ size: [0.35, 60], align, gap: 2 });
    return new uPlot(
      {
        width: this.width(fig),
        height: HEIGHT,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        // Bars start at zero, whatever the smallest month.
        scales: { x: { time: false, range: [-0.6, Math.max(0.6, months.length - 0.4)] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 1] } },
        padding: PADDING,
        axes: [{ font: AXIS_FONT, splits: (u) => monthSplits(xs, u.width), values: (_u, vals) => vals.map((v) => months[Math.round(v)]?.month ?? "") }, { values: axisMoney, size: moneyAxisSize, font: AXIS_FONT }],
        series: [
          { label: "Month", value: (_u, v) => months[Math.round(v)]?.month ?? "" },
          { label: "Money in", fill: IN_COLOUR, stroke: IN_COLOUR, paths: bars(-1), points: { show: false }, value: (_u, v) => (v == null ? "" : money(v.toFixed(2))) },
          { label: "Money out", fill: OUT_COLOUR, stroke: OUT_COLOUR, paths: bars(1), points: { show: false }, value: (_u, v) => (v == null ? "" : money(v.toFixed(2))) },
        ],
      },
      [xs, months.map((m) => toNaira(m.credit)), months.map((m) => toNaira(m.debit))],
      fig,
    );
  }
}
