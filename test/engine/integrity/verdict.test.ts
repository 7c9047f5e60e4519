/** The verdict's rules on their own (README "Integrity signals", Verdict). */
import { describe, expect, test } from "bun:test";
import type { IntegritySignal, Severity } from "../../../src/engine/integrity/index.ts";
import { verdictOf } from "../../../src/engine/integrity/verdict.ts";

const s = (code: string, severity: Severity): IntegritySignal => ({ code, severity, detail: "" });

describe("verdictOf", () => {
  test("nothing, or one info, is no_signals; two infos are review", () => {
    expect(verdictOf([])).toBe("no_signals");
    expect(verdictOf([s("producer_converter", "info")])).toBe("no_signals");
    expect(verdictOf([s("producer_converter", "info"), s("modified_after_creation", "info")])).toBe("review");
  });

  test("a producer string, dates or reconciliation alone never make likely_edited", () => {
    expect(verdictOf([s("producer_editor", "warn"), s("modified_after_creation", "info")])).toBe("review");
    expect(verdictOf([s("producer_editor", "warn"), s("totals_mismatch", "warn"), s("date_after_creation", "warn")])).toBe("review");
  });

  test("a page from another template (size and fonts) is one piece of evidence: review", () => {
    expect(verdictOf([s("page_size_differs", "warn"), s("page_fonts_differ", "warn")])).toBe("review");
  });

  test("content evidence with a second, independent group is likely_edited", () => {
    expect(verdictOf([s("page_fonts_differ", "warn"), s("totals_mismatch", "warn")])).toBe("likely_edited");
    expect(verdictOf([s("update_changes_content", "warn"), s("producer_editor", "warn")])).toBe("likely_edited");
    expect(verdictOf([s("font_outlier", "warn"), s("figure_misaligned", "warn")])).toBe("likely_edited");
  });

  test("a re-saver's name (pypdf taking a password off) is no second kind of evidence unless the save moved the modification date", () => {
    expect(verdictOf([s("figure_misaligned", "warn"), s("producer_resaver", "warn")])).toBe("review");
    expect(verdictOf([s("font_outlier", "warn"), s("producer_resaver", "warn")])).toBe("review");
    expect(verdictOf([s("font_outlier", "warn"), s("producer_resaver", "warn"), s("modified_after_creation", "info")])).toBe("likely_edited");
    // An editor's name still is.
    expect(verdictOf([s("figure_misaligned", "warn"), s("producer_editor", "warn")])).toBe("likely_edited");
  });

  test("any high signal is likely_edited", () => {
    expect(verdictOf([s("text_over_text", "high")])).toBe("likely_edited");
  });
});
