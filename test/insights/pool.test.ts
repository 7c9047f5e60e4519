/**
 * The insights thread (src/output/insights-pool.ts): warmed on a made-up statement, then answering
 * a real request with exactly what the same work in this process gives.
 */
import { afterAll, expect, test } from "bun:test";
import { responseJson } from "../../src/engine/response-json.ts";
import { closeInsightsPool, insightsOffThread, prewarmInsights } from "../../src/output/insights-pool.ts";
import { insightsOutput } from "../../src/output/insights.ts";
import { warmupStatement } from "../../src/output/insights-warmup.ts";
import { statement } from "./statement.ts";

afterAll(() => closeInsightsPool());

test("warmed, the thread answers as the work in process does (JSON and CSV)", async () => {
  await prewarmInsights();
  const kept = responseJson(statement([["2025-01-02", "Transfer from ADA OBI | UBA | 1", "", "5000.00"], ["2025-01-03", "SMS ALERT CHARGES", "40.00", ""]]));
  expect(await insightsOffThread(kept, "json")).toEqual(await insightsOutput(kept, "json"));
  expect(await insightsOffThread(kept, "csv")).toEqual(await insightsOutput(kept, "csv"));
});

test("the warm-up statement touches the rules it is for", async () => {
  const out = await insightsOutput(responseJson(warmupStatement(300)), "json");
  const body = JSON.parse((out as { json: string }).json) as { transactions: { enrichment: { category: string } }[] };
  const categories = new Set(body.transactions.map((t) => t.enrichment.category));
  for (const c of ["transfer_out", "transfer_in", "bank_charge", "tax_levy", "card_purchase", "airtime_data", "bills", "salary", "loan", "betting", "reversal", "cash_withdrawal", "savings"]) expect(categories.has(c)).toBe(true);
});
