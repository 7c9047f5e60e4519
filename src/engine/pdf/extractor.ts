/**
 * One interface over the two text extractors, chosen by PDF_EXTRACTOR (src/config.ts): PDFium
 * (WebAssembly, the default: faster per page) and pdf.js (kept behind `pdfjs`, and used by
 * redaction, which re-reads its own output with it). Both answer the same page count, producer,
 * information-dictionary facts and TextItem pages, and fail with the same error classes.
 */
import type { InfoFacts } from "../integrity/types.ts";
import type { PdfExtractorName } from "./extractor-name.ts";
import { readInfo } from "../integrity/facts.ts";
import type { PageText } from "../types.ts";
import { checkPageCount, openPdf, type PdfDocument, pdfProducer, readPage, unreadablePage } from "./extract.ts";
import { openPdfium } from "./pdfium/document.ts";
import { droppedAfterTrap } from "./pdfium/load.ts";
import { pdfiumInfo, pdfiumProducer } from "./pdfium/info.ts";
import { readPdfiumPage } from "./pdfium/text.ts";

export { DEFAULT_PDF_EXTRACTOR, PDF_EXTRACTORS, type PdfExtractorName } from "./extractor-name.ts";

export interface OpenedPdf {
  readonly extractor: PdfExtractorName;
  readonly pageCount: number;
  /** "Producer / Creator / Title / Subject / Author" of the information dictionary, those set ("" when none is). */
  producer(): Promise<string>;
  /** The information dictionary and XMP tools, for the integrity report. */
  info(): Promise<InfoFacts>;
  /** Text items of page n (1-based); an unreadable page rejects with unsupported_format. */
  readPage(n: number): Promise<PageText>;
  close(): Promise<void>;
}

export interface OpenOptions {
  password?: string;
  /** pdf.js only: the page-tree update that balances a flat tree (src/engine/pdf/page-tree.ts). PDFium needs none. */
  update?: Uint8Array;
}

/**
 * Opens `bytes` with the named extractor. The bytes are not changed (pdf.js gets its own copy,
 * PDFium one in its heap); PDFium's info() re-reads them for the XMP packet, and a page whose text
 * carries /ActualText is read by pdf.js from them (opened once, on the first such page).
 */
export async function openDocument(extractor: PdfExtractorName, bytes: Uint8Array, opts: OpenOptions = {}): Promise<OpenedPdf> {
  if (extractor === "pdfjs") {
    const doc = await openPdf(bytes, opts.password, opts.update);
    return {
      extractor,
      pageCount: doc.numPages,
      producer: () => pdfProducer(doc),
      info: () => readInfo(doc),
      readPage: (n) => readPage(doc, n).catch((e: unknown) => Promise.reject(unreadablePage(n, e))),
      close: () => doc.destroy(),
    };
  }
  const doc = await openPdfium(bytes, opts.password);
  // pdf.js, opened only for a page PDFium cannot give as pdf.js reads it (/ActualText, see readPdfiumPage).
  let fallback: Promise<PdfDocument> | undefined;
  const readPdfjs = async (n: number) => {
    fallback ??= openPdf(bytes, opts.password);
    return readPage(await fallback, n).catch((e: unknown) => Promise.reject(unreadablePage(n, e)));
  };
  return {
    extractor,
    pageCount: doc.pageCount,
    producer: async () => pdfiumProducer(doc),
    info: async () => pdfiumInfo(doc, bytes, opts.password),
    readPage: async (n) => {
      let page: PageText | undefined;
      try {
        page = readPdfiumPage(doc, n);
      } catch (e) {
        // A trap drops this thread's PDFium (the next document gets a fresh one); the page is the upload's fault.
        droppedAfterTrap(e);
        throw unreadablePage(n, e);
      }
      return page ?? readPdfjs(n);
    },
    close: async () => {
      doc.close();
      if (fallback) await (await fallback.catch(() => undefined))?.destroy();
    },
  };
}

export interface ReadPagesOptions extends OpenOptions {
  /** Refuse (too_many_pages) a document with more pages. */
  maxPages?: number;
  first: number;
  last: number;
  onPage?: (page: number) => void;
  /** Called once with the document's page count, before the first page is read. */
  onTotal?: (pageCount: number) => void;
  signal?: AbortSignal;
}

/** Text of pages first..last (1-based, inclusive) with either extractor, the producer and the info facts. Pages without any text are kept (empty items). */
export async function readPages(extractor: PdfExtractorName, bytes: Uint8Array, opts: ReadPagesOptions): Promise<{ pages: PageText[]; pageCount: number; producer: string; info: InfoFacts }> {
  const doc = await openDocument(extractor, bytes, opts);
  try {
    checkPageCount(doc.pageCount, opts.maxPages);
    opts.onTotal?.(doc.pageCount);
    const last = Math.min(opts.last, doc.pageCount);
    const pages: PageText[] = [];
    for (let n = Math.max(1, opts.first); n <= last; n++) {
      opts.signal?.throwIfAborted();
      pages.push(await doc.readPage(n));
      opts.onPage?.(n);
    }
    return { pages, pageCount: doc.pageCount, producer: await doc.producer(), info: await doc.info() };
  } finally {
    await doc.close();
  }
}
