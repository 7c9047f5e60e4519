import { toCsv } from "../engine/csv.ts";
import { analyse, enrichedBy } from "../engine/insights/index.ts";
import { enrichedRows, enrichmentJsonWriter } from "../engine/insights/enriched-json.ts";
import { sectionsOf } from "../engine/insights/rows.ts";
import type { InsightRow } from "../engine/insights/types.ts";
import { type BytesWriter, responseBytes } from "../engine/response-json.ts";
import type { ParseResponse } from "../engine/types.ts";

/**
 * A parse's answer with insights (docs/insights.md), made where the parse is still objects: the
 * parse worker, when the request asked for insights at submit time (POST /v1/parse and jobs created
 * with include=insights). The rows are enriched in memory and the enriched response written once,
 * instead of writing the plain JSON, parsing it again on the insights thread and splicing the
 * enriched rows back (src/output/insights.ts, still used for a kept plain result read with insights).
 * Each section's rows are written as plain JSON bytes with each row's enrichment added
 * (src/engine/insights/enriched-json.ts), not serialised as enriched objects: a few distinct
 * enrichment texts serve most rows. The bytes are the UTF-8 of JSON.stringify of the enriched
 * response and the insights thread's answer for the same parse (test/insights/inline.test.ts,
 * every fixture). Imports only the pure engine: no workbook writer in the parse worker.
 */
export function answerWithInsights(response: ParseResponse, csv: boolean, allocate?: BytesWriter["allocate"]): { utf8: Uint8Array; csv?: string } {
  if ("insights" in response) return { utf8: responseBytes(response, { allocate }), ...(csv ? { csv: toCsv(response, { insights: true }) } : {}) };
  const analysis = analyse(response);
  const sections = sectionsOf(response);
  // Each section's first row among the analysed rows (sections in print order).
  const first: number[] = [];
  sections.reduce((at, s) => (first.push(at), at + s.transactions.length), 0);
  const enrichment = enrichmentJsonWriter();
  const encoder = new TextEncoder();
  const enriched = { ...response, insights: analysis.insights } as unknown as ParseResponse;
  // The top level's rows are written as the first section's, as withInsights makes them.
  const rows: BytesWriter["rows"] = (_, section) => {
    const list = sections[section]?.transactions ?? [];
    const start = first[section] ?? 0;
    const text = enrichedRows(encoder.encode(JSON.stringify(list)), list.length, (i) => enrichment((analysis.rows[start + i] as InsightRow).enrichment));
    return text ?? JSON.stringify(list.map((t, i) => ({ ...t, enrichment: (analysis.rows[start + i] as InsightRow).enrichment })));
  };
  const utf8 = responseBytes(enriched, { rows, allocate });
  return csv ? { utf8, csv: toCsv(enrichedBy(response, analysis), { insights: true }) } : { utf8 };
}
