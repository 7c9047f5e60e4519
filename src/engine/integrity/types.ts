/**
 * Document integrity: signs that a statement was changed after the bank's system made it. The
 * public shape (`Integrity`) is the one agreed for the response; the other types are the facts the
 * signals are computed from, gathered where the bytes and pages are read.
 */

export type Severity = "info" | "warn" | "high";
export type Verdict = "no_signals" | "review" | "likely_edited";

export interface IntegritySignal {
  /** Stable code, documented in docs/engine.md ("Integrity signals"). */
  code: string;
  severity: Severity;
  /** One plain sentence saying what was seen. */
  detail: string;
  /** 1-based page the signal is about, when it is about one page. */
  page?: number;
}

export interface Integrity {
  verdict: Verdict;
  signals: IntegritySignal[];
  producer: string;
  creator: string;
  /** ISO 8601 with offset, from the document information dictionary; null when absent or unreadable. */
  created_at: string | null;
  modified_at: string | null;
  /** Incremental updates appended after the first save (a linearised file's first section not counted). */
  incremental_updates: number;
  /** Font names (subset prefix removed) each page uses, from its resources. */
  fonts_per_page: { page: number; fonts: string[] }[];
}

/** What the document information dictionary says (read through pdf.js, which also decrypts it). */
export interface InfoFacts {
  producer: string;
  creator: string;
  created_at: string | null;
  modified_at: string | null;
  /** Tools named by the XMP metadata stream (pdf:Producer, xmp:CreatorTool), which editors rewrite too. */
  xmp_tools: string[];
}

/** One incremental update: which pages' drawn content it replaced. */
export interface UpdateFacts {
  /** 1-based index of the update (1 = the first section appended after the original save). */
  index: number;
  /** Objects the update defines. */
  objects: number;
  /** Pages whose content streams the update (re)defines. */
  contentPages: number[];
  /** The update carries a digital signature (/ByteRange): signing appends one by design. */
  signature: boolean;
}

/** Facts read once per document from its raw bytes (src/engine/integrity/facts.ts). */
export interface ByteFacts {
  incremental_updates: number;
  updates: UpdateFacts[];
  fonts_per_page: { page: number; fonts: string[] }[];
  /** Pages whose later-drawn filled rectangle covers earlier text that new text is drawn over. */
  covered: { page: number; detail: string }[];
  /**
   * A rewriting tool whose fingerprint the file's first bytes carry although the producer string
   * may not say so: "qpdf" (its binary header comment), "qdf" (qpdf's QDF form, for editing by hand).
   */
  writer?: "qpdf" | "qdf";
  /** The structure could not be read in full (encrypted without the key, damaged); facts are partial. */
  partial: boolean;
}

/** Facts of one page, computed where the page's text items are read (range workers included). */
export interface PageFacts {
  page: number;
  width: number;
  height: number;
  signals: IntegritySignal[];
}

/** Everything the document-level step needs besides the parsed statement. */
export interface DocumentFacts {
  info: InfoFacts;
  bytes: ByteFacts;
  pages: PageFacts[];
}
