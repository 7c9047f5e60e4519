import type { ByteFacts, InfoFacts, IntegritySignal } from "./types.ts";

/**
 * What the producer and creator strings say. Banks print statements through generic libraries
 * (iText, OpenPDF, JasperReports, browsers), so a library is no signal at all; an editor or a
 * re-saving tool is worth a look, never proof: these signals alone never make "likely_edited".
 */

/** Document editors, office suites and online PDF editing services. */
const EDITORS: [RegExp, string][] = [
  [/microsoft[®\s]*(office\s*)?word|microsoft[®\s]*excel/i, "Microsoft Office"],
  [/libreoffice|openoffice|writer\b.*(libre|open)/i, "LibreOffice/OpenOffice"],
  [/adobe acrobat(?! distiller)(?!.*paper capture)|acrobat pro|adobe pdf library.*acrobat/i, "Adobe Acrobat"],
  [/foxit (phantom|pdf editor|reader|editor)|phantompdf/i, "Foxit"],
  [/nitro/i, "Nitro PDF"],
  [/pdf-xchange/i, "PDF-XChange"],
  [/sejda|ilovepdf|smallpdf|pdfescape|pdffiller|dochub|pdf candy|sodapdf|soda pdf|pdfelement|wondershare|pdf24|pdf2go|canva|docfly|formswift|kami\b|lumin pdf|xodo|pdfzorro|pdfbuddy|hipdf|pdfsimpli/i, "an online PDF editor"],
  [/inkscape|gimp|photoshop|illustrator|affinity|coreldraw/i, "a graphics editor"],
  [/quartz pdfcontext|mac os x.*quartz|macos.*quartz/i, "macOS Preview (Quartz)"],
];

/** Tools that rewrite an existing PDF rather than print a new one. */
const RESAVERS: [RegExp, string][] = [
  [/\bpypdf\d?\b|pypdf2|pypdf4|pdfrw/i, "pypdf"],
  [/\bqpdf\b/i, "qpdf"],
  [/pikepdf/i, "pikepdf"],
  [/pdftk/i, "pdftk"],
  [/pdf-lib/i, "pdf-lib"],
  [/\bmupdf|mutool/i, "MuPDF"],
  [/itext.*(stamper|pdfcopy)|pdfstamper/i, "iText (stamper)"],
];

/** Tools that turn another document into a PDF: ordinary for a printed web statement, noted only. */
const CONVERTERS: [RegExp, string][] = [
  [/ghostscript/i, "Ghostscript"],
  [/skia\/pdf|chrome|chromium|headless/i, "a web browser's print to PDF"],
  [/microsoft: print to pdf|microsoft print to pdf/i, "Microsoft Print to PDF"],
];

const match = (list: [RegExp, string][], text: string) => list.find(([re]) => re.test(text))?.[1];

/** Minutes a modification may follow creation and still be the same save (generators stamp both). */
const SAME_SAVE_MINUTES = 2;

export function producerSignals(info: InfoFacts, writer?: ByteFacts["writer"]): IntegritySignal[] {
  const out: IntegritySignal[] = [];
  const both = [info.producer, info.creator, ...info.xmp_tools].join(" | ");
  const editor = match(EDITORS, both);
  if (writer === "qdf") {
    out.push({ code: "qdf_form", severity: "warn", detail: "The file is in qpdf's QDF form, which exists to edit a PDF's content by hand in a text editor." });
  }
  // qpdf keeps the producer string of the file it rewrites: its own header comment gives it away.
  const resaver = !editor ? (match(RESAVERS, both) ?? (writer ? "qpdf" : undefined)) : undefined;
  const converter = !editor && !resaver ? match(CONVERTERS, both) : undefined;
  if (editor) out.push({ code: "producer_editor", severity: "warn", detail: `The PDF was last written by ${editor} ("${shown(info)}"), a document editor rather than a bank's statement system.` });
  else if (resaver) out.push({ code: "producer_resaver", severity: "warn", detail: `The PDF was rewritten by ${resaver}${match(RESAVERS, both) ? ` ("${shown(info)}")` : " (its header comment; the producer string is the original's)"}, a tool that re-saves existing PDFs.` });
  else if (converter) out.push({ code: "producer_converter", severity: "info", detail: `The PDF was made by ${converter} ("${shown(info)}"), a converter rather than a bank's statement system.` });
  if (info.created_at && info.modified_at) {
    const gap = (Date.parse(info.modified_at) - Date.parse(info.created_at)) / 60_000;
    if (gap > SAME_SAVE_MINUTES) {
      out.push({ code: "modified_after_creation", severity: "info", detail: `The PDF says it was modified ${describeGap(gap)} after it was created (${info.created_at} → ${info.modified_at}).` });
    }
  }
  return out;
}

const shown = (info: InfoFacts) => [...new Set([info.producer, info.creator, ...info.xmp_tools])].filter((s) => s !== "").join(" / ");

function describeGap(minutes: number): string {
  if (minutes < 120) return `${Math.round(minutes)} minutes`;
  if (minutes < 2 * 24 * 60) return `${Math.round(minutes / 60)} hours`;
  return `${Math.round(minutes / (24 * 60))} days`;
}
