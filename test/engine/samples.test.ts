import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseStatement, toCsv } from "../../src/engine/index.ts";
import type { ParseResponse, Transaction } from "../../src/engine/types.ts";
import { rejection } from "../helpers/errors.ts";

/**
 * The real, source-redacted statements in fixtures/real. Every expected figure below was read
 * off the documents themselves (pdftotext -layout and the pdfjs item dump), not off the engine.
 */
const SAMPLES = join(import.meta.dir, "../../fixtures/real");
const load = (name: string) => new Uint8Array(readFileSync(join(SAMPLES, name)));
const parse = (name: string) => parseStatement(load(name), {});

const row = (date: string, debit: string, credit: string, balance: string, reference = "", narration = ""): Omit<Transaction, "currency"> => ({
  date,
  narration,
  debit,
  credit,
  balance,
  reference,
});
const strip = (r: ParseResponse) => r.transactions.map(({ currency: _c, ...t }) => t);

describe("firstbank.pdf", async () => {
  const r = await parse("firstbank.pdf");
  test("every row, in order, with the undated opening and closing lines kept out", () => {
    const d = (day: string) => `2026-05-${day}T00:00:00+01:00`;
    const ref = "x00000000";
    expect(strip(r)).toEqual([
      row(d("01"), "50.00", "0.00", "531085.04", ref),
      row(d("06"), "0.00", "300000.00", "831085.04", ref),
      row(d("07"), "0.00", "15000.00", "846085.04", ref),
      row(d("07"), "15645.00", "0.00", "830440.04", ref),
      row(d("08"), "50.00", "0.00", "830390.04", ref),
      row(d("08"), "53.75", "0.00", "830336.29", ref),
      row(d("08"), "200000.00", "0.00", "630336.29", ref),
      row(d("08"), "0.00", "15509.02", "645845.31", ref),
      row(d("11"), "50.00", "0.00", "645795.31", ref),
      row(d("15"), "200000.00", "0.00", "445795.31", ref),
      row(d("15"), "53.75", "0.00", "445741.56", ref),
      row(d("15"), "7000.00", "0.00", "438741.56", ref),
      row(d("15"), "26.88", "0.00", "438714.68", ref),
      row(d("18"), "50.00", "0.00", "438664.68", ref),
    ]);
    expect(r.transactions.every((t) => t.currency === "NGN")).toBe(true);
  });
  test("metadata, totals and checks", () => {
    expect(r.metadata).toEqual({
      bank: "firstbank",
      account_holder: "TEST USER",
      account_number_masked: "******0000",
      statement_period_start: "2026-05-01T00:00:00+01:00",
      statement_period_end: "2026-05-18T00:00:00+01:00",
      opening_balance: "531135.04",
      closing_balance: "438664.68",
    });
    // Printed: Total Credit 330,509.02, Total Debit 422,979.38.
    expect(r.totals).toEqual({ credit: "330509.02", debit: "422979.38" });
    expect(r.row_wise_reconcilable).toBe(true);
    expect(r.checks).toMatchObject({ row_chain: true, totals_match: true, closing_balance_match: true, reversed: false, balances_derived: false, opening_balance_source: "statement" });
  });
  test("the pending-debit figure (51.00) is not a transaction", () => {
    expect(r.transactions.some((t) => t.debit === "51.00")).toBe(false);
  });
});

describe("zenith.pdf", async () => {
  const r = await parse("zenith.pdf");
  test("21 rows, amounts read past the VALUE DATE that follows CREDIT", () => {
    expect(r.transactions).toHaveLength(21);
    expect(strip(r)[0]).toEqual(row("2025-06-30T00:00:00+01:00", "0.00", "497.51", "13840.10"));
    expect(strip(r)[1]).toEqual(row("2025-06-30T00:00:00+01:00", "49.75", "0.00", "13790.35"));
    expect(strip(r)[3]).toEqual(row("2025-07-28T00:00:00+01:00", "0.00", "5000.00", "18758.35"));
    expect(strip(r)[20]).toEqual(row("2026-02-28T00:00:00+01:00", "12.15", "0.00", "19657.44"));
    expect(r.transactions.every((t) => t.narration === "" && t.reference === "")).toBe(true);
  });
  test("opening row and totals rows are not transactions; totals agree", () => {
    expect(r.metadata).toEqual({
      bank: "zenith",
      account_holder: "TEST USER",
      account_number_masked: "******0000",
      statement_period_start: "2025-06-30T00:00:00+01:00",
      statement_period_end: "2026-02-28T00:00:00+01:00",
      opening_balance: "13342.59",
      closing_balance: "19657.44",
    });
    // Printed totals: -190.54 and 19,847.98 (= opening 13,342.59 + credits 6,505.39).
    expect(r.totals).toEqual({ credit: "6505.39", debit: "190.54" });
    expect(r.row_wise_reconcilable).toBe(true);
    expect(r.checks).toMatchObject({ row_chain: true, totals_match: true, closing_balance_match: true, reversed: false });
  });
});

describe("opay.pdf", async () => {
  const r = await parse("opay.pdf");
  test("18 wallet rows over two pages, wrapped references joined", () => {
    expect(r.transactions).toHaveLength(18);
    expect(strip(r)[0]).toEqual(row("2023-05-02T08:21:07+01:00", "0.00", "4000.00", "4204.31", "0".repeat(30)));
    expect(strip(r)[1]).toEqual(row("2023-05-02T08:22:42+01:00", "500.00", "0.00", "3704.31", "0".repeat(18)));
    expect(strip(r)[11]).toEqual(row("2023-05-09T19:35:49+01:00", "0.00", "10000.00", "10019.31", "0".repeat(30)));
    // First row of page 2, which repeats no header.
    expect(strip(r)[12]).toEqual(row("2023-05-09T21:34:45+01:00", "250.00", "0.00", "9769.31", "0".repeat(18)));
    expect(strip(r)[17]).toEqual(row("2023-05-12T21:36:35+01:00", "250.00", "0.00", "7581.31", "0".repeat(18)));
  });
  test("summary box figures, and the empty Savings section does not override them", () => {
    expect(r.metadata).toEqual({
      bank: "opay",
      account_holder: "TEST USER",
      account_number_masked: "******0000",
      statement_period_start: "2023-05-01T00:00:00+01:00",
      statement_period_end: "2023-05-12T00:00:00+01:00",
      opening_balance: "204.31",
      closing_balance: "7581.31",
    });
    expect(r.totals).toEqual({ credit: "14000.00", debit: "6623.00" });
    expect(r.row_wise_reconcilable).toBe(true);
    // Debit Count 16, Credit Count 2.
    expect(r.checks).toMatchObject({ row_chain: true, totals_match: true, closing_balance_match: true, count_match: true, opening_balance_source: "statement" });
  });
});

describe("opay.xlsx", async () => {
  const pdf = await parse("opay.pdf");
  const r = await parse("opay.xlsx");
  test("the Excel export gives the same statement as the PDF", () => {
    expect(r.transactions).toEqual(pdf.transactions);
    expect(r.metadata).toEqual(pdf.metadata);
    expect(r.totals).toEqual(pdf.totals);
    expect(r.checks).toEqual(pdf.checks);
  });
});

describe("palmpay.pdf", async () => {
  const r = await parse("palmpay.pdf");
  test("27 rows put oldest first, US dates with AM/PM, signed Money In / Money Out", () => {
    expect(r.transactions).toHaveLength(27);
    expect(r.checks.reversed).toBe(true);
    const t = strip(r);
    expect(t[0]).toEqual(row("2026-06-05T06:38:05+01:00", "0.00", "28.20", "28.20", "x000xxx00xx0x", "CashBox Interest"));
    expect(t[1]).toEqual(row("2026-06-05T13:06:29+01:00", "5000.00", "0.00", "-4971.80", "0000xxxxx000", "Send to"));
    expect(t[26]).toEqual(row("2026-06-13T06:38:19+01:00", "0.00", "3.79", "-78329.61", "x000x0xx0x00x", "CashBox Interest"));
  });
  test("narrations above the row, and a second line below it, belong to that row", () => {
    const at = (time: string) => r.transactions.find((t) => t.date === time)!;
    expect(at("2026-06-11T20:53:35+01:00").narration).toBe("Send to");
    expect(at("2026-06-11T13:37:23+01:00").narration).toBe("Send to -");
    expect(at("2026-06-11T13:37:23+01:00").debit).toBe("11000.00");
    // Reference wrapped above and below the Stamp Duty row: 20 + 7 characters.
    expect(at("2026-06-11T13:37:28+01:00").reference).toBe("0".repeat(27));
  });
  test("no balance column: balances derived from an assumed zero opening, printed totals agree", () => {
    expect(r.metadata).toEqual({
      bank: "palmpay",
      account_holder: "TEST USER",
      account_number_masked: "******0000",
      statement_period_start: "2026-06-05T00:00:00+01:00",
      statement_period_end: "2026-06-13T00:00:00+01:00",
      opening_balance: "0.00",
      closing_balance: "-78329.61",
    });
    // Printed: Total Money In ₦150.39, Total Money Out ₦78,480.00.
    expect(r.totals).toEqual({ credit: "150.39", debit: "78480.00" });
    expect(r.checks).toMatchObject({ balances_derived: true, opening_balance_source: "assumed_zero", totals_match: true, row_chain: true });
    expect(r.row_wise_reconcilable).toBe(true);
  });
});

describe("encrypted samples", () => {
  test("encrypted.pdf without a password: encrypted_source asking for one", async () => {
    const e = await rejection(parse("encrypted.pdf"));
    expect(e.errorClass).toBe("encrypted_source");
    expect(e.status).toBe(422);
    expect(e.message).toMatch(/needs a password/);
  });
  test("encrypted.pdf with a wrong password: encrypted_source saying it is wrong", async () => {
    const e = await rejection(parseStatement(load("encrypted.pdf"), { password: "not-the-password" }));
    expect(e.errorClass).toBe("encrypted_source");
    expect(e.message).toMatch(/wrong/);
  });
  test("encrypted.xlsx (CFB container): encrypted_source", async () => {
    const e = await rejection(parse("encrypted.xlsx"));
    expect(e.errorClass).toBe("encrypted_source");
  });
});

describe("no full account number anywhere in the output", () => {
  test.each(["firstbank.pdf", "zenith.pdf", "opay.pdf", "palmpay.pdf"])("%s", async (name) => {
    const r = await parse(name);
    const noRefs = <T extends { transactions: { reference: string }[] }>(x: T) => ({ ...x, transactions: x.transactions.map((t) => ({ ...t, reference: "" })) });
    const json = JSON.stringify({ ...noRefs(r), accounts: r.accounts.map(noRefs) });
    // The redacted account number is 0000000000; references of zeros are legitimately long.
    expect(json).not.toContain("0000000000");
    // Every statement, one account section or several (OPay's wallet and savings), has the same columns.
    expect(toCsv(r).split("\r\n")[0]).toBe("bank,account,date,time,narration,debit,credit,balance,derived_balance,reference,currency");
  });
});
