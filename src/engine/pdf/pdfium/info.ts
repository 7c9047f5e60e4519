/**
 * The integrity facts' information-dictionary part (InfoFacts) for a document open in PDFium, the
 * same values readInfo (../../integrity/facts.ts) gets from pdf.js: the Info strings through
 * FPDF_GetMetaText (decrypted and decoded by PDFium as by pdf.js), and the tools the XMP metadata
 * stream names. PDFium has no call for the XMP stream, so it is read from the bytes with the
 * integrity scan's object index (which decrypts with the password) and searched for the two
 * properties pdf.js's metadata parser would report.
 */
import { pdfCrypt } from "../../guards/pdf-crypt.ts";
import { readObject } from "../../guards/pdf-object.ts";
import { pdfDate } from "../../integrity/facts.ts";
import { dictOf, indexObjects, nameOf } from "../../integrity/objects.ts";
import type { InfoFacts } from "../../integrity/types.ts";
import type { PdfiumDocument } from "./document.ts";

/** "Producer / Creator" as pdfProducer (../extract.ts) builds it. */
export function pdfiumProducer(doc: PdfiumDocument): string {
  // Title, subject and author go with them: bank detection reads this string, and a logo-only
  // letterhead's bank may be named only there ("Kuda Statement").
  return ["Producer", "Creator", "Title", "Subject", "Author"].map((k) => doc.metaText(k)).filter((v) => v !== "").join(" / ");
}

export function pdfiumInfo(doc: PdfiumDocument, bytes: Uint8Array, password?: string): InfoFacts {
  const text = (k: string) => doc.metaText(k).trim();
  return { producer: text("Producer"), creator: text("Creator"), created_at: pdfDate(text("CreationDate")), modified_at: pdfDate(text("ModDate")), xmp_tools: xmpTools(bytes, password) };
}

/** XMP properties naming the tool that wrote the file, in readInfo's order. */
const XMP_TOOLS = ["pdf:producer", "xmp:creatortool"];
/** Largest XMP packet read (a statement's is a few KB). */
const MAX_XMP_BYTES = 1024 * 1024;

/**
 * pdf:Producer and xmp:CreatorTool of the catalog's /Metadata stream, as pdf.js reports them: an
 * element (not an attribute) of an rdf:Description, its text content trimmed, the last one of a
 * name winning; empty values left out.
 */
export function xmpTools(bytes: Uint8Array, password?: string): string[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // pdf.js reads the stream only if its dictionary says /Type /Metadata, and a stream's dictionary
  // is never inside a (compressed) object stream nor encrypted: without those bytes there is no
  // packet, and the index (40-80 ms on the bench's 2,000-page file) is not built.
  if (!buf.includes("/Metadata")) return [];
  try {
    const index = indexObjects(bytes, pdfCrypt(bytes, password));
    const xmp = metadataStream(buf, bytes, index);
    if (!xmp || xmp.byteLength > MAX_XMP_BYTES) return [];
    const xml = Buffer.from(xmp).toString("utf8");
    const found = new Map<string, string>();
    for (const m of xml.matchAll(/<(pdf:producer|xmp:creatortool)(?:\s[^>]*)?>([\s\S]*?)<\/\1\s*>/gi)) {
      found.set(m[1]!.toLowerCase(), decodeEntities(m[2]!.replace(/<[^>]*>/g, "")).trim());
    }
    return XMP_TOOLS.map((k) => found.get(k)).filter((v): v is string => v !== undefined && v !== "");
  } catch {
    return [];
  }
}

/** The decoded /Metadata stream of the catalog named by the last /Root that reads as a reference. */
function metadataStream(buf: Buffer, bytes: Uint8Array, index: ReturnType<typeof indexObjects>): Uint8Array | undefined {
  for (let at = buf.lastIndexOf("/Root"); at >= 0; at = at > 0 ? buf.lastIndexOf("/Root", at - 1) : -1) {
    const root = readObject(bytes, at + 5);
    if (root?.t !== "ref") continue;
    const meta = dictOf(index.value(root.num))?.get("Metadata");
    if (meta?.t !== "ref") return undefined;
    // pdf.js reads it only when it says what it is (catalog.js: /Type /Metadata, /Subtype /XML).
    const dict = dictOf(index.value(meta.num));
    return nameOf(dict?.get("Type")) === "Metadata" && nameOf(dict?.get("Subtype")) === "XML" ? index.streamData(meta.num) : undefined;
  }
  return undefined;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (all, e: string) => {
    if (e[0] !== "#") return ENTITIES[e.toLowerCase()] ?? all;
    const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}
