/** The rules that decide what is personal data, on hand-made text runs. */
import { describe, expect, test } from "bun:test";
import { buildMatchers, detectPii, emptyValues, findHits, findSpans, NAME_PART_STOP_WORDS, nameParts, type PiiValues } from "../../src/engine/redact/find.ts";
import type { PageRuns, TextRun } from "../../src/engine/redact/pdf-text.ts";

/** A run of 8 pt text at (x, y), 0.5 em per character. */
const run = (str: string, x: number, y: number, dir: [number, number] = [1, 0]): TextRun => ({ str, x, y, width: str.length * 4, height: 8, dx: dir[0], dy: dir[1] });
const page = (runs: TextRun[]): PageRuns[] => [{ index: 0, view: [0, 0, 595, 842], runs }];
const spans = (text: string, values: Partial<PiiValues> = {}) =>
  findSpans(text, buildMatchers({ ...emptyValues(), ...values })).map((s) => [s.kind, text.slice(s.start, s.end)]);

describe("detectPii", () => {
  test("label and value in separate runs, the label itself split over words, a lone colon between", () => {
    const v = detectPii(page([run("NAME", 24, 776), run(":", 66, 776), run("NWOSU", 84, 776), run("EMEKA ABUBAKAR", 109, 776), run("ACCOUNT", 24, 765), run("NO:", 58, 765), run("3772393171", 84, 765)]));
    expect(v.names).toEqual(["NWOSU EMEKA ABUBAKAR"]);
    expect(v.accountNumbers).toEqual(["3772393171"]);
  });

  test("value under its label when the run to the right is another label (OPay's header)", () => {
    const v = detectPii(page([run("Account Name", 66, 645), run("Account Number", 224, 645), run("TEST USER", 60, 630), run("0000000000", 220, 630), run("12 Allen Avenue", 380, 630)]));
    expect(v).toMatchObject({ names: ["TEST USER"], accountNumbers: ["0000000000"], addresses: ["12 Allen Avenue"] });
  });

  test("the letter head: lines under the salutation's name are the address; a label line ends it", () => {
    const v = detectPii(page([run("Dear", 55, 737), run("Test User", 75, 737), run("5 Bode Thomas Street", 55, 725), run("Surulere, Lagos", 55, 714), run("Account Type:", 55, 644), run("SAVINGS", 134, 644)]));
    expect(v.names).toEqual(["Test User"]);
    expect(v.addresses).toEqual(["5 Bode Thomas Street", "Surulere, Lagos"]);
  });

  test("overprinted (doubled) label and value", () => {
    const v = detectPii(page([run("Account Name:", 28, 781), run("Account Name:", 28.3, 781), run("IBEKWE IBRAHIM SEGUN", 108, 781), run("IBEKWE IBRAHIM SEGUN", 108.3, 781)]));
    expect(v.names).toEqual(["IBEKWE IBRAHIM SEGUN"]);
  });

  test("a rotated page is read in its own frame", () => {
    // Text running upwards (direction 0,1): lines advance to the right (larger x).
    const up: [number, number] = [0, 1];
    const v = detectPii(page([run("Account Name", 56, 30, up), run("SANNI NGOZI", 56, 110, up), run("Account Number", 67, 30, up), run("1522425943", 67, 110, up)]));
    expect(v).toMatchObject({ names: ["SANNI NGOZI"], accountNumbers: ["1522425943"] });
  });

  test("things that only look like labels name nobody", () => {
    const v = detectPii(page([run("Customer Care Centre", 50, 800), run("Name", 50, 780), run("Account Number:", 50, 760), run("Statement Period", 300, 800), run("01/05/2026", 400, 800)]));
    expect(v.names).toEqual([]);
    expect(v.addresses).toEqual([]);
  });

  test("a holder guessed by the parse is kept only when printed outside a transaction row", () => {
    const runs = [run("ADEBAYO OKONKWO", 50, 800), run("02/05/2026", 50, 600), run("POS PURCHASE SHOPRITE", 120, 600), run("12,500.50", 360, 600)];
    expect(detectPii(page(runs), { names: ["ADEBAYO OKONKWO"] }).names).toEqual(["ADEBAYO OKONKWO"]);
    expect(detectPii(page(runs), { names: ["POS PURCHASE SHOPRITE"] }).names).toEqual([]);
  });

  test("labels are read on the first page only", () => {
    const pages: PageRuns[] = [page([run("Statement", 50, 800)])[0]!, { index: 1, view: [0, 0, 595, 842], runs: [run("Beneficiary Name:", 50, 700), run("JOHN DOE", 130, 700)] }];
    expect(detectPii(pages).names).toEqual([]);
  });
});

describe("findSpans", () => {
  test("names in any order, with or without a title, spaced or glued; not a part of a longer word", () => {
    const names = { names: ["MR. ADEBAYO OKONKWO"] };
    expect(spans("TRF FROM OKONKWO ADEBAYO VIA APP", names)).toEqual([["name", "OKONKWO ADEBAYO"]]);
    expect(spans("TRANSFER ADEBAYOOKONKWO", names)).toEqual([["name", "ADEBAYOOKONKWO"]]);
    // A name part stands alone; inside a longer word it does not.
    expect(spans("TRANSFER FROM ADEBAYO OKONKWOS LTD", names)).toEqual([["name", "ADEBAYO"]]);
    expect(spans("TRANSFER FROM ADEBAYOS OKONKWOS LTD", names)).toEqual([]);
  });

  test("each part of the holder's name is redacted wherever it stands; titles, single letters and narration words are not", () => {
    const names = { names: ["Chief ADEYEMI O. OLUWASEUN-JOHN BANK"] };
    expect(nameParts("Chief ADEYEMI O. OLUWASEUN-JOHN BANK")).toEqual(["ADEYEMI", "OLUWASEUN-JOHN"]);
    expect(spans("NIP TRANSFER FROM ZENITH BANK TO ADEYEMI", names)).toEqual([["name", "ADEYEMI"]]);
    expect(spans("POS PURCHASE oluwaseun-john LAGOS", names)).toEqual([["name", "oluwaseun-john"]]);
    expect(spans("TRANSFER TO O BANK CHIEF", names)).toEqual([]);
    // Every part of a three-word name, each on its own.
    const three = { names: ["IFEOMA CHIDINMA OBI"] };
    for (const part of ["IFEOMA", "CHIDINMA", "OBI"]) expect(spans(`USSD TRANSFER TO ${part} VIA *945#`, three)).toEqual([["name", part]]);
    expect(spans("USSD TRANSFER TO OBIORA VIA *945#", three)).toEqual([]);
    // Two letters make a part; the stop list keeps narration words ("TO", "FROM", "LTD") whole.
    expect(nameParts("ED TO FROM LTD")).toEqual(["ED"]);
    expect(spans("REFUND ED", { names: ["ED NWOSU"] })).toEqual([["name", "ED"]]);
    for (const w of ["TRANSFER", "FROM", "TO", "BANK", "LTD"]) expect(NAME_PART_STOP_WORDS.has(w.toLowerCase())).toBe(true);
  });

  test("account numbers spaced or masked, but not inside a longer reference", () => {
    const acct = { accountNumbers: ["3087654321"] };
    expect(spans("A/C 308 765 4321 and ******4321 and 3087XXXX21", acct)).toEqual([
      ["account_number", "308 765 4321"],
      ["account_number", "******4321"],
      ["account_number", "3087XXXX21"],
    ]);
    expect(spans("REF 000030876543210000 x00004321 ******9999", acct)).toEqual([]);
  });

  test("phone numbers, e-mail addresses and BVNs; amounts, dates and references untouched", () => {
    expect(spans("call +234 (0) 708 062 5000 or 0803-123-4567, mail ade.o@mail.example.ng")).toEqual([
      ["phone", "+234 (0) 708 062 5000"],
      ["phone", "0803-123-4567"],
      ["email", "ade.o@mail.example.ng"],
    ]);
    expect(spans("BVN: 22212345678 REF 080312345678901")).toEqual([["bvn", "22212345678"]]);
    expect(spans("08/05/2026 1,234,567.89 FT23018269 0.00 2340000")).toEqual([]);
  });
});

test("findHits maps a value split over two runs back to both runs", () => {
  const runs = [run("TRANSFER FROM ADE", 50, 600), run("BAYO OKONKWO", 50 + 17 * 4, 600)];
  const hits = findHits(page(runs), { ...emptyValues(), names: ["ADEBAYO OKONKWO"] });
  expect(hits.map((h) => [h.run.str, h.run.str.slice(h.start, h.end), h.group])).toEqual([
    ["TRANSFER FROM ADE", "ADE", 1],
    ["BAYO OKONKWO", "BAYO OKONKWO", 1],
  ]);
});
