/**
 * Document integrity signals (docs/engine.md, "Integrity signals"): facts are gathered where the document
 * is read (bytes once per document, pages where they are extracted, also in range workers) and
 * judged here, once the statement is assembled.
 */
import type { PageText, ParseResponse } from "../types.ts";
import { misalignedFigures } from "./align.ts";
import { fontOutliers, templateSignals } from "./fonts.ts";
import { textOverText } from "./overlay.ts";
import { producerSignals } from "./producer.ts";
import { tableSignals } from "./table.ts";
import type { DocumentFacts, Integrity, PageFacts } from "./types.ts";
import { updateSignals } from "./updates.ts";
import { verdictOf } from "./verdict.ts";

export { byteFacts, readInfo } from "./facts.ts";
export type { ByteFacts, DocumentFacts, InfoFacts, Integrity, IntegritySignal, PageFacts, Severity, Verdict } from "./types.ts";

/** A page's own facts: its size and what its text layer shows (run per page where pages are read). */
export function pageFacts(page: PageText): PageFacts {
  return { page: page.number, width: page.width, height: page.height, signals: [...textOverText(page), ...fontOutliers(page), ...misalignedFigures(page)] };
}

const SEVERITY_ORDER = { high: 0, warn: 1, info: 2 } as const;

/** The integrity report of a parsed PDF statement. */
export function integrityOf(response: ParseResponse, facts: DocumentFacts): Integrity {
  const pages = [...facts.pages].sort((a, b) => a.page - b.page);
  const signals = [
    ...updateSignals(facts.bytes),
    ...pages.flatMap((p) => p.signals),
    ...templateSignals(pages, facts.bytes.fonts_per_page),
    ...tableSignals(response, facts.info),
    ...producerSignals(facts.info, facts.bytes.writer),
  ].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return {
    verdict: verdictOf(signals),
    signals,
    producer: facts.info.producer,
    creator: facts.info.creator,
    created_at: facts.info.created_at,
    modified_at: facts.info.modified_at,
    incremental_updates: facts.bytes.incremental_updates,
    fonts_per_page: facts.bytes.fonts_per_page,
  };
}

/** Spreadsheets carry none of these facts: the agreed empty report. */
export function sheetIntegrity(): Integrity {
  return { verdict: "no_signals", signals: [], producer: "", creator: "", created_at: null, modified_at: null, incremental_updates: 0, fonts_per_page: [] };
}
