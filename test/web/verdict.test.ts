/**
 * The page's headline rule (web/verdict.ts): green only when every section is verified and the
 * document shows no sign of editing; the engine's checks.verdict decides when present, and a
 * result without it is read conservatively from the fields every result has.
 */
import { describe, expect, test } from "bun:test";
import type { Checks, Integrity, ParseResponse, Section } from "../../web/types.ts";
import { assumedOf, figuresOf, statementHeadline } from "../../web/verdict.ts";

const section = (checks: Checks | undefined, reconcilable = true): Section => ({
  metadata: { bank: "gtbank", account_number_masked: "******1234" },
  totals: { credit: "0.00", debit: "0.00" },
  row_wise_reconcilable: reconcilable,
  transactions: [],
  ...(checks ? { checks } : {}),
});
const response = (s: Section, extra: { integrity?: Integrity; accounts?: Section[]; sample?: true } = {}): ParseResponse => ({ ...s, format_version: "1.0", ...extra });
const integrity = (verdict: Integrity["verdict"]): Integrity => ({ verdict, signals: [] });
const printed: Checks = { row_chain: true, opening_balance_source: "statement", balances_derived: false, kobo_rounding_rows: [] };

describe("the figures' verdict", () => {
  test("the engine's checks.verdict decides when present", () => {
    expect(figuresOf(section({ ...printed, verdict: "partial", assumed: ["x"] }))).toBe("partial");
    expect(figuresOf(section({ ...printed, verdict: "unverified", assumed: [] }))).toBe("unverified");
  });

  test("without it: not reconcilable is unverified; a derived or assumed opening, derived balances or rounding is partial", () => {
    expect(figuresOf(section(printed))).toBe("verified");
    expect(figuresOf(section(printed, false))).toBe("unverified");
    expect(figuresOf(section({ ...printed, opening_balance_source: "derived" }))).toBe("partial");
    expect(figuresOf(section({ ...printed, opening_balance_source: "assumed_zero" }))).toBe("partial");
    expect(figuresOf(section({ ...printed, balances_derived: true }))).toBe("partial");
    expect(figuresOf(section({ ...printed, kobo_rounding_rows: [3] }))).toBe("partial");
    // No checks at all: nothing was shown to be verified.
    expect(figuresOf(section(undefined))).toBe("partial");
    expect(assumedOf({ ...printed, opening_balance_source: "assumed_zero" })).toEqual(["opening balance not printed; 0.00 assumed"]);
  });
});

describe("the headline", () => {
  test("green only when verified with no signs of editing", () => {
    const verified = section({ ...printed, verdict: "verified", assumed: [] });
    expect(statementHeadline(response(verified, { integrity: integrity("no_signals") })).level).toBe("ok");
    expect(statementHeadline(response(verified)).text).toBe("✓ Verified");
    expect(statementHeadline(response(verified, { integrity: integrity("review") })).text).toBe("! Reconciled: review the document");
    expect(statementHeadline(response(verified, { integrity: integrity("likely_edited") })).text).toBe("✗ Likely edited");
    expect(statementHeadline(response(verified, { sample: true })).level).toBe("warn");
  });

  test("a reconciled statement with an assumed opening balance and a likely edit is red, with both reasons", () => {
    const assumed = section({ ...printed, opening_balance_source: "assumed_zero", verdict: "partial", assumed: ["The opening balance 0.00 was assumed"] });
    const h = statementHeadline(response(assumed, { integrity: integrity("likely_edited") }));
    expect(h.level).toBe("bad");
    expect(h.reasons).toEqual(["assumed: The opening balance 0.00 was assumed", "the document was likely edited after the bank made it"]);
  });

  test("the worst section decides, and its reasons name the section", () => {
    const good = section({ ...printed, verdict: "verified", assumed: [] });
    const broken = section({ ...printed, row_chain: false, first_break_index: 4, verdict: "unverified", assumed: [] }, false);
    const h = statementHeadline(response(good, { accounts: [good, broken] }));
    expect(h.text).toBe("✗ Not reconciled");
    expect(h.reasons).toEqual(["Account 2 of 2: the balance chain breaks at row 5"]);
  });
});
