import { payloadTooLarge, tooManyPages, unsupportedFormat } from "../../errors.ts";
import { ascii85Decode, asciiHexDecode, leadingStages, lzwDecode, runLengthDecode, type Stage } from "./filters.ts";
import { countInflated, type InflateCount } from "./inflate.ts";
import { formNestingDepth } from "./forms.ts";
import { type CryptState, pdfCrypt } from "./pdf-crypt.ts";
import { type PdfGuardLimits, pdfGuardLimits } from "./limits.ts";
import { type ObjectStart, type PdfSyntax, scanPdfSyntax, type StreamRef } from "./pdf-syntax.ts";
import type { PageTreeFacts } from "../pdf/page-tree.ts";

export type { PageTreeFacts };

export interface PdfGuardReport {
  pagesCountClaim: number;
  maxDepth: number;
  streams: number;
  /** Bytes the streams decode to (Flate, LZW, RunLength), as counted. */
  inflatedBytes: number;
  javaScript: boolean;
  embeddedFiles: boolean;
  /** "open": encrypted and decrypted for the checks; "locked": encrypted, streams not checked (see below). */
  encryption: CryptState["kind"];
  /** Longest chain of form XObjects drawing one another. */
  formDepth: number;
  /** Page objects and /Pages nodes seen, for balancing a flat page tree (src/engine/pdf/page-tree.ts). */
  pageTree: PageTreeFacts;
  /**
   * Object streams of an unencrypted file that inflated whole (one Flate filter, intact), by where
   * their data starts in the file: the integrity index (integrity/objects.ts) reads these instead
   * of inflating them a second time.
   */
  objectStreams: InflatedStreams;
}

/** Inflated object streams by the offset of their (encoded) data in the file; `end` is where that data ends. */
export type InflatedStreams = Map<number, { end: number; data: Uint8Array }>;

export interface PdfGuardOptions {
  /** The user's password for an encrypted PDF (empty opens most of them). */
  password?: string;
}

/**
 * Checks a PDF before pdf.js opens it: page-tree claim against MAX_PAGES (413 too_many_pages),
 * nesting depth (422 unsupported_format) and what its streams decode to (Flate, LZW, RunLength,
 * and ASCII85/ASCIIHex in front of them), per stream and in total (413 payload_too_large). Object streams are inflated and scanned too, since the page tree
 * and deep nesting can hide in them. JavaScript and embedded files are only reported: text
 * extraction never runs or opens them.
 */
export function guardPdf(bytes: Uint8Array, overrides: Partial<PdfGuardLimits> = {}, options: PdfGuardOptions = {}): Promise<PdfGuardReport> {
  const key = JSON.stringify([overrides, options.password ?? null]);
  const done = guarded.get(bytes);
  if (done && done.key === key && done.length === bytes.byteLength) return done.report;
  const report = guardOnce(bytes, overrides, options);
  guarded.set(bytes, { key, length: bytes.byteLength, report });
  return report;
}

/**
 * Reports (or refusals) of the bytes guarded so far, by the very array guarded: a parse worker
 * guards a document to decide whether to split it and, when it does not, parses it whole, which
 * guards the same array again (a whole scan of the file, ~0.3-1 ms for a small statement). The
 * guard reads the bytes only, so the same array with the same limits gets the same answer; the
 * entry goes with the array.
 */
const guarded = new WeakMap<Uint8Array, { key: string; length: number; report: Promise<PdfGuardReport> }>();

async function guardOnce(bytes: Uint8Array, overrides: Partial<PdfGuardLimits>, options: PdfGuardOptions): Promise<PdfGuardReport> {
  const limits = pdfGuardLimits(overrides);
  const crypt = pdfCrypt(bytes, options.password);
  const pageTree: PageTreeFacts = { pageObjects: [], pagesNodes: [], complete: crypt.kind !== "locked", encrypted: crypt.kind !== "none" };
  const report: PdfGuardReport = { pagesCountClaim: 0, maxDepth: 0, streams: 0, inflatedBytes: 0, javaScript: false, embeddedFiles: false, encryption: crypt.kind, formDepth: 0, pageTree, objectStreams: new Map() };
  const refs = new Map<number, number[]>();
  const forms: number[] = [];
  let refsComplete = true;
  const absorb = (s: PdfSyntax) => {
    if (s.depthExceeded) throw unsupportedFormat(`The PDF nests arrays or dictionaries more than ${limits.maxNestingDepth} levels deep`);
    report.pagesCountClaim = Math.max(report.pagesCountClaim, s.pagesCountClaim);
    report.maxDepth = Math.max(report.maxDepth, s.maxDepth);
    report.streams += s.streamCount;
    if (s.streams.length > limits.maxStreams) throw payloadTooLarge(`The PDF has more than ${limits.maxStreams} compressed streams`);
    report.javaScript ||= s.javaScript;
    for (const [obj, list] of s.refs) {
      const have = refs.get(obj);
      if (have) have.push(...list);
      else refs.set(obj, list);
    }
    forms.push(...s.forms);
    for (const num of s.pageObjects) pageTree.pageObjects.push(num);
    pageTree.pagesNodes.push(...s.pagesNodes);
    pageTree.complete &&= !s.pageObjectsTruncated;
    refsComplete &&= !s.refsTruncated;
    report.embeddedFiles ||= s.embeddedFiles;
    checkPageClaim(report.pagesCountClaim, limits.maxPages);
  };
  const top = scanPdfSyntax(bytes, limits.maxNestingDepth, limits.maxStreams);
  absorb(top);
  // A locked file's streams are ciphertext: pdf.js cannot read them either without the password,
  // and asks for it (422 encrypted_source).
  if (crypt.kind === "locked") return report;
  // Inflated object streams are scanned once, and streams cannot nest inside them, so this ends.
  for (const raw of top.streams) {
    const stream = crypt.kind === "open" && raw.type !== "XRef" && raw.obj ? { ...raw, data: crypt.decrypt(raw.obj.num, raw.obj.gen, raw.data) } : raw;
    const inflated = await inflateStream(stream, limits, report);
    if (!inflated) continue;
    const objects = inflated.data;
    if (inflated.intact && crypt.kind === "none" && stream.filters.length === 1) {
      const start = stream.data.byteOffset - bytes.byteOffset;
      report.objectStreams.set(start, { end: start + stream.data.length, data: objects });
    }
    absorb(scanPdfSyntax(objects, limits.maxNestingDepth, limits.maxStreams, objectStarts(objects, stream)));
  }
  // With references missing (a file with millions of them) the depth could only be underestimated.
  if (refsComplete) {
    report.formDepth = formNestingDepth(refs, forms, limits.maxFormDepth);
    if (report.formDepth > limits.maxFormDepth) throw unsupportedFormat(`The PDF nests form XObjects more than ${limits.maxFormDepth} deep`);
  }
  return report;
}

/** The `num offset` pairs that head an object stream, as absolute offsets into its decoded bytes. */
function objectStarts(data: Uint8Array, stream: StreamRef): ObjectStart[] {
  if (!stream.objStm) return [];
  const { n, first } = stream.objStm;
  if (!Number.isInteger(n) || !Number.isInteger(first) || n < 0 || first < 0 || first > data.length) return [];
  const header = Buffer.from(data.buffer, data.byteOffset, first).toString("latin1");
  const numbers = header.match(/\d+/g) ?? [];
  const starts: ObjectStart[] = [];
  for (let k = 0; k + 1 < numbers.length && starts.length < n; k += 2) starts.push({ num: Number(numbers[k]), at: first + Number(numbers[k + 1]) });
  return starts.sort((a, b) => a.at - b.at);
}

export function checkPageClaim(claim: number, maxPages: number): void {
  if (claim > maxPages) throw tooManyPages(`The PDF's page tree claims ${claim} pages; at most ${maxPages} are accepted`);
}

/**
 * Decodes a stream's filter chain just far enough to know its size, within the per-stream and
 * total limits; returns the bytes of an object stream (to be scanned), nothing otherwise, and
 * whether every stage was an intact Flate stream inflated whole. The chain stops at the first
 * filter pdf.js only applies to images (DCT, JPX, CCITT, JBIG2).
 */
async function inflateStream(stream: StreamRef, limits: PdfGuardLimits, report: PdfGuardReport): Promise<{ data: Uint8Array; intact: boolean } | undefined> {
  const stages = leadingStages(stream.filters);
  let data = stream.data;
  let intact = true;
  for (const [k, stage] of stages.entries()) {
    const remaining = limits.maxInflatedBytes - report.inflatedBytes;
    const limit = Math.min(limits.maxStreamInflatedBytes, remaining);
    const keep = k < stages.length - 1 || stream.type === "ObjStm";
    const r = await decodeStage(stage, data, limit, keep);
    // Shrinking stages (hex, base-85) are not decompression: only growth counts against the budget.
    if (stage !== "asciihex" && stage !== "ascii85") report.inflatedBytes += r.size;
    if (r.overLimit) {
      throw payloadTooLarge(
        limit === remaining
          ? `The PDF's compressed streams inflate to more than ${limits.maxInflatedBytes} bytes`
          : `A compressed stream in the PDF inflates to more than ${limits.maxStreamInflatedBytes} bytes`,
      );
    }
    if (!r.bytes) return undefined;
    data = r.bytes;
    intact &&= stage === "flate" && r.complete === true;
  }
  return stages.length > 0 && stream.type === "ObjStm" ? { data, intact } : undefined;
}

async function decodeStage(stage: Stage, data: Uint8Array, limit: number, keep: boolean): Promise<InflateCount> {
  switch (stage) {
    case "flate":
      return countInflated(data, limit, keep);
    case "lzw": {
      // /EarlyChange is a decode parameter the scan does not read: count both ways, keep the larger.
      const a = lzwDecode(data, limit, keep, 1);
      if (a.overLimit) return a;
      const b = lzwDecode(data, limit, false, 0);
      return b.overLimit || b.size > a.size ? { ...b, ...(keep && !b.overLimit ? { bytes: lzwDecode(data, limit, true, 0).bytes } : {}) } : a;
    }
    case "runlength":
      return runLengthDecode(data, limit, keep);
    case "ascii85":
      return ascii85Decode(data, limit);
    case "asciihex": {
      const bytes = asciiHexDecode(data);
      return { size: bytes.length, overLimit: false, bytes };
    }
  }
}
