/**
 * Makes a parse's insights off the main thread (src/output/insights-pool.ts): on a 76,000-row
 * statement they take seconds of CPU, which would otherwise stall every other request.
 */
import { type InsightsFormat, type InsightsOutput, insightsOutput } from "../src/output/insights.ts";

/** The answer is copied back to the main thread (a workbook's bytes too: Piscina moves only a top-level transferable). */
export default function makeInsights({ json, format }: { json: string; format: InsightsFormat }): Promise<InsightsOutput> {
  return insightsOutput(json, format);
}
