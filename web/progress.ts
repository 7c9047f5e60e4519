/** The progress card: stage in words, pages done of total, elapsed time and an estimate of what is left. */
import { $ } from "./dom.ts";
import { clock } from "./format.ts";
import type { Progress } from "./types.ts";

/** The job's stages in words; a stage the page does not know is shown by its name. */
const STAGE_WORDS: Record<string, string> = {
  queued: "Waiting for a worker",
  pages: "Reading pages",
  extract: "Reading pages",
  assemble: "Assembling transactions",
  redact: "Redacting",
  retry: "Retrying on another worker",
};
/** Stages whose current/total count pages (the estimate is made from their rate). */
const PAGE_STAGES = new Set(["pages", "extract"]);

export class ProgressView {
  private readonly card = $<HTMLElement>("progress-card");
  private readonly bar = $<HTMLProgressElement>("progress");
  private readonly text = $<HTMLParagraphElement>("progress-text");
  private readonly timing = $<HTMLParagraphElement>("progress-timing");
  readonly cancel = $<HTMLButtonElement>("cancel");
  private started = 0;
  /** When the first page was reported and how many pages had been read then (for the rate). */
  private firstPage: { at: number; current: number } | undefined;
  private last: Progress | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  private readonly heading = $<HTMLHeadingElement>("progress-heading");

  /** A new job; `label` names it when it is one file of several ("File 2 of 3: name.pdf"). */
  start(label?: string): void {
    this.card.hidden = false;
    this.heading.textContent = label ? `Progress · ${label}` : "Progress";
    this.bar.value = 0;
    this.text.textContent = "Uploading…";
    this.started = performance.now();
    this.firstPage = undefined;
    this.last = undefined;
    this.cancel.hidden = true;
    this.cancel.disabled = false;
    clearInterval(this.timer);
    this.timer = setInterval(() => this.showTiming(), 1000);
    this.showTiming();
  }

  queued(): void {
    this.text.textContent = "Queued…";
    this.cancel.hidden = false;
  }

  update(p: Progress): void {
    this.last = p;
    const pct = p.total > 0 ? Math.min(100, Math.floor((p.current / p.total) * 100)) : 0;
    this.bar.value = pct;
    const stage = STAGE_WORDS[p.stage] ?? p.stage;
    this.text.textContent = p.total > 0 ? `${stage}: ${p.current} of ${p.total} (${pct}%)` : `${stage}…`;
    if (PAGE_STAGES.has(p.stage) && p.current > 0 && !this.firstPage) this.firstPage = { at: performance.now(), current: p.current };
    this.showTiming();
  }

  finish(text: string): void {
    this.bar.value = 100;
    this.text.textContent = text;
    this.stop();
    this.timing.textContent = `Took ${clock((performance.now() - this.started) / 1000)}`;
  }

  hide(): void {
    this.stop();
    this.card.hidden = true;
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.cancel.hidden = true;
  }

  /** Elapsed time, and once pages are being read, the time left at the rate seen so far. */
  private showTiming(): void {
    const now = performance.now();
    const parts = [`Elapsed ${clock((now - this.started) / 1000)}`];
    const p = this.last;
    if (p && PAGE_STAGES.has(p.stage) && p.total > 0) {
      parts.unshift(`${p.current} of ${p.total} pages`);
      const f = this.firstPage;
      const done = f ? p.current - f.current : 0;
      if (f && done > 0 && p.current < p.total) parts.push(`about ${clock((((now - f.at) / done) * (p.total - p.current)) / 1000)} left`);
    }
    this.timing.textContent = parts.join(" · ");
  }
}
