/**
 * The batch queue: one row per chosen file with its own progress bar, state in words and verdict,
 * and a button to show its result. The page parses the rows one after another (the server already
 * spreads one statement's pages over its workers).
 */
import { node } from "./dom.ts";
import type { Headline } from "./verdict.ts";
import type { Envelope, JobRef, ParseResponse, Progress } from "./types.ts";

export type ItemState = "waiting" | "running" | "done" | "failed" | "cancelled";

export interface QueueItem {
  file: File;
  state: ItemState;
  job?: JobRef;
  /** A json or csv job's statement. */
  result?: ParseResponse;
  error?: Envelope;
  /** What this one parse can be downloaded as. */
  downloads: { json?: Blob; csv?: Blob; redacted?: Blob; redactedExt: string; redactions?: number };
  row: HTMLLIElement;
  bar: HTMLProgressElement;
  status: HTMLSpanElement;
  badge: HTMLSpanElement;
  view: HTMLButtonElement;
}

const STAGE_WORDS: Record<string, string> = { pages: "Reading pages", extract: "Reading pages", assemble: "Assembling", redact: "Redacting", queued: "Waiting for a worker" };

export const stemOf = (name: string) => name.replace(/\.[^.]+$/, "") || "statement";
const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString("en")} KB`;

export class QueueView {
  readonly items: QueueItem[] = [];

  constructor(private readonly list: HTMLOListElement, private readonly onView: (item: QueueItem) => void) {}

  get waiting(): QueueItem[] {
    return this.items.filter((i) => i.state === "waiting");
  }

  /** Files join the queue; a queue whose every file has finished is replaced by the new files. */
  add(files: File[]): void {
    if (this.items.length > 0 && this.items.every((i) => i.state !== "waiting" && i.state !== "running")) this.clear();
    for (const file of files) this.items.push(this.#item(file));
  }

  clear(): void {
    this.items.length = 0;
    this.list.replaceChildren();
  }

  /** "name (N KB)" for one file, "3 files (N KB)" for several. */
  describe(): string {
    const [only] = this.items;
    if (this.items.length === 0 || !only) return "No file chosen (PDF or XLSX)";
    const size = kb(this.items.reduce((a, i) => a + i.file.size, 0));
    return this.items.length === 1 ? `${only.file.name} (${size})` : `${this.items.length} files (${size})`;
  }

  progress(item: QueueItem, p: Progress): void {
    const pct = p.total > 0 ? Math.min(100, Math.floor((p.current / p.total) * 100)) : 0;
    item.bar.value = pct;
    const stage = STAGE_WORDS[p.stage] ?? p.stage;
    item.status.textContent = p.total > 0 ? `${stage} ${p.current} of ${p.total}` : `${stage}…`;
  }

  set(item: QueueItem, state: ItemState, text: string): void {
    item.state = state;
    item.row.dataset.state = state;
    item.status.textContent = text;
    if (state === "done") item.bar.value = 100;
    if (state === "running") item.bar.removeAttribute("value"); // indeterminate until the first progress
    item.view.hidden = state !== "done";
  }

  verdict(item: QueueItem, h: Headline | undefined, fallback?: { text: string; level: "ok" | "warn" | "bad" }): void {
    const shown = h ? { text: h.short, level: h.level } : fallback;
    item.badge.hidden = !shown;
    if (!shown) return;
    item.badge.textContent = shown.text;
    item.badge.className = `badge q-verdict ${shown.level}`;
    item.badge.title = h?.reasons.join("; ") ?? "";
  }

  selected(item: QueueItem | undefined): void {
    for (const i of this.items) i.row.classList.toggle("selected", i === item);
  }

  #item(file: File): QueueItem {
    const row = node("li", undefined, "q-item");
    row.dataset.state = "waiting";
    const name = node("span", file.name, "q-name");
    name.title = `${file.name} (${kb(file.size)})`;
    const bar = node("progress", undefined, "q-bar");
    bar.max = 100;
    bar.value = 0;
    bar.setAttribute("aria-label", `Progress of ${file.name}`);
    const status = node("span", "Waiting", "q-status");
    const badge = node("span", undefined, "badge q-verdict");
    badge.hidden = true;
    const view = node("button", "View", "secondary q-view");
    view.type = "button";
    view.hidden = true;
    view.setAttribute("aria-label", `View the result of ${file.name}`);
    row.append(name, badge, bar, status, view);
    this.list.append(row);
    const item: QueueItem = { file, state: "waiting", downloads: { redactedExt: ".pdf" }, row, bar, status, badge, view };
    view.addEventListener("click", () => this.onView(item));
    return item;
  }
}
