/**
 * The OCR pool's first step for a document the text path refused as a scan: its text pages (kept
 * as they are) and the pages to read by OCR, decided page by page as the text path did
 * (decide.ts). A document whose scanned pages cannot be found (the text path's refusal came from
 * elsewhere) has every page read, as a document with no text at all.
 */
import { DEFAULT_PDF_EXTRACTOR, readPages } from "../pdf/extractor.ts";
import type { PageText } from "../types.ts";
import { scannedPages, textReading } from "./decide.ts";

export interface ScanPlan {
  pageCount: number;
  producer: string;
  /** 1-based pages to read by OCR, in order. */
  ocrPages: number[];
  /** The other pages, as the text path read them (merged with the OCR'd pages in page order). */
  textPages: PageText[];
}

/** Whatever refused the text reading, every page is then a candidate. */
function readingOrNull(doc: Parameters<typeof textReading>[0], bank: string | undefined) {
  try {
    return textReading(doc, bank);
  } catch {
    return null;
  }
}

export async function planScan(bytes: Uint8Array, opts: { password?: string; bank?: string }): Promise<ScanPlan> {
  const { pages, pageCount, producer } = await readPages(DEFAULT_PDF_EXTRACTOR, bytes, { password: opts.password, first: 1, last: Number.MAX_SAFE_INTEGER });
  const doc = { kind: "pdf" as const, pageCount, producer, pages };
  const hasText = pages.some((p) => p.items.length > 0);
  let ocrPages = hasText ? await scannedPages(doc, bytes, opts.password, readingOrNull(doc, opts.bank)) : [];
  if (ocrPages.length === 0) ocrPages = pages.map((p) => p.number);
  const chosen = new Set(ocrPages);
  return { pageCount, producer, ocrPages, textPages: pages.filter((p) => !chosen.has(p.number)) };
}
