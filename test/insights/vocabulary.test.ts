/**
 * The vocabularies are data checked when they load: the built-in one loads, and each way a
 * vocabulary can be wrong is refused with the path of what is wrong.
 */
import { describe, expect, test } from "bun:test";
import { ZodError } from "zod";
import { loadVocabulary, RAW_VOCABULARY } from "../../src/engine/insights/vocabulary/index.ts";

/** The built-in vocabulary with one part replaced. */
const clone = (): Record<string, unknown> => structuredClone(RAW_VOCABULARY) as Record<string, unknown>;
const firstRule = (v: Record<string, unknown>) => (v.categories as Record<string, unknown>[])[0] as Record<string, unknown>;
const entityRule = (v: Record<string, unknown>) => (v.categories as Record<string, unknown>[]).find((r) => r.kind === "entities" && r.category === "loan") as Record<string, unknown>;

function refused(v: unknown, path: string): void {
  try {
    loadVocabulary(v);
  } catch (e) {
    expect(e).toBeInstanceOf(ZodError);
    const paths = (e as ZodError).issues.map((i) => i.path.join("."));
    expect(paths.some((p) => p.startsWith(path))).toBe(true);
    return;
  }
  throw new Error(`accepted a vocabulary with a bad ${path}`);
}

describe("vocabulary", () => {
  test("the built-in vocabulary loads: every category has a rule and every lender the issue names is there", () => {
    const v = loadVocabulary(RAW_VOCABULARY);
    const categories = new Set(v.categories.map((r) => r.category));
    for (const c of ["reversal", "tax_levy", "bank_charge", "interest", "betting", "loan", "savings", "airtime_data", "bills", "cash_withdrawal", "cash_deposit", "salary", "card_purchase"]) expect(categories.has(c as never)).toBe(true);
    const lenders = v.categories.flatMap((r) => (r.kind === "entities" && r.category === "loan" ? r.entities.map((e) => e.name) : []));
    for (const l of ["Carbon", "FairMoney", "Palmcredit", "Renmoney", "Branch", "Aella", "QuickCheck", "Lidya"]) expect(lenders).toContain(l);
  });

  test("a category that does not exist", () => {
    const v = clone();
    firstRule(v).category = "gambling";
    refused(v, "categories.0");
  });

  test("a phrase that no normalised narration can hold (lower case, punctuation, double spaces)", () => {
    for (const bad of ["reversal", "POS/WEB", "CASH  DEPOSIT", " ATM"]) {
      const v = clone();
      firstRule(v).terms = [bad];
      refused(v, "categories.0");
    }
  });

  test("a regular expression that does not compile", () => {
    const v = clone();
    firstRule(v).patterns = ["(unclosed"];
    refused(v, "categories.0");
  });

  test("a rule with neither terms nor patterns", () => {
    const v = clone();
    firstRule(v).terms = [];
    firstRule(v).patterns = [];
    refused(v, "categories.0");
  });

  test("a confidence outside 0..1", () => {
    const v = clone();
    firstRule(v).confidence = 1.5;
    refused(v, "categories.0");
  });

  test("an unknown field (a typo is not silently ignored)", () => {
    const v = clone();
    firstRule(v).term = ["X"];
    refused(v, "categories.0");
  });

  test("two businesses with one name in a list", () => {
    const v = clone();
    const rule = entityRule(v);
    rule.entities = [...(rule.entities as unknown[]), { name: "Carbon", aliases: ["CARBON TWO"] }];
    refused(v, "categories");
  });

  test("context-only names in a list without context words", () => {
    const v = clone();
    entityRule(v).context = [];
    refused(v, "categories");
  });

  test("a channel that does not exist, or `unknown` given a rule", () => {
    for (const bad of ["telepathy", "unknown"]) {
      const v = clone();
      ((v.channels as Record<string, unknown>).rules as Record<string, unknown>[])[0]!.channel = bad;
      refused(v, "channels.rules.0.channel");
    }
  });

  test("a counterparty form without a name group", () => {
    const v = clone();
    ((v.counterparties as Record<string, unknown>).forms as Record<string, unknown>[])[0]!.pattern = "^TRANSFER TO (.+)$";
    refused(v, "counterparties.forms.0");
  });

  test("fee amounts that are not naira with two decimals, and bands without an open last band", () => {
    const v = clone();
    (v.fees as Record<string, unknown>).emtl_amount = "50";
    refused(v, "fees.emtl_amount");
    const w = clone();
    (w.fees as Record<string, unknown>).transfer_fee_bands = [{ up_to: "5000.00", fee: "10.00" }];
    refused(w, "fees.transfer_fee_bands");
  });

  test("a VAT rate beyond 100%", () => {
    const v = clone();
    (v.fees as Record<string, unknown>).vat_rate_bp = 20000;
    refused(v, "fees.vat_rate_bp");
  });
});
