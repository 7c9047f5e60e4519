/**
 * Progress display on stderr. On a terminal a line (or a block of lines) is redrawn in place; when
 * stderr is a file or pipe, whole lines are written, and only when something changed, so logs
 * stay readable.
 */

export interface ProgressState {
  stage: string;
  current: number;
  total: number;
}

/** Characters of the bar between the brackets. */
const BAR_WIDTH = 24;

export function percent(p: ProgressState): number {
  if (p.total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.floor((p.current / p.total) * 100)));
}

/** `[##########--------------]  42% extract 5/12` */
export function formatBar(p: ProgressState, width = BAR_WIDTH): string {
  const pct = percent(p);
  const filled = Math.round((pct / 100) * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(pct).padStart(3)}% ${p.stage} ${p.current}/${p.total}`;
}

export interface Sink {
  write(s: string): unknown;
  isTTY?: boolean;
}

/** A single redrawn line (the `parse` command: one file at a time). */
export class LineProgress {
  #last = "";
  #shown = false;

  constructor(private readonly out: Sink, private readonly label: string) {}

  update(p: ProgressState): void {
    const line = `${this.label} ${formatBar(p)}`;
    if (line === this.#last) return;
    this.#last = line;
    this.#shown = true;
    this.out.write(this.out.isTTY ? `\r\x1b[2K${line}` : `${line}\n`);
  }

  /** Leaves the last drawn state on its own line. */
  done(): void {
    if (this.#shown && this.out.isTTY) this.out.write("\n");
    this.#shown = false;
  }
}

/**
 * Many files at once (the `upload` command): on a terminal, one line per running file plus an
 * overall line, redrawn together at most every REDRAW_MS; elsewhere, a line per change of stage
 * or per quarter of progress.
 */
const REDRAW_MS = 100;

export class MultiProgress {
  #rows = new Map<string, ProgressState>();
  /** Pages read and pages known per file, from the page-wise stages (overall progress counts pages). */
  #pages = new Map<string, { current: number; total: number }>();
  #lastLogged = new Map<string, string>();
  #drawnLines = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #finished = 0;

  constructor(private readonly out: Sink, private readonly totalFiles: number, private readonly verbose: boolean) {}

  update(file: string, p: ProgressState): void {
    this.#rows.set(file, p);
    if (/page|extract/i.test(p.stage) && p.total > 0) this.#pages.set(file, { current: p.current, total: p.total });
    if (this.out.isTTY) return this.#schedule();
    if (!this.verbose) return;
    const key = `${p.stage}:${Math.floor(percent(p) / 25)}`;
    if (this.#lastLogged.get(file) === key) return;
    this.#lastLogged.set(file, key);
    this.out.write(`${file} ${formatBar(p)}\n`);
  }

  /** A file finished (either way): its line is replaced by a permanent one. */
  finish(file: string, line: string): void {
    this.#rows.delete(file);
    const pages = this.#pages.get(file);
    if (pages) pages.current = pages.total;
    this.#lastLogged.delete(file);
    this.#finished++;
    if (this.out.isTTY) {
      this.#clear();
      this.out.write(`${line}\n`);
      this.#draw();
    } else {
      this.out.write(`[${this.#finished}/${this.totalFiles}] ${line}\n`);
    }
  }

  /** A one-off message (a retry, a warning), printed above the live block. */
  note(line: string): void {
    if (this.out.isTTY) {
      this.#clear();
      this.out.write(`${line}\n`);
      this.#draw();
    } else {
      this.out.write(`${line}\n`);
    }
  }

  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.out.isTTY) this.#clear();
  }

  #schedule(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#clear();
      this.#draw();
    }, REDRAW_MS);
  }

  /**
   * `overall [#####---] 40% pages 120/300 · files 3/10`: pages read over the pages of every file whose
   * count is known yet (a file reports its page count when a worker opens it).
   */
  overall(): string {
    let current = 0;
    let total = 0;
    for (const p of this.#pages.values()) {
      current += p.current;
      total += p.total;
    }
    const bar = formatBar({ stage: "pages", current, total }).replace(/ pages \d+\/\d+$/, "");
    return `overall ${bar} pages ${current}/${total} · files ${this.#finished}/${this.totalFiles}`;
  }

  #clear(): void {
    if (this.#drawnLines > 0) this.out.write(`\x1b[${this.#drawnLines}A\x1b[0J`);
    this.#drawnLines = 0;
  }

  #draw(): void {
    const lines = [...this.#rows].map(([file, p]) => `  ${file} ${formatBar(p)}`);
    lines.push(this.overall());
    this.out.write(`${lines.join("\n")}\n`);
    this.#drawnLines = lines.length;
  }
}
