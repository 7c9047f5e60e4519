import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parseStatement } from "../../src/engine/index.ts";
import { redactDocument } from "../../src/engine/redact/index.ts";
import { expectNoLeaks, expectOtherTextUnmoved, leaks, pdfShape, pdftotextText } from "./redact-support.ts";

const SAMPLES = join(import.meta.dir, "../../fixtures/real");

/**
 * The real statements carry placeholder personal data ("TEST USER", "0000000000", "Test Address",
 * "test@example.com", a phone number); each case lists what is printed on that file and how many
 * occurrences are removed.
 */
const CASES: { file: string; pii: string[]; count: number }[] = [
  // Name twice (salutation and header), address, account number three times (one overprinted), two
  // phone numbers and the e-mail address in the footer.
  { file: "firstbank.pdf", pii: ["TEST USER", "0000000000", "Test Address", "test@example.com", "+234 (0) 708 062 5000", "+234 01 448 5500"], count: 9 },
  { file: "zenith.pdf", pii: ["TEST USER", "0000000000", "Test Address"], count: 3 },
  { file: "opay.pdf", pii: ["TEST USER", "0000000000", "Test Address"], count: 3 },
  // The account number is printed spaced ("000 000 0000"); the phone number has a label only.
  { file: "palmpay.pdf", pii: ["TEST USER", "0000000000", "0800000000"], count: 3 },
];

const load = async (name: string) => new Uint8Array(await Bun.file(`${SAMPLES}/${name}`).arrayBuffer());

describe.each(CASES)("redacting the real sample $file", ({ file, pii, count }) => {
  test("removes the personal data from what pdf.js and pdftotext extract, and says how much", async () => {
    const original = await load(file);
    const text = await pdftotextText(original);
    for (const n of pii) expect({ n, inOriginal: leaks(text, n) }).toEqual({ n, inOriginal: true });
    const r = await redactDocument(original);
    expect(r.redactions).toBe(count);
    await expectNoLeaks(r.bytes, pii);
  });

  test("re-parses to the same transactions and totals; other text stays where it was", async () => {
    const original = await load(file);
    const r = await redactDocument(original);
    const before = await parseStatement(original);
    const after = await parseStatement(r.bytes);
    expect(after.transactions.length).toBeGreaterThan(0);
    expect(after.transactions).toEqual(before.transactions);
    expect(after.totals).toEqual(before.totals);
    expect(after.metadata.opening_balance).toBe(before.metadata.opening_balance);
    expect(after.metadata.closing_balance).toBe(before.metadata.closing_balance);
    expect(await expectOtherTextUnmoved(original, r.bytes, pii)).toBeGreaterThan(40);
  });

  test("keeps page count and sizes and drops the information dictionary", async () => {
    const original = await load(file);
    const r = await redactDocument(original);
    const before = await pdfShape(original);
    const after = await pdfShape(r.bytes);
    expect(after.pages).toEqual(before.pages);
    expect({ info: after.info, xmp: after.xmp }).toEqual({ info: false, xmp: false });
  });
});
