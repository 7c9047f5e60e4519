import { guardPdf } from "../guards/index.ts";
import { assembleStatement, extractDocument, findStatementPii } from "../index.ts";
import { sniff } from "../sniff.ts";
import { extractSpreadsheetMl } from "../xml/spreadsheetml.ts";
import type { EngineLimits, ExtractedDocument } from "../types.ts";
import { emptyValues, looksLikeLabel, validValue, type KnownPii, type PiiValues } from "./find.ts";
import { redactHtml } from "./html.ts";
import { AppError } from "../../errors.ts";
import { loadForEditing, redactPdf } from "./pdf.ts";
import { checkRedactable } from "./pdf-preflight.ts";
import { readPdfRuns } from "./pdf-text.ts";
import { redactXlsx } from "./xlsx.ts";
import type { PdfExtractorName } from "../pdf/extractor-name.ts";

export const PDF_CONTENT_TYPE = "application/pdf";
export const XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** An HTML table export keeps the type banks serve it with, so it still opens in a spreadsheet. */
export const HTML_XLS_CONTENT_TYPE = "application/vnd.ms-excel";
/** Excel 2003 XML workbooks go back as they came, under the type Excel registers for them. */
export const SPREADSHEETML_CONTENT_TYPE = "application/vnd.ms-excel";

export interface RedactOptions {
  password?: string;
  /** Bank id from the `bank` form field; finding personal data does not depend on it. */
  bank?: string;
  /** The parse limits, so a document a parse refuses is refused here with the same error. */
  limits?: EngineLimits;
  /** Extractor of the parse that finds the personal data (PDF_EXTRACTOR); redaction's own reading is pdf.js's. */
  extractor?: PdfExtractorName;
}

export interface Redacted {
  bytes: Uint8Array;
  /** Occurrences of personal data removed (a name printed three times counts three). */
  redactions: number;
  contentType: string;
  /** Parts that could not be examined (content streams with filters that cannot be decoded). */
  warnings: string[];
}

/**
 * The engine's own reading of the holder's name and account number (its PII finder, and the
 * holder the parse reports), each kept when it looks like one.
 */
function engineValues(extracted: ExtractedDocument, bank: string | undefined): KnownPii & PiiValues {
  const pii = findStatementPii(extracted);
  const holders = [...pii.holderNames];
  const labelledNames: string[] = [];
  try {
    holders.push(assembleStatement(extracted, { bank }).metadata.account_holder);
  } catch {
    // A document the parse cannot assemble is still redacted with what the labels say.
  }
  const v = emptyValues();
  for (const [i, n] of holders.entries()) {
    const name = validValue("name", n);
    if (!name || looksLikeLabel(name)) continue;
    v.names.push(name);
    if (i < pii.holderNames.length && pii.labelledHolderNames.includes(n)) labelledNames.push(name);
  }
  for (const a of pii.accountNumbers) {
    const digits = validValue("account_number", a);
    if (digits) v.accountNumbers.push(digits);
  }
  return { ...v, labelledNames };
}

/**
 * Refuses a PDF whose drawing the redactor could not hold (pdf-preflight.ts) before the parse's
 * extraction reads it. A file pdf-lib cannot open or walk (damage, a wrong password) is left to the
 * extraction, which answers with the parse's own error.
 */
async function refuseOversizedContent(bytes: Uint8Array, password: string | undefined): Promise<void> {
  try {
    checkRedactable(await loadForEditing(bytes, password));
  } catch (e) {
    // Only the budget's refusal is this check's to give; a damaged file is the extraction's to describe.
    if (e instanceof AppError && e.errorClass === "payload_too_large") throw e;
  }
}

/**
 * A copy of the statement with the holder's personal data removed: PDF in, PDF out; XLSX in, XLSX
 * out; an HTML table export in, the same HTML out; built in memory. The document goes through the parse's own checks and extraction first, so
 * a document a parse refuses gives the same AppError; a statement without personal data comes
 * back with `redactions: 0`.
 */
export async function redactDocument(bytes: Uint8Array, opts: RedactOptions = {}): Promise<Redacted> {
  const kind = sniff(bytes);
  if (kind === "pdf") {
    await guardPdf(bytes, opts.limits?.maxPages ? { maxPages: opts.limits.maxPages } : {}, { password: opts.password });
    await refuseOversizedContent(bytes, opts.password);
  }
  // The parse's extraction first: it maps whatever the extractor refuses (a page tree that loops, a
  // damaged stream) to the parse's own AppError. Then the text as redaction reads it, which refuses
  // a line longer than any statement's before glyph-level work and is reused by the redactor.
  const extracted = await extractDocument(bytes, { password: opts.password, bank: opts.bank, limits: opts.limits, extractor: opts.extractor });
  const pages = kind === "pdf" ? await readPdfRuns(bytes, opts.password) : undefined;
  const known = engineValues(extracted, opts.bank);
  if (kind === "pdf") {
    const r = await redactPdf(bytes, { password: opts.password, known, pages });
    return { bytes: r.bytes, redactions: r.redactions, contentType: PDF_CONTENT_TYPE, warnings: r.warnings };
  }
  if (kind === "html") {
    const r = await redactHtml(bytes, known);
    return { bytes: r.bytes, redactions: r.redactions, contentType: HTML_XLS_CONTENT_TYPE, warnings: [] };
  }
  if (kind === "spreadsheetml") {
    const maxRows = opts.limits?.maxXlsxRows ?? Number.MAX_SAFE_INTEGER;
    const r = await redactHtml(bytes, known, (b) => extractSpreadsheetMl(b, { maxRows }));
    return { bytes: r.bytes, redactions: r.redactions, contentType: SPREADSHEETML_CONTENT_TYPE, warnings: [] };
  }
  const r = await redactXlsx(bytes, known);
  return { bytes: r.bytes, redactions: r.redactions, contentType: XLSX_CONTENT_TYPE, warnings: [] };
}
