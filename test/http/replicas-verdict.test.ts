/**
 * Issue 24 on real HTTP: the Moniepoint layout replicas (wide PDF and detailed XLSX) through POST
 * /v1/parse on a running server parse exactly against their truth files, name the bank from the
 * heading set alone, and carry the overall verdict and the assumptions in `checks` (also in the
 * published schema, which the test server checks every answer against).
 */
import { describe, expect, test } from "bun:test";
import type { ParseResponse } from "../../src/engine/types.ts";
import { loadReplica, loadTruth, replicaDifferences } from "../helpers/replica-truth.ts";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";
import { page } from "../engine/layout-helpers.ts";

const server = await startTestServer({ FIRST_PARTY_IP_MONTHLY_CAP: "10000" });
const issued = await server.admin("/v1/keys", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "replicas", owner: unique(), tier: "first_party" }),
});
const { key } = (await issued.json()) as { key: string };

async function parse(bytes: Uint8Array, name: string): Promise<{ status: number; body: ParseResponse }> {
  const form = new FormData();
  form.append("pdf", new Blob([Buffer.from(bytes)]), name);
  const res = await server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}`, "x-first-party-client-ip": "203.0.113.9" }, body: form });
  return { status: res.status, body: (await res.json()) as ParseResponse };
}

describe("POST /v1/parse: Moniepoint replicas", () => {
  for (const name of ["moniepoint_business.pdf", "moniepoint_personal.pdf", "moniepoint_personal-detailed.xlsx"]) {
    test(name, async () => {
      const { status, body } = await parse(loadReplica(name), name);
      expect(status).toBe(200);
      expect(replicaDifferences(body, loadTruth(name))).toEqual([]);
      expect(body.metadata.bank).toBe("moniepoint");
      expect(body.row_wise_reconcilable).toBe(true);
      expect(body.checks.verdict).toBe("verified");
      expect(body.checks.assumed).toEqual([]);
      expect(body.accounts[0]!.checks.verdict).toBe("verified");
    });
  }
});

describe("POST /v1/parse: the verdict", () => {
  test("a table that chains under a header whose counts disagree is unverified, not reconciled", async () => {
    const { status, body } = await parse(await pdfOf(), "counts.pdf");
    expect(status).toBe(200);
    expect(body.checks.row_chain).toBe(true);
    expect(body.checks.count_match).toBe(false);
    expect(body.row_wise_reconcilable).toBe(false);
    expect(body.checks.verdict).toBe("unverified");
  });
});

/** A one-page PDF written with pdf-lib: a header counting 129 debits over a table of two rows that chain. */
async function pdfOf(): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const p = doc.addPage([600, 842]);
  const src = page(1, [
    [40, [40, "Account Name"], [160, "ADA OKAFOR"]],
    [52, [40, "Account Number"], [160, "0123456789"]],
    [64, [40, "Number of Debits"], [160, "129"]],
    [76, [40, "Opening Balance"], { r: 220, t: "10.00" }],
    [100, [40, "Date"], [110, "Description"], { r: 380, t: "Debit" }, { r: 460, t: "Credit" }, { r: 560, t: "Balance" }],
    [112, [40, "2024-03-01"], [110, "TRANSFER IN"], { r: 460, t: "5.00" }, { r: 560, t: "15.00" }],
    [124, [40, "2024-03-02"], [110, "POS PURCHASE"], { r: 380, t: "2.00" }, { r: 560, t: "13.00" }],
  ]);
  for (const it of src.items) p.drawText(it.str, { x: it.x, y: 842 - it.y - it.height, size: 8, font });
  return doc.save();
}
