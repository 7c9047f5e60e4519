/**
 * Enrichment reads each distinct narration once per direction, section and session presence, and
 * shares the narration's words and phrases between its rows (src/engine/insights/rows.ts,
 * enrich.ts). This pins that the sharing changes nothing: every row of a statement that repeats
 * real narrations (the fixtures' expected parses) in every context is enriched exactly as the same
 * row read alone, from words and phrases of its own.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { builtInVocabulary } from "../../src/engine/insights/compile.ts";
import { enrichRows } from "../../src/engine/insights/enrich.ts";
import { analyse, withInsights } from "../../src/engine/insights/index.ts";
import { insightRows, sectionsOf } from "../../src/engine/insights/rows.ts";
import type { ParseResponse } from "../../src/engine/types.ts";
import { type RowSpec, statement } from "./statement.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures");

/** Every distinct narration of the fixtures' expected parses. */
function fixtureNarrations(): string[] {
  const out = new Set<string>();
  for (const dir of readdirSync(FIXTURES)) {
    const file = join(FIXTURES, dir, "expected.json");
    if (!existsSync(file)) continue;
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<ParseResponse>;
    for (const t of parsed.transactions ?? []) if (t.narration.trim() !== "") out.add(t.narration);
  }
  return [...out];
}

const SESSION = "000013250107093011123456789012";

/** Each narration as a credit and a debit, with and without a session id in the reference. */
function specs(narrations: string[]): RowSpec[] {
  return narrations.flatMap((n, i): RowSpec[] => {
    const day = `2025-0${(i % 9) + 1}-${String((i % 27) + 1).padStart(2, "0")}`;
    return [
      [day, n, "", "15000.00"],
      [day, n, "2500.00", ""],
      [day, n, "", "15000.00", SESSION],
      [day, n, "50.00", "", SESSION],
    ];
  });
}

/** Two sections, a bank's and a wallet's (the channel falls back to `app` only on the wallet's). */
function twoSections(narrations: string[]): ParseResponse {
  const bank = statement(specs(narrations), { bank: "gtbank" });
  const wallet = statement(specs(narrations), { bank: "opay" });
  return { ...bank, accounts: [...(bank.accounts ?? []), ...(wallet.accounts ?? [])] };
}

describe("reading a narration once", () => {
  const narrations = fixtureNarrations();
  const response = twoSections(narrations);
  const v = builtInVocabulary();

  test("the fixtures give a statement with many repeated narrations", () => {
    expect(narrations.length).toBeGreaterThan(200);
    expect(sectionsOf(response).length).toBe(2);
  });

  test("every row's enrichment equals the row's enrichment read alone", () => {
    const banks = sectionsOf(response).map((s) => s.metadata.bank);
    const shared = insightRows(response, v);
    enrichRows(shared, v, banks);
    // The same rows again, each with words and phrases of its own and enriched on its own.
    const alone = insightRows(response, v);
    for (const [i, row] of alone.entries()) {
      const own = insightRows({ metadata: response.metadata, transactions: [row.transaction] }, v)[0];
      if (!own) throw new Error("no row");
      const single = { ...row, words: [...own.words], found: new Set(own.found), index: 0 };
      enrichRows([single], v, banks);
      const { fee_of: _a, confidence: { fee_of: _b, ...confidence }, ...fields } = single.enrichment;
      const got = shared[i]?.enrichment;
      if (!got) throw new Error("no shared row");
      const { fee_of: _c, confidence: { fee_of: _d, ...gotConfidence }, ...gotFields } = got;
      expect([gotFields, gotConfidence, shared[i]?.entity]).toEqual([fields, confidence, single.entity]);
    }
    // The statement exercises more than one answer per narration (direction, session, wallet).
    expect(new Set(shared.map((r) => r.enrichment.channel)).size).toBeGreaterThan(3);
    expect(new Set(shared.map((r) => r.enrichment.category)).size).toBeGreaterThan(8);
  });

  test("rows never share what changes (enrichment, confidence); a shared counterparty is frozen; analysing twice gives the same answer", () => {
    const first = analyse(response);
    const rows = first.rows;
    expect(new Set(rows.map((r) => r.enrichment)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.enrichment.confidence)).size).toBe(rows.length);
    const named = rows.filter((r) => r.enrichment.counterparty !== null);
    expect(named.length).toBeGreaterThan(0);
    // Rows of one narration may share one counterparty object, which cannot be changed for all of them.
    for (const r of named) expect(Object.isFrozen(r.enrichment.counterparty)).toBe(true);
    expect(JSON.stringify(withInsights(response))).toBe(JSON.stringify(withInsights(response)));
  });
});
