import { toCsv } from "../engine/csv.ts";
import type { ParseResponse } from "../engine/types.ts";
import { xlsxOffThread } from "../output/xlsx-pool.ts";
import { jsonBytesHeld, withUtf8 } from "./result-text.ts";
import type { DocumentResult } from "./runner.ts";

export type ParseFormat = "json" | "csv" | "xlsx";

/** What an HTTP answer carries: a parse as a worker made it (its insights included), or the workbook made from it. */
export type Deliverable = DocumentResult | { kind: "xlsx"; bytes: Uint8Array<ArrayBuffer> };

/**
 * A finished parse in another output format, without parsing again: the kept ParseResponse JSON as
 * CSV or XLSX, or a csv job's as JSON. CSV and XLSX are made on request from the kept JSON (not
 * kept themselves, so a job's size in the store stays what it was when it finished). Undefined
 * for a redact job, which has no parse to convert. The workbook is written off the main thread.
 */
export async function resultAs(outcome: DocumentResult, format: ParseFormat): Promise<Deliverable | undefined> {
  if (outcome.kind === "redact") return undefined;
  if (format === "json") return jsonOf(outcome);
  if (format === "csv") {
    if (outcome.kind === "csv") return outcome;
    const json = outcome.json;
    const csv = toCsv(JSON.parse(json) as ParseResponse);
    // Made from bytes, the deliverable keeps them rather than the text just decoded.
    return outcome.utf8 ? withUtf8({ kind: "csv" as const, csv }, outcome.utf8) : { kind: "csv", json, csv };
  }
  return { kind: "xlsx", bytes: await xlsxOffThread(outcome.json) };
}

/** A json or csv result's JSON alone, still as the bytes it arrived as when it did. */
export function jsonOf(outcome: Exclude<DocumentResult, { kind: "redact" }>): Extract<DocumentResult, { kind: "json" }> {
  if (outcome.kind === "json") return outcome;
  const made = outcome.insights ? { insights: true as const } : {};
  return outcome.utf8 ? withUtf8({ kind: "json" as const, ...made }, outcome.utf8) : { kind: "json", json: outcome.json, ...made };
}

/** What was made from one kept result (its insights in a format), while that result is held. */
const beside = new WeakMap<DocumentResult, Map<string, Promise<Deliverable | undefined>>>();
const sizes = new WeakMap<DocumentResult, number>();
/** The job store told when a kept result gains an output (to count its bytes in the job's size). */
const watchers = new WeakMap<DocumentResult, () => void>();

const bytesOf = (d: Deliverable | undefined): number => (!d ? 0 : d.kind === "json" ? jsonBytesHeld(d) : d.kind === "csv" ? jsonBytesHeld(d) + d.csv.length * 2 : d.kind === "xlsx" ? d.bytes.byteLength : 0);

/**
 * `make()` once per kept result and `key`, its answer kept beside the result for as long as the
 * result is held (src/jobs/store.ts counts it in the job's size and drops it with the job): a
 * second read of a job's insights is the string made the first time, not the work again. Readers
 * arriving while it is made share the one making. A failure is not kept.
 */
export function keptBeside(outcome: DocumentResult, key: string, make: () => Promise<Deliverable | undefined>): Promise<Deliverable | undefined> {
  let made = beside.get(outcome);
  if (!made) beside.set(outcome, (made = new Map()));
  const cached = made.get(key);
  if (cached) return cached;
  const map = made;
  const p = make().then(
    (d) => {
      sizes.set(outcome, (sizes.get(outcome) ?? 0) + bytesOf(d));
      watchers.get(outcome)?.();
      return d;
    },
    (e: unknown) => {
      map.delete(key);
      throw e;
    },
  );
  made.set(key, p);
  return p;
}

/** Bytes of what keptBeside keeps for this result (strings count two bytes a character). */
export const besideBytes = (outcome: DocumentResult | undefined): number => (outcome ? (sizes.get(outcome) ?? 0) : 0);

/** `onGrow` runs each time a kept output is added beside `outcome` (the store recounts the job). */
export const watchBeside = (outcome: DocumentResult, onGrow: () => void): void => void watchers.set(outcome, onGrow);
