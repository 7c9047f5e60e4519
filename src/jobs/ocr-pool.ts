/**
 * The OCR pool: its own Piscina threads (OCR_WORKERS, one by default), apart from the parse pool,
 * so a scan that takes seconds per page never holds a thread text parses need. A document is
 * planned (which of its pages are scans), its scanned pages are read one task each, as many at once
 * as there are OCR threads, then assembled with its text pages in one task.
 */
import { Piscina } from "piscina";
import { AppError, scannedDocument } from "../errors.ts";
import type { OcrPage } from "../engine/ocr/page-text.ts";
import type { ProgressFn } from "../engine/types.ts";
import { workerCrashed } from "./pool.ts";
import type { OcrAnswer, OcrOutputs, OcrSettings, OcrTask } from "./ocr-tasks.ts";

export interface OcrPoolOptions {
  threads: number;
  idleMs: number;
  onError?: (e: unknown) => void;
}

export interface OcrLimits extends OcrSettings {
  maxPages: number;
  minConfidence: number;
  minChainPercent: number;
}

export interface OcrRequest {
  bytes: SharedArrayBuffer;
  password?: string;
  bank?: string;
  csv: boolean;
}

export interface OcrPool {
  readonly threads: number;
  /** Reads a scanned PDF: its ParseResponse JSON (and CSV), or scanned_document saying what was tried. */
  read(req: OcrRequest, limits: OcrLimits, hooks: { onProgress?: ProgressFn; signal: AbortSignal }): Promise<{ json: string; csv?: string }>;
  destroy(): Promise<void>;
}

const WORKER = new URL("../../workers/ocr.worker.ts", import.meta.url).href;

export function createOcrPool({ threads, idleMs, onError = () => {} }: OcrPoolOptions): OcrPool {
  // Atomics off, as in the parse pool: an idle thread's timer (terminating its engine) must run.
  const piscina = new Piscina<OcrTask, OcrAnswer>({ filename: WORKER, minThreads: 0, maxThreads: threads, idleTimeout: idleMs + 1000, workerData: { idleMs }, atomics: "disabled" });
  piscina.on("error", onError);

  async function run<T extends OcrTask>(task: T, signal: AbortSignal): Promise<OcrOutputs[T["op"]]> {
    let answer: OcrAnswer;
    try {
      answer = await piscina.run(task, { signal });
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      throw workerCrashed(e);
    }
    if (!answer.ok) throw AppError.fromJSON(answer.error);
    return answer.value as OcrOutputs[T["op"]];
  }

  return {
    threads,
    async read(req, limits, hooks) {
      // One page failing (refused, timed out) stops the document's other pages.
      const inner = new AbortController();
      const stop = () => inner.abort(hooks.signal.reason);
      hooks.signal.addEventListener("abort", stop, { once: true });
      try {
        return await readDocument(req, limits, hooks.onProgress, inner);
      } finally {
        hooks.signal.removeEventListener("abort", stop);
      }
    },
    destroy: () => piscina.destroy(),
  };

  async function readDocument(req: OcrRequest, limits: OcrLimits, onProgress: ProgressFn | undefined, inner: AbortController): Promise<{ json: string; csv?: string }> {
    const signal = inner.signal;
    const plan = await run({ op: "ocr-plan", bytes: req.bytes, password: req.password, ...(req.bank ? { bank: req.bank } : {}) }, signal);
    const { pageCount, producer, ocrPages, textPages } = plan;
    const count = ocrPages.length;
    if (count > limits.maxPages) {
      throw scannedDocument(`The PDF has no usable text layer on ${count} of its ${pageCount} pages; OCR reads at most ${limits.maxPages} (OCR_MAX_PAGES)`);
    }
    const settings: OcrSettings = { dpi: limits.dpi, pageTimeoutMs: limits.pageTimeoutMs, loadTimeoutMs: limits.loadTimeoutMs };
    let done = 0;
    onProgress?.({ stage: "ocr", current: 0, total: count });
    const pages: OcrPage[] = await Promise.all(
      ocrPages.map(async (n) => {
        const page = await run({ op: "ocr-page", bytes: req.bytes, password: req.password, page: n, settings }, signal).catch((e: unknown) => {
          if (!signal.aborted) inner.abort(e);
          throw e;
        });
        onProgress?.({ stage: "ocr", current: ++done, total: count });
        return page;
      }),
    );
    onProgress?.({ stage: "assemble", current: 0, total: 1 });
    const out = await run(
      {
        op: "ocr-assemble",
        pages,
        textPages,
        producer,
        csv: req.csv,
        pageCount,
        minConfidence: limits.minConfidence,
        minChainShare: limits.minChainPercent / 100,
        ...(req.bank ? { bank: req.bank } : {}),
      },
      signal,
    );
    onProgress?.({ stage: "assemble", current: 1, total: 1 });
    return out;
  }
}
