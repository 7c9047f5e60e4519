/**
 * The insights thread splices the enriched rows into the kept JSON's bytes (src/output/insights.ts):
 * the enriched JSON made that way is byte for byte what writing the whole enriched response gives, on every
 * fixture's expected parse (one and several account sections), and a kept JSON in another layout
 * (pretty-printed, keys reordered) still gives the same response.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { withInsights } from "../../src/engine/insights/index.ts";
import { responseJson } from "../../src/engine/response-json.ts";
import type { ParseResponse } from "../../src/engine/types.ts";
import { insightsAnswer, insightsOutput, parseKept, splicedJson } from "../../src/output/insights.ts";
import { statement } from "./statement.ts";

const fixtures = join(import.meta.dir, "../../fixtures");
const parses = readdirSync(fixtures)
  .filter((d) => existsSync(join(fixtures, d, "expected.json")))
  .map((d) => JSON.parse(readFileSync(join(fixtures, d, "expected.json"), "utf8")) as ParseResponse)
  .filter((p) => Array.isArray(p.transactions));
const encoder = new TextEncoder();
const whole = (kept: string) => responseJson(withInsights(JSON.parse(kept) as ParseResponse) as unknown as ParseResponse);

test(`spliced = written whole, byte for byte, on every fixture's parse (${parses.length}, ${parses.filter((p) => (p.accounts?.length ?? 0) > 1).length} with several sections)`, async () => {
  let spliced = 0;
  for (const p of parses) {
    const kept = responseJson(p);
    // Spliced, not written whole (the fallback).
    if (splicedJson(encoder.encode(kept)) !== undefined) spliced++;
    expect((await insightsOutput(kept, "json")).kind === "json" && ((await insightsOutput(kept, "json")) as { json: string }).json === whole(kept)).toBe(true);
    expect(parseKept(kept)).toEqual(JSON.parse(kept));
  }
  expect(spliced).toBe(parses.length);
});

test("several account sections: each section's array replaced by its enriched rows", async () => {
  const a = statement([["2025-01-02", "Transfer from ADA OBI | UBA | 1", "", "5000.00"], ["2025-01-03", "SMS ALERT CHARGES", "40.00", ""]]);
  const b = statement([["2025-01-04", "POS PURCHASE SHOPRITE", "1200.00", ""], ["2025-01-05", "ELECTRONIC MONEY TRANSFER LEVY", "50.00", ""]], { bank: "opay" });
  const kept = responseJson({ ...a, accounts: [a.accounts![0]!, b.accounts![0]!] });
  expect(splicedJson(encoder.encode(kept))).toBeDefined();
  expect(((await insightsOutput(kept, "json")) as { json: string }).json).toBe(whole(kept));
});

test("a kept JSON in another layout: written whole, the same response", async () => {
  const p = parses.find((x) => x.transactions.length > 5) as ParseResponse;
  const pretty = JSON.stringify(p, null, 2);
  const { accounts, ...rest } = p;
  const reordered = JSON.stringify({ accounts, ...rest });
  for (const kept of [pretty, reordered]) {
    const out = await insightsOutput(kept, "json");
    expect(JSON.parse((out as { json: string }).json)).toEqual(JSON.parse(whole(kept)));
    expect(parseKept(kept)).toEqual(JSON.parse(kept));
  }
});

test("the first section's rows written again with other text (a kept JSON not written by responseJson): the same bytes as writing it whole", async () => {
  const p = statement([["2025-01-02", "Transfer from ADA OBI | UBA | 1", "", "5000.00"], ["2025-01-03", "SMS ALERT CHARGES", "40.00", ""], ["2025-01-04", "POS PURCHASE SHOPRITE", "1200.00", ""]]);
  const { accounts, ...rest } = p;
  // accounts first, then a top level whose rows are fewer than accounts[0]'s: the two texts differ in length.
  const kept = JSON.stringify({ accounts, ...rest, transactions: p.transactions.slice(1) });
  expect(await insightsOutput(kept, "json")).toEqual({ kind: "json", json: whole(kept) });
  // The same rows at both places: spliced, still the same bytes.
  const same = JSON.stringify({ accounts, ...rest });
  expect(splicedJson(encoder.encode(same))).toBeDefined();
  expect(await insightsOutput(same, "json")).toEqual({ kind: "json", json: whole(same) });
});

test("spliced bytes are the UTF-8 of the whole text, non-Latin narrations included", async () => {
  const p = statement([["2025-01-02", "Transfer from ÀDÁ ỌBỊ | ₦ | 日本 | 1", "", "5000.00"], ["2025-01-03", "SMS ALERT CHARGES \u2028 😀", "40.00", ""]]);
  const kept = responseJson(p);
  const bytes = splicedJson(encoder.encode(kept));
  expect(bytes).toEqual(encoder.encode(whole(kept)));
  expect(JSON.parse(new TextDecoder().decode(bytes)).transactions[0].narration).toBe("Transfer from ÀDÁ ỌBỊ | ₦ | 日本 | 1");
});

test("a result that already has its insights is its own answer", async () => {
  const kept = whole(responseJson(parses[0] as ParseResponse));
  const bytes = encoder.encode(kept);
  // The very bytes it was given back, not a copy written again.
  expect(await insightsAnswer(bytes, "json")).toEqual({ kind: "json", utf8: bytes });
  expect(((await insightsAnswer(bytes, "json")) as { utf8: Uint8Array }).utf8).toBe(bytes);
});
