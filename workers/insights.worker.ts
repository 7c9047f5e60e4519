/**
 * Makes a parse's insights off the main thread (src/output/insights-pool.ts): on a 76,000-row
 * statement they take a few hundred ms of CPU, which would otherwise stall every other request.
 */
import { type InsightsFormat, type InsightsPieces, insightsPieces } from "../src/output/insights.ts";

/**
 * The answer goes back as pieces of the JSON it was given (the caller holds it), so only the new
 * text is copied back; a workbook's bytes are copied too (Piscina moves only a top-level transferable).
 */
export default function makeInsights({ json, format }: { json: string; format: InsightsFormat }): Promise<InsightsPieces> {
  return insightsPieces(json, format);
}
