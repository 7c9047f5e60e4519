import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFStream, PDFString, type PDFObject, type PDFPage } from "pdf-lib";
import { AppError, scannedDocument, unsupportedFormat } from "../../errors.ts";
import { formatOperand, latin1, type Operand } from "./content-lexer.ts";
import { buildMatchers, detectPii, findHits, findSpans, replaceSpans, textContainsPii, type KnownPii, type Matcher, type PiiValues, type RunHit } from "./find.ts";
import { IDENTITY, interpret, unitFromBytes, type Box, type ContentUnit, type InterpretContext, type PlacedGlyph } from "./interpret.ts";
import { ContentBudget } from "./budget.ts";
import { cutFor, unionBox } from "./pdf-cuts.ts";
import { scrubDocument, scrubStrings } from "./pdf-scrub.ts";
import { readPdfRuns, type PageRuns } from "./pdf-text.ts";
import { rewriteUnit, unitChanged } from "./rewrite.ts";
import { isEncrypted, loadDecrypted } from "./decrypt.ts";
import { decodeStream } from "./stream-data.ts";

export interface PdfRedaction {
  bytes: Uint8Array;
  redactions: number;
  /** Parts of the document that could not be examined (streams with unsupported filters). */
  warnings: string[];
}

// Every verification that still finds personal data in the output triggers one more pass over the
// output; a document that still leaks after this many passes is refused rather than returned.
const MAX_PASSES = 3;

export async function loadForEditing(bytes: Uint8Array, password: string | undefined): Promise<PDFDocument> {
  try {
    // pdf.js opened it (no user password, or the right one); pdf-lib needs it decrypted.
    if (isEncrypted(bytes)) return await loadDecrypted(bytes, password ?? "");
    return await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw unsupportedFormat(`The PDF could not be rewritten: ${(e as Error).message}`);
  }
}

interface PageWork {
  page: PDFPage;
  unit?: ContentUnit;
  glyphs: PlacedGlyph[];
  boxes: Box[];
}

/** Reads a page's content streams as one unit (operators may span stream boundaries). */
function pageUnit(page: PDFPage, index: number, ctx: InterpretContext): ContentUnit | undefined {
  const contents = page.node.Contents();
  const streams: PDFObject[] = contents instanceof PDFArray ? contents.asArray().map((r) => page.doc.context.lookup(r) ?? r) : contents ? [contents] : [];
  const parts: Uint8Array[] = [];
  for (const s of streams) {
    if (!(s instanceof PDFStream)) continue;
    const d = decodeStream(s);
    if (!("bytes" in d)) {
      ctx.skipped.push(`page ${index + 1} contents: ${d.unsupported}`);
      return undefined;
    }
    parts.push(d.bytes, Uint8Array.of(0x0a));
  }
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    joined.set(p, o);
    o += p.length;
  }
  return unitFromBytes(`page:${index}`, joined, undefined, undefined, ctx.budget);
}

function fmt(n: number): string {
  return (Math.round(n * 1000) / 1000).toString();
}

/** Strings of an annotation that viewers show or extract. */
function annotationStrings(annot: PDFDict): string[] {
  const out: string[] = [];
  for (const key of ["Contents", "T", "TU", "V", "RC", "DV"]) {
    const v = annot.lookup(PDFName.of(key));
    if (v instanceof PDFString || v instanceof PDFHexString) out.push(v.decodeText());
  }
  return out;
}

function appearanceStreams(annot: PDFDict): PDFStream[] {
  const ap = annot.lookup(PDFName.of("AP"));
  if (!(ap instanceof PDFDict)) return [];
  const out: PDFStream[] = [];
  for (const key of ["N", "R", "D"]) {
    const v = ap.lookup(PDFName.of(key));
    if (v instanceof PDFStream) out.push(v);
    else if (v instanceof PDFDict) for (const [, s] of v.entries()) {
      const st = ap.context.lookup(s);
      if (st instanceof PDFStream) out.push(st);
    }
  }
  return out;
}

/**
 * Removes annotations (form fields, comments, stamps) whose text or appearance carries personal
 * data: pdf.js does not report their text, so they are judged on their own and removed whole.
 */
function removePiiAnnotations(doc: PDFDocument, matchers: Matcher[], ctx: InterpretContext): number {
  let removed = 0;
  const removedRefs = new Set<string>();
  doc.getPages().forEach((page) => {
    const annots = page.node.Annots();
    if (!annots) return;
    const keep: PDFObject[] = [];
    for (const raw of annots.asArray()) {
      const annot = doc.context.lookup(raw);
      if (!(annot instanceof PDFDict)) {
        keep.push(raw);
        continue;
      }
      const texts = annotationStrings(annot);
      for (const ap of appearanceStreams(annot)) {
        const d = decodeStream(ap);
        if (!("bytes" in d)) continue;
        let text = "";
        const res = ap.dict.lookup(PDFName.of("Resources"));
        interpret(unitFromBytes("annotation", d.bytes, undefined, undefined, ctx.budget), res instanceof PDFDict ? res : undefined, IDENTITY, { ...ctx, units: new Map() }, (g) => {
          text += g.text;
        });
        texts.push(text);
      }
      if (texts.some((t) => textContainsPii(t, matchers))) {
        removed++;
        removedRefs.add(raw.toString());
      } else keep.push(raw);
    }
    if (keep.length !== annots.size()) page.node.set(PDFName.of("Annots"), doc.context.obj(keep));
  });
  // Form fields that were removed from the pages go from the AcroForm too.
  const acro = doc.catalog.lookup(PDFName.of("AcroForm"));
  const fields = acro instanceof PDFDict ? acro.lookup(PDFName.of("Fields")) : undefined;
  if (fields instanceof PDFArray && removedRefs.size > 0 && acro instanceof PDFDict) {
    acro.set(PDFName.of("Fields"), doc.context.obj(fields.asArray().filter((f) => !removedRefs.has(f.toString()))));
  }
  return removed;
}

/** A marked-content property dictionary with personal data taken out of its strings, or undefined. */
function cleanProperties(o: Operand, matchers: Matcher[]): Operand | undefined {
  if (o.kind === "string") {
    // Text strings are PDFDocEncoding (close enough to latin-1 here) or UTF-16BE with a BOM.
    const utf16 = o.bytes[0] === 0xfe && o.bytes[1] === 0xff;
    const text = utf16 ? new TextDecoder("utf-16be").decode(o.bytes.subarray(2)) : latin1(o.bytes);
    const out = replaceSpans(text, matchers)?.text;
    if (out === undefined) return undefined;
    const bytes = utf16
      ? Uint8Array.from([0xfe, 0xff, ...[...out].flatMap((c) => [...c].flatMap((_, i) => [c.charCodeAt(i) >> 8, c.charCodeAt(i) & 0xff]))])
      : Uint8Array.from(out, (c) => c.charCodeAt(0) & 0xff);
    return { kind: "string", bytes };
  }
  if (o.kind === "dict") {
    let changed = false;
    const entries = new Map<string, Operand>();
    for (const [k, v] of o.entries) {
      const c = cleanProperties(v, matchers);
      changed ||= c !== undefined;
      entries.set(k, c ?? v);
    }
    return changed ? { kind: "dict", entries } : undefined;
  }
  if (o.kind === "array") {
    let changed = false;
    const items = o.items.map((v) => {
      const c = cleanProperties(v, matchers);
      changed ||= c !== undefined;
      return c ?? v;
    });
    return changed ? { kind: "array", items } : undefined;
  }
  return undefined;
}

/**
 * /ActualText, /Alt and /E in inline marked-content properties (BDC, DP) are what some extractors
 * (poppler) print instead of the glyphs: personal data is taken out of them too.
 */
function scrubMarkedContent(unit: ContentUnit, matchers: Matcher[]): number {
  let n = 0;
  unit.ops.forEach((op, i) => {
    if ((op.operator !== "BDC" && op.operator !== "DP") || op.operands.length < 2) return;
    const cleaned = cleanProperties(op.operands[1]!, matchers);
    if (!cleaned) return;
    unit.replacements.set(i, `${formatOperand(op.operands[0]!)} ${formatOperand(cleaned)} ${op.operator}`);
    n++;
  });
  return n;
}

/** Separates text that is not one phrase (another line, another column): never part of a match. */
const BREAK = "\u241e";

/** Glyph groups of a page whose text, read in drawing order, matches a personal-data rule. */
function glyphMatches(glyphs: PlacedGlyph[], matchers: Matcher[]): PlacedGlyph[][] {
  let text = "";
  const at: number[] = [];
  glyphs.forEach((g, i) => {
    const prev = glyphs[i - 1];
    if (prev) {
      const size = Math.max(1, prev.box.y1 - prev.box.y0);
      const gap = g.box.x0 - prev.box.x1;
      const sameLine = Math.abs(g.origin[1] - prev.origin[1]) < 0.3 * size;
      const sep = !sameLine || gap < -0.5 * size || gap > 2 * size ? BREAK : gap > 0.2 * size ? " " : "";
      for (const c of sep) {
        text += c;
        at.push(-1);
      }
    }
    for (const c of g.text || "\ufffd") {
      text += c;
      for (let k = 0; k < c.length; k++) at.push(i);
    }
  });
  return findSpans(text, matchers).map((sp) => [...new Set(at.slice(sp.start, sp.end).filter((i) => i >= 0))].map((i) => glyphs[i]!));
}

/** How many q operators a content stream leaves without their Q. */
function openSaves(unit: ContentUnit): number {
  let depth = 0;
  for (const op of unit.ops) {
    if (op.operator === "q") depth++;
    else if (op.operator === "Q") depth = Math.max(0, depth - 1);
  }
  return depth;
}

function markCut(glyphs: PlacedGlyph[]): void {
  for (const g of glyphs) {
    let set = g.unit.cuts.get(g.op);
    if (!set) g.unit.cuts.set(g.op, (set = new Set()));
    set.add(g.index);
  }
}

/** One pass: cut the glyphs of `hits` from `bytes`; returns the new bytes and the occurrences cut. */
async function redactPass(
  bytes: Uint8Array,
  password: string | undefined,
  hits: RunHit[],
  matchers: Matcher[],
  warnings: string[],
): Promise<{ bytes: Uint8Array; count: number }> {
  const doc = await loadForEditing(bytes, password);
  // Each pass builds its own objects (the last pass's are garbage by then): a budget per pass.
  const ctx: InterpretContext = { units: new Map(), skipped: [], budget: new ContentBudget() };
  const pages: PageWork[] = doc.getPages().map((page, i) => {
    const unit = pageUnit(page, i, ctx);
    const glyphs: PlacedGlyph[] = [];
    if (unit) interpret(unit, page.node.Resources(), IDENTITY, ctx, (g) => glyphs.push(g));
    else {
      // The page's own stream is unreadable, but its forms may still be examined.
      warnings.push(`page ${i + 1}: content stream left as it was`);
    }
    return { page, unit, glyphs, boxes: [] };
  });

  const cutGroups = new Set<number>();
  const byGroup = new Map<string, PlacedGlyph[]>();
  for (const hit of hits) {
    const work = pages[hit.page];
    if (!work) continue;
    const cut = cutFor(work.glyphs, hit);
    markCut(cut.glyphs);
    if (cut.glyphs.length > 0) {
      cutGroups.add(hit.group);
      const key = `${hit.page}:${hit.group}`;
      byGroup.set(key, [...(byGroup.get(key) ?? []), ...cut.glyphs]);
    }
  }
  // Safety net: the same rules over the glyphs as the content streams draw them, for text pdf.js
  // did not report (it gives up on some malformed streams other readers still show).
  let netGroup = 0;
  pages.forEach((work, p) => {
    for (const glyphs of glyphMatches(work.glyphs, matchers)) {
      const fresh = glyphs.filter((g) => !g.unit.cuts.get(g.op)?.has(g.index));
      if (fresh.length === 0) continue;
      markCut(fresh);
      byGroup.set(`${p}:net${netGroup++}`, fresh);
    }
  });

  for (const [key, glyphs] of byGroup) {
    const box = unionBox(glyphs);
    if (box) pages[Number(key.split(":")[0])]!.boxes.push(box);
  }

  let marked = 0;
  for (const unit of [...pages.map((p) => p.unit), ...ctx.units.values()]) if (unit) marked += scrubMarkedContent(unit, matchers);

  // Forms are rewritten in place (same object number), so every user sees the cut version.
  for (const unit of ctx.units.values()) {
    if (!unitChanged(unit) || !unit.ref || !unit.stream) continue;
    const replacement = doc.context.flateStream(rewriteUnit(unit));
    for (const [k, v] of unit.stream.dict.entries()) {
      if (!["Length", "Filter", "DecodeParms"].includes(k.decodeText())) replacement.dict.set(k, v);
    }
    doc.context.assign(unit.ref, replacement);
  }

  for (const work of pages) {
    const changed = work.unit !== undefined && unitChanged(work.unit);
    if (work.boxes.length === 0 && !changed) continue;
    const contents: PDFObject[] = [];
    if (work.unit && changed) {
      contents.push(doc.context.register(doc.context.flateStream(rewriteUnit(work.unit))));
    } else {
      const old = work.page.node.Contents();
      contents.push(...(old instanceof PDFArray ? old.asArray() : old ? [work.page.node.get(PDFName.of("Contents"))!] : []));
    }
    // The original drawing is wrapped in q/Q so the boxes are drawn in the page's default space.
    const boxes = work.boxes.map((b) => `${fmt(b.x0)} ${fmt(b.y0)} ${fmt(b.x1 - b.x0)} ${fmt(b.y1 - b.y0)} re`).join("\n");
    contents.unshift(doc.context.register(doc.context.flateStream("q\n")));
    // Saves the page left open are closed first, so the boxes are drawn in the default space.
    const unclosed = work.unit ? openSaves(work.unit) : 0;
    contents.push(doc.context.register(doc.context.flateStream(`\n${"Q\n".repeat(unclosed)}Q\nq 0 0 0 rg 0 0 0 RG\n${boxes}\nf\nQ\n`)));
    work.page.node.set(PDFName.of("Contents"), doc.context.obj(contents));
  }

  const annotations = removePiiAnnotations(doc, matchers, ctx);
  warnings.push(...ctx.skipped);
  scrubDocument(doc.context);
  const strings = scrubStrings(doc.context, matchers);
  const out = await doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  return { bytes: out, count: cutGroups.size + netGroup + annotations + strings + marked };
}

function remaining(pages: PageRuns[], values: PiiValues): RunHit[] {
  return findHits(pages, values);
}

/**
 * Redacts a PDF: finds the holder's personal data in the text pdf.js reads, removes the glyphs
 * that draw it from the page and form content streams, covers where it stood with black boxes,
 * drops annotations that carry it, scrubs the metadata, then reads the output again and repeats
 * until nothing is found (or refuses).
 */
export async function redactPdf(bytes: Uint8Array, opts: { password?: string; known?: KnownPii; pages?: PageRuns[] }): Promise<PdfRedaction> {
  // The caller may have read the text already (redactDocument does, to refuse overlong lines early).
  const pages = opts.pages ?? (await readPdfRuns(bytes, opts.password));
  if (pages.length > 0 && pages.every((p) => p.runs.length === 0)) throw scannedDocument();
  const values = detectPii(pages, opts.known);
  const matchers = buildMatchers(values);
  const warnings: string[] = [];
  let hits = findHits(pages, values);
  let current = bytes;
  let count = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    // Only the original may be encrypted; every pass writes an unencrypted document.
    const result = await redactPass(current, pass === 0 ? opts.password : undefined, hits, matchers, warnings);
    current = result.bytes;
    // Later passes only mop up what the first one missed; they are the same occurrences.
    if (pass === 0) count = result.count;
    hits = remaining(await readPdfRuns(current), values);
    if (hits.length === 0) return { bytes: current, redactions: count, warnings: [...new Set(warnings)] };
  }
  // Refused rather than returned with personal data still readable (e.g. text in a content
  // stream whose filter cannot be decoded, or in a font whose codes cannot be mapped).
  throw unsupportedFormat(
    `Personal data in this PDF (${[...new Set(hits.map((h) => h.kind))].join(", ")}) is drawn in a way that cannot be removed${warnings.length ? ` (${warnings[0]})` : ""}; no redacted copy was produced`,
  );
}
