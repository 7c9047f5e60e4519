import { AppError, layoutUnrecognized, scannedDocument } from "../errors.ts";
import { FORMAT_VERSION } from "../version.ts";
import type { BankProfile } from "./banks/profile.ts";
import { detectBank, profileById } from "./banks/detect.ts";
import { detectionInput } from "./banks/zones.ts";
import { type Line, pageLines, sheetLines } from "./layout/lines.ts";
import { stitchBrokenDates } from "./layout/stitch.ts";
import { accountScrubber } from "./metadata/index.ts";
import { emptySection, type ReadSection, readSection, type SectionScan, scanSection } from "./sections/read.ts";
import { checkAcrossSections } from "./sections/combined.ts";
import { splitSections } from "./sections/split.ts";
import type { ExtractedDocument, ParseResponse } from "./types.ts";
import { settleVerdict } from "./verdict.ts";
import { settleWholeCustomerFigures } from "./whole-customer.ts";

/** Lines of the whole document in reading order. */
export function documentLines(doc: ExtractedDocument): Line[] {
  if (doc.kind === "pdf") return doc.pages.flatMap(pageLines);
  return doc.sheets.flatMap((s, i) => sheetLines(s, i));
}

/**
 * PURE: an extracted document to a ParseResponse. Throws layout_unrecognized when no transaction
 * table is found and empty_statement when the table has no rows, both with the marker coverage.
 */
export function assembleStatement(doc: ExtractedDocument, opts: { bank?: string } = {}): ParseResponse {
  // Also checked here for callers that extracted the pages themselves.
  if (doc.kind === "pdf" && doc.pages.length > 0 && doc.pages.every((p) => p.items.length === 0)) throw scannedDocument();
  return assembleLines(documentLines(doc), doc.producer, opts);
}

/**
 * PURE: assembleStatement over the document's lines already built (pageLines of each page, in
 * page order), so a large PDF's lines can be built in parallel, a page range per worker.
 * Each account section (sections/split.ts) is read as a statement of its own; the top level
 * describes the first, `accounts` lists them all in print order.
 */
export function assembleLines(pageLinesInOrder: Line[], producer: string, opts: { bank?: string } = {}): ParseResponse {
  return assembleScans(splitSections(stitchBrokenDates(pageLinesInOrder)).map(scanSection), producer, opts);
}

/** PURE: assembleLines from the account sections' tables once scanned (engine/parallel/ scans one in parts). */
export function assembleScans(scans: SectionScan[], producer: string, opts: { bank?: string } = {}): ParseResponse {
  const primaryScan = scans[0]!;
  // Every section's letterhead, summary and footers (never its rows) and the headings, once each.
  const zones = scans.map((s) => detectionInput(s.scan, producer));
  const detection = detectBank({ text: zones.map((z) => z.text).join("\n"), headings: zones.map((z) => z.headings).join("\n"), producer });
  let profile: BankProfile | null = detection.profile;
  if (opts.bank) {
    const chosen = profileById(opts.bank);
    if (!chosen && opts.bank !== "unknown") throw new AppError("validation_error", 422, `Unknown bank "${opts.bank}"; see GET /v1/banks`);
    profile = chosen ?? null;
  }
  const coverage = detection.markerCoverage;
  if (!primaryScan.scan.columns) throw layoutUnrecognized("No transaction table was found in the document", coverage);

  const first = readSection(primaryScan, { profile, coverage });
  const read: ReadSection[] = [first];
  for (const s of scans.slice(1)) {
    const ctx = { profile, coverage, primary: first.facts, primaryPeriod: [first.section.metadata.statement_period_start, first.section.metadata.statement_period_end] as [string, string] };
    read.push(!s.scan.columns || s.scan.rows.length === 0 ? emptySection(s, ctx) : readOrEmpty(s, ctx));
  }
  if (read.length > 1) {
    first.section.checks.notes.push(`The document holds ${read.length} account sections; each was read on its own (see accounts).`);
    maskEveryAccount(read);
    checkAcrossSections(read);
    settleWholeCustomerFigures(read.map((r) => r.section));
  }
  for (const r of read) {
    r.section.checks.marker_coverage = coverage;
    // Stages after a section's own reconcile may have added checks or assumptions.
    settleVerdict(r.section);
  }
  return { format_version: FORMAT_VERSION, ...first.section, accounts: read.map((r) => r.section) };
}

/** A later section whose rows all turn out to be opening/closing lines is an empty section, not a failed parse. */
function readOrEmpty(s: SectionScan, ctx: Parameters<typeof emptySection>[1]): ReadSection {
  try {
    return readSection(s, ctx);
  } catch (e) {
    if (e instanceof AppError && e.errorClass === "empty_statement") return emptySection(s, ctx);
    throw e;
  }
}

/** A wallet row may name the savings account's full number ("Auto-save to 5120448093"): every section's number is masked everywhere. */
function maskEveryAccount(read: ReadSection[]): void {
  const scrubbers = [...new Set(read.map((r) => r.facts.accountNumber).filter((n): n is string => n !== null))].map(accountScrubber);
  const scrub = (text: string, field?: "reference") => scrubbers.reduce((t, f) => f(t, field), text);
  for (const r of read) {
    r.section.metadata.account_holder = scrub(r.section.metadata.account_holder);
    r.section.transactions = r.section.transactions.map((t) => ({ ...t, narration: scrub(t.narration), reference: scrub(t.reference, "reference") }));
  }
}
