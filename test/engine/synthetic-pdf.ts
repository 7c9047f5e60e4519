import { degrees, PDFDocument, type PDFFont, type PDFPage, StandardFonts } from "pdf-lib";

/** One text placement: left-aligned at x, or right-aligned to r; `top` in points from the page top. */
export type Put = ({ x: number; t: string } | { r: number; t: string }) & { rotate?: number; size?: number };

export interface SyntheticPage {
  lines: { top: number; puts: Put[]; size?: number }[];
}

/** Builds a real PDF (Helvetica, WinAnsi text) with pdf-lib, so tests run the whole pdfjs path. */
export async function buildPdf(pages: SyntheticPage[], opts: { producer?: string; width?: number; height?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setProducer(opts.producer ?? "synthetic test");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const p of pages) {
    const page = doc.addPage([opts.width ?? 595, opts.height ?? 842]);
    for (const line of p.lines) for (const put of line.puts) draw(page, font, put, line.top, line.size ?? 8);
  }
  return doc.save();
}

function draw(page: PDFPage, font: PDFFont, put: Put, top: number, size: number): void {
  const width = font.widthOfTextAtSize(put.t, put.size ?? size);
  const x = "x" in put ? put.x : put.r - width;
  // The baseline sits about 0.8 em below the top of the line.
  const s = put.size ?? size;
  page.drawText(put.t, { x, y: page.getHeight() - top - s * 0.8, size: s, font, ...(put.rotate ? { rotate: degrees(put.rotate) } : {}) });
}

/** A page with a filled rectangle and no text at all (what a scan looks like to a text extractor). */
export async function buildImageOnlyPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawRectangle({ x: 50, y: 50, width: 400, height: 600 });
  return doc.save();
}
