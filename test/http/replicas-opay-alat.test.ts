/**
 * Issue 24, classes 1 and 3 on real HTTP: the OPay (2025 iText, 2026 OpenPDF) and Wema ALAT layout
 * replicas through POST /v1/parse on a running server (worker pool, upload handling), each compared
 * with its truth file and checked for reconciliation and the checks that explain it.
 */
import { describe, expect, test } from "bun:test";
import type { ParseResponse } from "../../src/engine/types.ts";
import { unique } from "../helpers/db.ts";
import { loadReplica, loadTruth, replicaDifferences } from "../helpers/replica-truth.ts";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer({ FIRST_PARTY_IP_MONTHLY_CAP: "1000" });
const issued = await server.admin("/v1/keys", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "replicas", owner: unique(), tier: "first_party" }),
});
const { key } = (await issued.json()) as { key: string };

async function parse(name: string): Promise<ParseResponse> {
  const form = new FormData();
  form.append("pdf", new Blob([loadReplica(name)]), name);
  const res = await server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}`, "x-first-party-client-ip": "203.0.113.24" }, body: form });
  expect(res.status).toBe(200);
  return (await res.json()) as ParseResponse;
}

describe("POST /v1/parse reads the OPay and ALAT replicas exactly", () => {
  test("opay_owealth_autodraw.pdf: two sections, each reconciled through the auto-draw links", async () => {
    const r = await parse("opay_owealth_autodraw.pdf");
    expect(replicaDifferences(r, loadTruth("opay_owealth_autodraw.pdf"))).toEqual([]);
    expect(r.accounts.map((a) => [a.metadata.opening_balance, a.metadata.closing_balance, a.totals.debit, a.totals.credit, a.row_wise_reconcilable])).toEqual([
      ["0.00", "0.00", "511808.00", "460642.00", true],
      ["182.40", "56005.21", "330472.00", "208597.81", true],
    ]);
    expect(r.accounts[0]!.checks.cross_section_links).toHaveLength(9);
    expect(r.accounts[0]!.checks.cross_section_links![0]).toEqual({ row: 19, other_section: 1, other_row: 8, amount: "2000.00" });
    expect(r.checks.statement_totals_match).toBe(true);
  });

  test("opay_empty_owealth.pdf: the wallet reconciles after the levy swaps; OWealth is empty", async () => {
    const r = await parse("opay_empty_owealth.pdf");
    expect(replicaDifferences(r, loadTruth("opay_empty_owealth.pdf"))).toEqual([]);
    expect([r.metadata.opening_balance, r.metadata.closing_balance, r.totals.debit, r.totals.credit, r.row_wise_reconcilable]).toEqual(["318.75", "137365.75", "771343.00", "908390.00", true]);
    expect(r.checks.swapped_rows?.map((s) => s.seconds)).toEqual([1, 1, 1]);
    expect(r.accounts[1]!.transactions).toEqual([]);
  });

  test("opay_levy_order.pdf: wallet and savings reconcile, the funding and levy rows swapped", async () => {
    const r = await parse("opay_levy_order.pdf");
    expect(replicaDifferences(r, loadTruth("opay_levy_order.pdf"))).toEqual([]);
    expect(r.accounts.map((a) => [a.totals.debit, a.totals.credit, a.row_wise_reconcilable, a.checks.verdict])).toEqual([
      ["952381.00", "952381.00", true, "verified"],
      ["65409.00", "698964.69", true, "verified"],
    ]);
    expect(r.checks.swapped_rows!.length).toBeGreaterThanOrEqual(20);
  });

  for (const [name, opening, closing] of [
    ["alat_short.pdf", "8877.23", "570720.07"],
    ["alat_long.pdf", "23833.07", "222895.43"],
  ] as const) {
    test(`${name}: the opening the rows chain from, not the printed one`, async () => {
      const r = await parse(name);
      expect(replicaDifferences(r, loadTruth(name))).toEqual([]);
      expect([r.metadata.opening_balance, r.metadata.closing_balance, r.row_wise_reconcilable, r.checks.opening_balance_source]).toEqual([opening, closing, true, "derived"]);
      expect(r.checks.notes.some((n) => n.includes("is not the balance before the first row"))).toBe(true);
    });
  }
});
