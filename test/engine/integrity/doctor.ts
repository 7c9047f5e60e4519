/**
 * Ways a statement gets doctored, each done the way the tools people use do it: pdf-lib drawing
 * over a page (as online editors do), a content-stream edit that deletes a figure's glyphs, a page
 * copied in from another document, and an incremental update appended by hand (as "edit and save"
 * in Acrobat-style editors writes it).
 */
import { inflateSync } from "node:zlib";
import { decodePDFRawStream, PDFArray, PDFDocument, PDFName, PDFRawStream, PDFRef, rgb, StandardFonts } from "pdf-lib";

const SAVE = { useObjectStreams: false } as const;

/** `stamp`: let pdf-lib write its own Producer and ModDate, as it does unless told not to. */
export interface Stamp {
  stamp?: boolean;
}

export interface Draw {
  page?: number;
  /** pdf-lib coordinates: x of the text's right edge (figures are right-aligned), baseline y. */
  right: number;
  y: number;
  text: string;
  size?: number;
  font?: StandardFonts;
  /** Paint a white box over [right - width, right] first (hiding what was there). */
  whiteBox?: { width: number };
}

/** Draws text (and optionally a white box under it) on top of the page, as a PDF editor does. */
export async function drawOver(bytes: Uint8Array, d: Draw, opts: Stamp = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: opts.stamp ?? false });
  const page = doc.getPage(d.page ?? 0);
  const font = await doc.embedFont(d.font ?? StandardFonts.Helvetica);
  const size = d.size ?? 8;
  if (d.whiteBox) page.drawRectangle({ x: d.right - d.whiteBox.width, y: d.y - 3, width: d.whiteBox.width, height: size + 5, color: rgb(1, 1, 1) });
  page.drawText(d.text, { x: d.right - font.widthOfTextAtSize(d.text, size), y: d.y, size, font });
  return doc.save(SAVE);
}

/**
 * Deletes the glyphs of `text` (drawn in Helvetica by the generator) from the page's content
 * stream, then types `replacement` where it was in another font: the figure is "edited" without
 * anything left underneath.
 */
export async function retype(bytes: Uint8Array, text: string, d: Draw, opts: Stamp = {}): Promise<Uint8Array> {
  return drawOver(await replaceInContent(bytes, text, "", d.page), d, opts);
}

/**
 * Replaces the glyphs of `text` in the page's content stream by those of `replacement` (both in
 * the generator's Helvetica), in place: the new figure starts where the old one did, as a hand
 * edit of the content stream (qpdf --qdf and a text editor) leaves it.
 */
export async function editInPlace(bytes: Uint8Array, text: string, replacement: string, page = 0): Promise<Uint8Array> {
  return replaceInContent(bytes, text, replacement, page);
}

async function replaceInContent(bytes: Uint8Array, text: string, replacement: string, pageIndex = 0): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const page = doc.getPage(pageIndex);
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  const hex = helvetica.encodeText(text).toString();
  const by = replacement === "" ? "" : `${helvetica.encodeText(replacement).toString()} Tj`;
  const ref = page.node.get(PDFName.of("Contents"));
  const refs = ref instanceof PDFArray ? ref.asArray() : [ref];
  let found = false;
  for (const r of refs) {
    const stream = doc.context.lookup(r as PDFRef);
    if (!(stream instanceof PDFRawStream)) continue;
    const content = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
    if (!content.includes(`${hex} Tj`)) continue;
    found = true;
    doc.context.assign(r as PDFRef, doc.context.flateStream(content.replace(`${hex} Tj`, by)));
  }
  if (!found) throw new Error(`"${text}" not found in the page's content`);
  return doc.save(SAVE);
}

/** Appends page `from` of another document, as merging tools do. */
export async function appendPageFrom(bytes: Uint8Array, other: Uint8Array, from = 0): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const src = await PDFDocument.load(other, { updateMetadata: false });
  const [page] = await doc.copyPages(src, [from]);
  doc.addPage(page!);
  return doc.save(SAVE);
}

export async function withInfo(bytes: Uint8Array, info: { producer?: string; creator?: string; modified?: Date }): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  if (info.producer !== undefined) doc.setProducer(info.producer);
  if (info.creator !== undefined) doc.setCreator(info.creator);
  if (info.modified) doc.setModificationDate(info.modified);
  return doc.save(SAVE);
}

/** Adds an XMP metadata stream naming `tool` (as pdf:Producer and xmp:CreatorTool), the Info dictionary left alone. */
export async function withXmpTool(bytes: Uint8Array, tool: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const xml = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><pdf:Producer>${tool}</pdf:Producer><xmp:CreatorTool>${tool}</xmp:CreatorTool></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  const stream = doc.context.stream(xml, { Type: "Metadata", Subtype: "XML" });
  doc.catalog.set(PDFName.of("Metadata"), doc.context.register(stream));
  return doc.save(SAVE);
}

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");

/**
 * Appends an incremental update (new objects, an xref section and a trailer with /Prev) to a file
 * with a classic cross-reference table, leaving every original byte in place.
 */
export function appendUpdate(bytes: Uint8Array, objects: { num: number; body: string }[]): Uint8Array {
  const text = latin1(bytes);
  const prev = Number([...text.matchAll(/startxref\s+(\d+)/g)].at(-1)![1]);
  const trailer = [...text.matchAll(/trailer\s*<<([\s\S]*?)>>\s*startxref/g)].at(-1)![1]!;
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(trailer)![1];
  const info = /\/Info\s+(\d+\s+\d+\s+R)/.exec(trailer)?.[1];
  const size = Math.max(Number(/\/Size\s+(\d+)/.exec(trailer)![1]), ...objects.map((o) => o.num + 1));
  let out = text.endsWith("\n") ? text : `${text}\n`;
  const offsets = new Map<number, number>();
  for (const o of objects) {
    offsets.set(o.num, out.length);
    out += `${o.num} 0 obj\n${o.body}\nendobj\n`;
  }
  const xrefAt = out.length;
  out += "xref\n";
  for (const [num, at] of [...offsets].sort((a, b) => a[0] - b[0])) out += `${num} 1\n${String(at).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${size} /Root ${root}${info ? ` /Info ${info}` : ""} /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, "latin1"));
}

/** Page 1's last content stream: object number, decoded content, and its Helvetica font's resource name. */
export async function firstPageContent(bytes: Uint8Array): Promise<{ num: number; content: string; font: string; encode: (s: string) => string }> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const page = doc.getPage(0);
  const contents = page.node.get(PDFName.of("Contents"));
  // The last stream of the page: what the update redefines is drawn last.
  const ref = contents instanceof PDFArray ? contents.asArray().at(-1) : contents;
  if (!(ref instanceof PDFRef)) throw new Error("expected a content stream reference");
  const stream = doc.context.lookup(ref) as PDFRawStream;
  const content = latin1(inflateSync(stream.contents));
  const font = /\/(Helvetica-\d+)\s+[\d.]+\s+Tf/.exec(content)![1]!;
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  return { num: ref.objectNumber, content, font, encode: (s) => helvetica.encodeText(s).toString() };
}

/** An uncompressed stream object body. */
export const streamBody = (content: string) => `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`;
