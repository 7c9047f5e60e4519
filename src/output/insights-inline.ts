import { toCsv } from "../engine/csv.ts";
import { withInsights } from "../engine/insights/index.ts";
import { responseJson } from "../engine/response-json.ts";
import type { ParseResponse } from "../engine/types.ts";

/**
 * A parse's answer with insights (docs/insights.md), made where the parse is still objects: the
 * parse worker, when the request asked for insights at submit time (POST /v1/parse and jobs created
 * with include=insights). The rows are enriched in memory and the enriched response written once,
 * instead of writing the plain JSON, parsing it again on the insights thread and splicing the
 * enriched rows back (src/output/insights.ts, still used for a kept plain result read with insights).
 * The text is byte for byte the insights thread's answer for the same parse
 * (test/insights/inline.test.ts, every fixture). Imports only the pure engine: no workbook writer
 * in the parse worker.
 */
export function answerWithInsights(response: ParseResponse, csv: boolean): { json: string; csv?: string } {
  const enriched = withInsights(response);
  const json = responseJson(enriched as unknown as ParseResponse);
  return csv ? { json, csv: toCsv(enriched, { insights: true }) } : { json };
}
