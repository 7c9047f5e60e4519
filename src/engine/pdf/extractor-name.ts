/**
 * The names of the PDF text extractors (PDF_EXTRACTOR), apart from their code: configuration, the
 * worker messages and the engine's public types name them without loading pdf.js or PDFium.
 */
export const PDF_EXTRACTORS = ["pdfium", "pdfjs"] as const;
export type PdfExtractorName = (typeof PDF_EXTRACTORS)[number];
export const DEFAULT_PDF_EXTRACTOR: PdfExtractorName = "pdfium";
