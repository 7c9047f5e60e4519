/**
 * Makes a parse's insights off the main thread (src/output/insights-pool.ts): on a 76,000-row
 * statement they take a few hundred ms of CPU, which would otherwise stall every other request.
 */
import { move, transferableSymbol, valueSymbol } from "piscina";
import { type InsightsAnswer, insightsAnswer, type InsightsTask } from "../src/output/insights.ts";

/**
 * The answer's bytes (the JSON, or the workbook) are moved to the main thread, not copied: Piscina
 * moves a top-level Transferable's buffers and sends the value inside it as usual. Only an
 * ArrayBuffer the bytes fill is moved; a view into a larger one (a pooled Buffer) is copied as
 * usual, and shared memory (a kept result that was its own answer) is shared, not moved.
 */
export default async function makeInsights({ json, format }: InsightsTask): Promise<InsightsAnswer | ReturnType<typeof move>> {
  const kept = typeof json === "string" ? new TextEncoder().encode(json) : json;
  const answer = await insightsAnswer(kept, format);
  const bytes = answer.kind === "xlsx" ? answer.bytes : answer.utf8;
  if (!(bytes.buffer instanceof ArrayBuffer) || bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) return answer;
  return move({ [transferableSymbol]: [bytes.buffer], [valueSymbol]: answer });
}
