/**
 * Mixed documents through readOcrStatement, without tesseract (pure, fast): a text fixture's first
 * page kept as text and its second page handed in as OCR words (its own text items as word boxes),
 * so what OCR would have read is known exactly. The merge must chain across the join; a misread
 * figure is repaired only with both neighbours confirming it, and noted; a row OCR lost is never
 * returned as reconciled.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { OcrPage } from "../../src/engine/ocr/page-text.ts";
import { readOcrStatement } from "../../src/engine/ocr/read.ts";
import type { OcrWord } from "../../src/engine/ocr/words.ts";
import { readPages } from "../../src/engine/pdf/extractor.ts";
import type { PageText, ParseResponse, Transaction } from "../../src/engine/types.ts";
import type { AppError } from "../../src/errors.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");
const LAYOUT = "firstbank";
const expected = JSON.parse(readFileSync(join(FIXTURES, LAYOUT, "expected.json"), "utf8")) as { transactions: Transaction[]; metadata: Record<string, string> };
const { pages, pageCount, producer } = await readPages("pdfium", new Uint8Array(readFileSync(join(FIXTURES, LAYOUT, "statement.pdf"))), { first: 1, last: 9 });
const [textPage, scanPage] = pages as [PageText, PageText];

/** Page 2's text items as OCR words at 72 dpi (one tesseract line per baseline), each word rewritten by `edit`. */
function ocrPage(edit: (text: string) => string | null = (t) => t): OcrPage {
  const words: OcrWord[] = [];
  for (const i of scanPage.items) {
    const text = edit(i.str);
    if (text === null) continue;
    words.push({ text, left: i.x, top: i.y, width: i.width, height: i.height, conf: 95, line: `1.1.${Math.round(i.y + i.height)}` });
  }
  return { number: 2, words, dpi: 72, widthPt: scanPage.width, heightPt: scanPage.height, skewDegrees: 0 };
}

const read = (page: OcrPage) => readOcrStatement([page], { producer, pageCount, textPages: [textPage] });
const figures = (t: Transaction) => [t.date, t.debit, t.credit, t.balance].join(" ");

function assertExact(r: ParseResponse): void {
  expect(r.transactions.map(figures)).toEqual(expected.transactions.map(figures));
  expect(r.metadata.opening_balance).toBe(expected.metadata.opening_balance!);
  expect(r.metadata.closing_balance).toBe(expected.metadata.closing_balance!);
}

/** The first figure word of page 2 that is a row's amount (not its balance), to misread. */
const rowsOnPage2 = expected.transactions.filter((t) => scanPage.items.some((i) => i.str === groupBalance(t.balance)));
function groupBalance(b: string): string {
  const [w, f] = b.replace("-", "").split(".") as [string, string];
  return `${w.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${f}`;
}

describe("a text page and a scanned page merged into one statement", () => {
  test("read exactly, in page order, chaining across the join; checks say which page OCR read", () => {
    expect(rowsOnPage2.length).toBeGreaterThan(3);
    const r = read(ocrPage());
    assertExact(r);
    expect(r.row_wise_reconcilable).toBe(true);
    expect(r.checks.ocr!.pages).toBe(1);
    expect(r.checks.ocr!.read_pages).toEqual([{ page: 2, mean_confidence: 95 }]);
    expect(r.checks.ocr!.text_pages).toEqual([1]);
    // Rows read from the text page carry no OCR confidence; rows OCR read do.
    const first = r.transactions.findIndex((t) => t.ocr_confidence !== undefined);
    expect(first).toBe(expected.transactions.length - rowsOnPage2.length);
    const ocrRows = r.transactions.slice(first);
    expect(ocrRows.every((t) => t.ocr_confidence === undefined || t.ocr_confidence === 95)).toBe(true);
    expect(ocrRows.filter((t) => t.ocr_confidence === 95).length).toBeGreaterThan(ocrRows.length / 2);
  });

  test("a decimal point read as a colon is rewritten, noted, and confirmed by the chain", () => {
    const victim = rowsOnPage2[2]!;
    const amount = groupBalance(victim.debit || victim.credit);
    const r = read(ocrPage((t) => (t === amount ? amount.replace(/\.(\d\d)$/, ":$1") : t)));
    assertExact(r);
    const row = expected.transactions.indexOf(victim);
    expect(r.checks.ocr!.repaired_rows).toContainEqual({ row, field: "figure", printed: amount.replace(/\.(\d\d)$/, ":$1"), used: amount, reason: "decimal_point_read_as_colon" });
    expect(r.checks.assumed.some((a) => a.startsWith(`Row ${row + 1}:`) && a.includes("confirmed by the balance chain"))).toBe(true);
    expect(r.checks.verdict).toBe("partial");
  });

  test("one digit of an amount misread is repaired from both neighbouring balances, and noted", () => {
    const victim = rowsOnPage2[3]!;
    const amount = groupBalance(victim.debit || victim.credit);
    // The first digit turned into another (a 3 read as 8): one substitution.
    const misread = amount.replace(/^\d/, (d) => (d === "8" ? "3" : "8"));
    const r = read(ocrPage((t) => (t === amount ? misread : t)));
    assertExact(r);
    const row = expected.transactions.indexOf(victim);
    const repair = r.checks.ocr!.repaired_rows.find((x) => x.row === row)!;
    expect(repair.reason).toBe("digit_substituted");
    expect(repair.used).toBe((victim.debit || victim.credit).replace("-", ""));
    expect(r.checks.verdict).toBe("partial");
  });

  test("a row OCR lost is refused (any break refuses by default); with breaks allowed it is never reconciled, and no figure is invented for it", () => {
    const victim = rowsOnPage2[2]!;
    const y = scanPage.items.find((i) => i.str === groupBalance(victim.balance))!.y;
    const page = ocrPage();
    const lost = { ...page, words: page.words.filter((w) => Math.abs(w.top - y) > 2) };
    const e = (() => {
      try {
        read(lost);
        return null;
      } catch (x) {
        return x as AppError;
      }
    })();
    expect(e?.errorClass).toBe("scanned_document");
    expect(e!.message).toMatch(/only \d+ of \d+ rows read by OCR chain/);
    const r = readOcrStatement([lost], { producer, pageCount, textPages: [textPage], minChainShare: 0.9 });
    expect(r.row_wise_reconcilable).toBe(false);
    expect(r.checks.row_chain).toBe(false);
    expect(r.transactions.length).toBe(expected.transactions.length - 1);
    expect(r.checks.ocr!.repaired_rows).toEqual([]);
  });

  test("a scanned page whose figures OCR could not read at all is refused, not returned with its rows missing", () => {
    const e = (() => {
      try {
        read(ocrPage((t) => t.replace(/\d/g, "~")));
        return null;
      } catch (x) {
        return x as AppError;
      }
    })();
    expect(e?.errorClass).toBe("scanned_document");
    expect(e!.message).toContain("page 2 of 2");
  });

  /** A scanned page of prose (a certification letter): words, no figures. */
  const letter = (number: number): OcrPage => {
    const prose = "We certify that this statement was issued at the request of the account holder and bears the stamp of the branch".split(" ");
    const words: OcrWord[] = prose.map((text, i) => ({ text, left: 60 + (i % 8) * 60, top: 100 + Math.floor(i / 8) * 20, width: 50, height: 12, conf: 91, line: `1.1.${Math.floor(i / 8)}` }));
    return { number, words, dpi: 72, widthPt: 595, heightPt: 842, skewDegrees: 0 };
  };

  test("a scanned letter page after a text statement whose rows meet its printed closing balance: the statement as its text reads, the page listed as OCR'd", async () => {
    const layout = "unknown-corporate";
    const truth = JSON.parse(readFileSync(join(FIXTURES, layout, "expected.json"), "utf8")) as { transactions: Transaction[] };
    const text = await readPages("pdfium", new Uint8Array(readFileSync(join(FIXTURES, layout, "statement.pdf"))), { first: 1, last: 9 });
    const r = readOcrStatement([letter(text.pageCount + 1)], { producer: text.producer, pageCount: text.pageCount + 1, textPages: text.pages });
    expect(r.transactions.map(figures)).toEqual(truth.transactions.map(figures));
    expect(r.checks.closing_balance_match).toBe(true);
    expect(r.checks.ocr!.read_pages).toEqual([{ page: text.pageCount + 1, mean_confidence: 91 }]);
    expect(r.checks.ocr!.text_pages).toEqual(text.pages.map((p) => p.number));
    expect(r.transactions.every((t) => t.ocr_confidence === undefined)).toBe(true);
  });

  test("the same letter page after a statement that prints no closing balance is refused: rows OCR could not read cannot be ruled out", () => {
    const e = (() => {
      try {
        readOcrStatement([letter(3)], { producer, pageCount: 3, textPages: [textPage, scanPage] });
        return null;
      } catch (x) {
        return x as AppError;
      }
    })();
    expect(e?.errorClass).toBe("scanned_document");
  });

  test("a scanned page OCR read too poorly is refused, even beside text pages that read (its rows would be missing)", () => {
    const page = ocrPage();
    const e = (() => {
      try {
        readOcrStatement([{ ...page, words: page.words.map((w) => ({ ...w, conf: 40 })) }], { producer, pageCount, textPages: [textPage] });
        return null;
      } catch (x) {
        return x as AppError;
      }
    })();
    expect(e?.errorClass).toBe("scanned_document");
    expect(e!.message).toContain("mean word confidence of 40%");
  });
});
