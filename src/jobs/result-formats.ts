import { toCsv } from "../engine/csv.ts";
import type { ParseResponse } from "../engine/types.ts";
import type { DocumentResult } from "./runner.ts";

export type ParseFormat = "json" | "csv";

/**
 * A finished parse in another output format, without parsing again: a json job's ParseResponse
 * as CSV, or a csv job's ParseResponse as JSON. The CSV is made on request from the kept JSON
 * (not kept itself, so a job's size in the store stays what it was when it finished). Undefined
 * for a redact job, which has no parse to convert.
 */
export function resultAs(outcome: DocumentResult, format: ParseFormat): DocumentResult | undefined {
  if (outcome.kind === "redact") return undefined;
  if (format === "json") return { kind: "json", json: outcome.json };
  if (outcome.kind === "csv") return outcome;
  return { kind: "csv", json: outcome.json, csv: toCsv(JSON.parse(outcome.json) as ParseResponse) };
}
