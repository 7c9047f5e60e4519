import { toCsv } from "../engine/csv.ts";
import { withInsights } from "../engine/insights/index.ts";
import { responseJson } from "../engine/response-json.ts";
import type { ParseResponse } from "../engine/types.ts";
import { toXlsx } from "./xlsx.ts";

export type InsightsFormat = "json" | "csv" | "xlsx";

export type InsightsOutput = { kind: "json"; json: string } | { kind: "csv"; json: string; csv: string } | { kind: "xlsx"; bytes: Uint8Array<ArrayBuffer> };

/**
 * A kept ParseResponse (its JSON) with insights (docs/insights.md), in a format: the JSON with
 * `enrichment` and `insights`, the CSV or the workbook with category and counterparty columns.
 */
export async function insightsOutput(json: string, format: InsightsFormat): Promise<InsightsOutput> {
  const enriched = withInsights(JSON.parse(json) as ParseResponse);
  if (format === "xlsx") return { kind: "xlsx", bytes: await toXlsx(enriched, { insights: true }) };
  const out = responseJson(enriched as unknown as ParseResponse);
  return format === "csv" ? { kind: "csv", json: out, csv: toCsv(enriched, { insights: true }) } : { kind: "json", json: out };
}
