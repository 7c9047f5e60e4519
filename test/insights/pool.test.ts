/**
 * The insights thread (src/output/insights-pool.ts): warmed on a made-up statement, then answering
 * a real request with exactly what the same work in this process gives.
 */
import { afterAll, expect, test } from "bun:test";
import { responseJson } from "../../src/engine/response-json.ts";
import { closeInsightsPool, type InsightsMade, insightsOffThread, prewarmInsights } from "../../src/output/insights-pool.ts";
import { insightsOutput } from "../../src/output/insights.ts";
import { warmupStatement } from "../../src/output/insights-warmup.ts";
import { statement } from "./statement.ts";

afterAll(() => closeInsightsPool());

/** What the thread made, as the in-process text answer reads (its text decoded from the bytes). */
const textOf = (made: InsightsMade) => {
  if (made.kind === "xlsx") throw new Error("json or csv asked");
  return made.kind === "csv" ? { kind: made.kind, json: made.json, csv: made.csv } : { kind: made.kind, json: made.json };
};

test("warmed, the thread answers as the work in process does (JSON and CSV)", async () => {
  await prewarmInsights();
  const kept = responseJson(statement([["2025-01-02", "Transfer from ADA OBI | UBA | 1", "", "5000.00"], ["2025-01-03", "SMS ALERT CHARGES", "40.00", ""]]));
  const json = await insightsOffThread(kept, "json");
  expect<unknown>(textOf(json)).toEqual(await insightsOutput(kept, "json"));
  // The bytes as they are, and from bytes as from text.
  expect(json.kind !== "xlsx" && json.utf8).toEqual(new TextEncoder().encode(textOf(json).json));
  expect(textOf(await insightsOffThread(new TextEncoder().encode(kept), "json"))).toEqual(textOf(json));
  expect<unknown>(textOf(await insightsOffThread(kept, "csv"))).toEqual(await insightsOutput(kept, "csv"));
});

test("the warm-up statement touches the rules it is for", async () => {
  const out = await insightsOutput(responseJson(warmupStatement(300)), "json");
  const body = JSON.parse((out as { json: string }).json) as { transactions: { enrichment: { category: string } }[] };
  const categories = new Set(body.transactions.map((t) => t.enrichment.category));
  for (const c of ["transfer_out", "transfer_in", "bank_charge", "tax_levy", "card_purchase", "airtime_data", "bills", "salary", "loan", "betting", "reversal", "cash_withdrawal", "savings"]) expect(categories.has(c)).toBe(true);
});
