import type { InflatedStreams } from "../guards/pdf.ts";
import { pdfCrypt } from "../guards/pdf-crypt.ts";
import type { PdfDocument } from "../pdf/extract.ts";
import { coveredText } from "./overlay.ts";
import { indexObjects, type ObjectIndex } from "./objects.ts";
import { fontMemo, type RawPage, rawPages, resourceFonts } from "./page-tree.ts";
import type { ByteFacts, InfoFacts, UpdateFacts } from "./types.ts";

/**
 * The document-level facts: the information dictionary (through pdf.js, which has the document
 * open anyway and decrypts its strings) and what the raw bytes say about saves, fonts and drawn
 * content. Read once per document, in the task that plans or parses it whole.
 */

const EMPTY_INFO: InfoFacts = { producer: "", creator: "", created_at: null, modified_at: null, xmp_tools: [] };

/** XMP properties naming the tool that wrote the file (pdf.js lowercases element names). */
const XMP_TOOLS = ["pdf:producer", "xmp:creatortool"];

export async function readInfo(doc: PdfDocument): Promise<InfoFacts> {
  try {
    const meta = await doc.getMetadata();
    const info = meta.info as Record<string, unknown> | undefined;
    const text = (k: string) => (typeof info?.[k] === "string" ? (info[k] as string).trim() : "");
    const xmp = XMP_TOOLS.map((k) => meta.metadata?.get(k)).filter((v): v is string => typeof v === "string" && v.trim() !== "");
    return { producer: text("Producer"), creator: text("Creator"), created_at: pdfDate(text("CreationDate")), modified_at: pdfDate(text("ModDate")), xmp_tools: xmp.map((v) => v.trim()) };
  } catch {
    return EMPTY_INFO;
  }
}

/**
 * A PDF date (`D:YYYYMMDDHHmmSSOHH'mm'`, ISO 32000-1 7.9.4; every part after the year optional)
 * as ISO 8601 with its offset; a date without an offset is taken as UTC. Null when unreadable.
 */
export function pdfDate(raw: string): string | null {
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:([Zz])|([+-])(\d{2})'?(\d{2})?'?)?/.exec(raw.trim());
  if (!m) return null;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", z, sign, oh, om = "00"] = m;
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  // No offset (or Z) is read as UTC, as pdf.js does.
  const offset = !z && sign && oh ? `${sign}${oh}:${om}` : "Z";
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`;
}

/**
 * Byte-level facts: incremental updates and which pages' content they replace, fonts per page,
 * and filled rectangles painted over text. `maxPages` bounds the page walk (the guard already
 * refused documents with more); `objectStreams` are the ones the guard inflated (its report), so
 * they are not inflated twice.
 */
export function byteFacts(bytes: Uint8Array, opts: { password?: string; maxPages: number; objectStreams?: InflatedStreams }): ByteFacts {
  const crypt = pdfCrypt(bytes, opts.password);
  const index = indexObjects(bytes, crypt, opts.objectStreams);
  const pages = rawPages(index, opts.maxPages);
  const memo = fontMemo();
  const updates = updateFacts(index, pages);
  const writer = writerFingerprint(bytes);
  return {
    ...(writer ? { writer } : {}),
    incremental_updates: updates.length,
    updates,
    fonts_per_page: pages.map((p) => ({ page: p.number, fonts: resourceFonts(index, p.resources, memo) })),
    covered: crypt.kind === "locked" ? [] : coveredText(index, pages, new Set(updates.flatMap((u) => u.contentPages))),
    partial: crypt.kind === "locked" || pages.length === 0,
  };
}

function updateFacts(index: ObjectIndex, pages: RawPage[]): UpdateFacts[] {
  const out: UpdateFacts[] = [];
  for (let k = index.originalSections; k < index.sections.length; k++) {
    const defined = index.sections[k]!;
    if (defined.size === 0) continue;
    const contentPages = pages.filter((p) => p.contents.some((c) => defined.has(c)) || drawsDefinedForm(p, defined)).map((p) => p.number);
    const signature = Buffer.from(index.sectionBytes[k]!).includes("/ByteRange");
    out.push({ index: out.length + 1, objects: defined.size, contentPages, signature });
  }
  return out;
}

/** The page's resources name a form XObject the update (re)defines: what the page draws changed. */
function drawsDefinedForm(page: RawPage, defined: Set<number>): boolean {
  return [...page.resources.xobjects.values()].some((num) => defined.has(num));
}

/** qpdf writes this binary comment as the header's second line (a bank's generator does not). */
const QPDF_COMMENT = Buffer.from([0x25, 0xbf, 0xf7, 0xa2, 0xfe]);

function writerFingerprint(bytes: Uint8Array): ByteFacts["writer"] {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 64));
  if (head.includes("%QDF-1.0")) return "qdf";
  return head.includes(QPDF_COMMENT) ? "qpdf" : undefined;
}
