/**
 * Structural limits checked before a PDF reaches pdf.js. pdf.js has none of its own: a 2 MB file
 * can make it allocate gigabytes, and Bun does not enforce worker heap limits, so these bounds are
 * what keeps one upload from taking the process down. Each is far above what a real statement needs.
 */
export interface PdfGuardLimits {
  /** Most pages the page tree may claim (MAX_PAGES); beyond it: 413 too_many_pages. */
  maxPages: number;
  /** Deepest nesting of arrays and dictionaries in one object. Real files stay under 20; pdf.js recurses per level. */
  maxNestingDepth: number;
  /** Bytes one Flate stream may inflate to. A statement page's content stream is well under 1 MiB; a CJK font ~20 MiB. */
  maxStreamInflatedBytes: number;
  /** Bytes all Flate streams together may inflate to (also bounds the guard's own time: ~0.5 s per GiB). */
  maxInflatedBytes: number;
  /** Compressed streams in one file (a 3,000-page statement has some tens of thousands); each costs the guard a decoder run. */
  maxStreams: number;
  /** Longest chain of form XObjects drawing one another; pdf.js's cost grows faster than the chain. Real files: under 10. */
  maxFormDepth: number;
}

export const PDF_GUARD_DEFAULTS: PdfGuardLimits = {
  maxPages: 3000,
  maxNestingDepth: 256,
  maxStreamInflatedBytes: 64 * 1024 * 1024,
  maxInflatedBytes: 1024 * 1024 * 1024,
  maxStreams: 500_000,
  maxFormDepth: 100,
};

export function pdfGuardLimits(overrides: Partial<PdfGuardLimits> = {}): PdfGuardLimits {
  const limits = { ...PDF_GUARD_DEFAULTS };
  for (const [k, v] of Object.entries(overrides) as [keyof PdfGuardLimits, number | undefined][]) {
    if (v === undefined) continue;
    if (!Number.isInteger(v) || v < 1) throw new TypeError(`options.${k} must be a positive integer`);
    limits[k] = v;
  }
  return limits;
}
