/**
 * Pure pre-checks run on an upload's bytes before a third-party parser sees them. Each one bounds
 * the time or memory the parser could be made to spend; see "Hostile input" in docs/security.md.
 */
export { checkPageClaim, guardPdf, type InflatedStreams, type PageTreeFacts, type PdfGuardOptions, type PdfGuardReport } from "./pdf.ts";
export { type CryptState, pdfCrypt } from "./pdf-crypt.ts";
export { countInflated, type InflateCount } from "./inflate.ts";
export { PDF_GUARD_DEFAULTS, pdfGuardLimits, type PdfGuardLimits } from "./limits.ts";
export { scanPdfSyntax, type PdfSyntax, type StreamRef } from "./pdf-syntax.ts";
