/**
 * Messages between the main thread and the OCR workers (workers/ocr.worker.ts), plain data only,
 * as for the parse workers (src/jobs/tasks.ts). A document is planned (which pages are scans, the
 * text of the others: src/engine/ocr/plan.ts), its scanned pages read one task each (so two OCR
 * workers share one document's pages), then assembled with its text pages.
 */
import type { Result } from "../errors.ts";
import type { OcrPage } from "../engine/ocr/page-text.ts";
import type { ScanPlan } from "../engine/ocr/plan.ts";
import type { PageText } from "../engine/types.ts";

export interface OcrSettings {
  dpi: number;
  /** Longest one page's recognition may take. */
  pageTimeoutMs: number;
  /** Longest the OCR engine may take to load. */
  loadTimeoutMs: number;
}

export type OcrTask =
  | { op: "ocr-ping" }
  | { op: "ocr-plan"; bytes: SharedArrayBuffer; password?: string; bank?: string }
  | { op: "ocr-page"; bytes: SharedArrayBuffer; password?: string; page: number; settings: OcrSettings }
  | {
      op: "ocr-assemble";
      pages: OcrPage[];
      textPages: PageText[];
      producer: string;
      bank?: string;
      csv: boolean;
      pageCount: number;
      minConfidence: number;
      minChainShare: number;
    };

export interface OcrOutputs {
  "ocr-ping": { threadId: number };
  "ocr-plan": ScanPlan;
  "ocr-page": OcrPage;
  /** `json` is the ParseResponse serialised; `csv` when asked for. */
  "ocr-assemble": { json: string; csv?: string };
}

export type OcrAnswer = Result<OcrOutputs[keyof OcrOutputs]>;
