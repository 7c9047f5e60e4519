/**
 * Makes a parse's insights off the main thread (src/output/insights-pool.ts): on a 76,000-row
 * statement they take a few hundred ms of CPU, which would otherwise stall every other request.
 */
import { move } from "piscina";
import { type InsightsPieces, insightsPieces, type InsightsTask, piecesBytes } from "../src/output/insights.ts";

/**
 * The answer goes back as pieces of the JSON it was given (the caller holds it), so only the new
 * text is copied back; a workbook's bytes are copied too (Piscina moves only a top-level
 * transferable). Asked for bytes, the JSON answer is encoded here and its buffer moved, not copied.
 */
export default async function makeInsights({ json: kept, format, bytes }: InsightsTask): Promise<InsightsPieces | Uint8Array> {
  const json = typeof kept === "string" ? kept : new TextDecoder().decode(kept);
  const out = await insightsPieces(json, format);
  if (!bytes || out.kind !== "json") return out;
  return move(piecesBytes(json, out.json)) as Uint8Array;
}
