/**
 * One small statement per bank profile (fixtures/banks/<id>/, made by fixtures/banks/make.py with
 * ReportLab, cairo, WeasyPrint, LibreOffice Calc, PDFKit and jsPDF), each detected as its bank.
 * Logo-only documents draw the logo as shapes and print the bank's name nowhere, so they are
 * detected from their headings, footer, domain, e-mail or sort code. Every document's narrations
 * name other banks and wallets.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BANK_PROFILES } from "../../src/engine/banks/profiles.ts";
import { parseStatement } from "../../src/engine/index.ts";

const DIR = join(import.meta.dir, "../../fixtures/banks");
interface Expected {
  bank: string;
  producer: string;
  logo_only: boolean;
  rows: { debit: string; credit: string }[];
}
const folders = readdirSync(DIR).filter((f) => existsSync(join(DIR, f, "expected.json"))).sort();
const expected = (id: string) => JSON.parse(readFileSync(join(DIR, id, "expected.json"), "utf8")) as Expected;

describe("every bank profile is detected from a document of its own", () => {
  test("one document per profile, and no document for a bank without one", () => {
    expect(folders).toEqual(BANK_PROFILES.map((p) => p.id).sort());
  });

  test("at least five are logo-only, from at least three producers", () => {
    const logoOnly = folders.map(expected).filter((e) => e.logo_only);
    expect(logoOnly.length).toBeGreaterThanOrEqual(5);
    expect(new Set(logoOnly.map((e) => e.producer)).size).toBeGreaterThanOrEqual(3);
  });

  for (const id of folders) {
    const want = expected(id);
    test(`${id}${want.logo_only ? " (name only in the logo)" : ""}, ${want.producer}`, async () => {
      const r = await parseStatement(new Uint8Array(readFileSync(join(DIR, id, "statement.pdf"))));
      expect(r.metadata.bank).toBe(want.bank);
      expect(r.checks.marker_coverage).toBeGreaterThanOrEqual(80);
      expect(r.transactions.map((t) => ({ debit: t.debit, credit: t.credit }))).toEqual(want.rows);
    });
  }
});
