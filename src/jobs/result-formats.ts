import { toCsv } from "../engine/csv.ts";
import type { ParseResponse } from "../engine/types.ts";
import { xlsxOffThread } from "../output/xlsx-pool.ts";
import type { DocumentResult } from "./runner.ts";

export type ParseFormat = "json" | "csv" | "xlsx";

/** What an HTTP answer carries: a parse as the worker made it, or the workbook made from it here. */
export type Deliverable = DocumentResult | { kind: "xlsx"; bytes: Uint8Array<ArrayBuffer> };

/**
 * A finished parse in another output format, without parsing again: the kept ParseResponse JSON as
 * CSV or XLSX, or a csv job's as JSON. CSV and XLSX are made on request from the kept JSON (not
 * kept themselves, so a job's size in the store stays what it was when it finished). Undefined
 * for a redact job, which has no parse to convert. The workbook is written off the main thread.
 */
export async function resultAs(outcome: DocumentResult, format: ParseFormat): Promise<Deliverable | undefined> {
  if (outcome.kind === "redact") return undefined;
  if (format === "json") return { kind: "json", json: outcome.json };
  if (format === "csv") return outcome.kind === "csv" ? outcome : { kind: "csv", json: outcome.json, csv: toCsv(JSON.parse(outcome.json) as ParseResponse) };
  return { kind: "xlsx", bytes: await xlsxOffThread(outcome.json) };
}
