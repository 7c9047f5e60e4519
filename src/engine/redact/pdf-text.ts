import { unsupportedFormat } from "../../errors.ts";
import { openPdf, type PdfDocument } from "../pdf/extract.ts";
import { MAX_TEXT_CHARS } from "../text-cap.ts";

/**
 * A text run as pdf.js reports it, in unrotated PDF user space (origin bottom-left of the
 * coordinate system, not of the crop box), which is the space the content-stream interpreter works
 * in. Redaction never uses viewport coordinates, so /Rotate and crop-box offsets cannot skew a box.
 */
export interface TextRun {
  str: string;
  /** Baseline origin. */
  x: number;
  y: number;
  /** Advance along the baseline, in user space. */
  width: number;
  /** Font height in user space. */
  height: number;
  /** Unit direction of the baseline (1,0 for ordinary text). */
  dx: number;
  dy: number;
}

export interface PageRuns {
  /** 0-based page index. */
  index: number;
  /** [x0, y0, x1, y1] of the page's view box (crop box), user space. */
  view: [number, number, number, number];
  runs: TextRun[];
}

interface RawItem {
  str?: string;
  transform?: number[];
  width?: number;
  height?: number;
}

async function readRuns(doc: PdfDocument, index: number): Promise<PageRuns> {
  const page = await doc.getPage(index + 1);
  try {
    const content = await page.getTextContent();
    const runs: TextRun[] = [];
    for (const raw of content.items as RawItem[]) {
      const t = raw.transform;
      if (!raw.str || !t || raw.str.trim() === "") continue;
      // The parse cuts such text; redaction cannot (what it does not read it cannot remove), and
      // every character costs glyph-level work below, so a document drawing one is refused.
      if (raw.str.length > MAX_TEXT_CHARS) {
        throw unsupportedFormat(`Page ${index + 1} draws a line of ${raw.str.length} characters, longer than any statement line; no redacted copy was produced`);
      }
      const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = t;
      const scaleX = Math.hypot(a, b) || 1;
      runs.push({
        str: raw.str,
        x: e,
        y: f,
        width: raw.width ?? 0,
        height: Math.hypot(c, d) || raw.height || 0,
        dx: a / scaleX,
        dy: b / scaleX,
      });
    }
    const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
    return { index, view: [x0, y0, x1, y1], runs };
  } finally {
    page.cleanup();
  }
}

/** Text runs of every page. Unreadable or encrypted documents throw the same AppError a parse gives. */
export async function readPdfRuns(bytes: Uint8Array, password?: string): Promise<PageRuns[]> {
  const doc = await openPdf(bytes, password);
  try {
    const pages: PageRuns[] = [];
    for (let i = 0; i < doc.numPages; i++) pages.push(await readRuns(doc, i));
    return pages;
  } finally {
    await doc.destroy();
  }
}
