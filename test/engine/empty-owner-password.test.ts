/**
 * A PDF with a user password set and an EMPTY owner password opens in desktop readers without a
 * password (the empty string is tried, and it is the owner's). pdf.js only tries it as the user's,
 * so the engine must open these itself (src/engine/guards/pdf-crypt.ts emptyOwnerPasswordAccess).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { emptyOwnerPasswordAccess, emptyPasswordIsOwner } from "../../src/engine/guards/pdf-crypt.ts";
import { parseStatement } from "../../src/engine/index.ts";
import { redactDocument } from "../../src/engine/redact/index.ts";
import { encryptedPdf, type PlainObject } from "../hostile/encrypt.ts";
import { rejection } from "../helpers/errors.ts";

const data = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, "data", name)));
const rows = (r: Awaited<ReturnType<typeof parseStatement>>) => r.transactions.map((t) => [t.narration, t.debit, t.credit, t.balance]);

/** A one-page statement as raw PDF objects (Helvetica text at fixed positions), for the test encryptor. */
function statementObjects(): PlainObject[] {
  const line = (y: number, cells: [number, string][]) => cells.map(([x, t]) => `BT /F1 9 Tf ${x} ${y} Td (${t}) Tj ET`).join("\n");
  const content = [
    line(760, [[40, "Account Name: ADA OBI"]]),
    line(745, [[40, "Account Number: 0123456789"]]),
    line(700, [[40, "Date"], [120, "Narration"], [330, "Debit"], [410, "Credit"], [490, "Balance"]]),
    line(685, [[40, "02/01/2024"], [120, "SALARY"], [330, "0.00"], [410, "10,000.00"], [490, "10,000.00"]]),
    line(670, [[40, "03/01/2024"], [120, "AIRTIME"], [330, "500.00"], [410, "0.00"], [490, "9,500.00"]]),
  ].join("\n");
  return [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    { dict: "", data: new Uint8Array(Buffer.from(content, "latin1")) },
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
}
const WANT = [
  ["SALARY", "0.00", "10000.00", "10000.00"],
  ["AIRTIME", "500.00", "0.00", "9500.00"],
];

describe("empty owner password, user password set: parses without the password field", () => {
  test("AES-256 (R6) written by qpdf --encrypt USERPW \"\" 256", async () => {
    const bytes = data("empty-owner-aes256.pdf");
    expect(emptyPasswordIsOwner(bytes)).toBe(true);
    // Revision 6 keeps only a hash of the user password: the copy pdf.js reads gets a new /U, /UE.
    expect(emptyOwnerPasswordAccess(bytes)).toEqual({ update: expect.any(Uint8Array) });
    expect(rows(await parseStatement(bytes, {}))).toEqual(WANT);
    // The user password still works, and a wrong one is still wrong.
    expect(rows(await parseStatement(bytes, { password: "USERPW" }))).toEqual(WANT);
    expect((await rejection(parseStatement(bytes, { password: "guess" }))).errorClass).toBe("encrypted_source");
  });

  test("redaction opens it the same way and writes an unencrypted copy that still parses", async () => {
    const redacted = await redactDocument(data("empty-owner-aes256.pdf"));
    expect(redacted.redactions).toBeGreaterThan(0);
    expect(Buffer.from(redacted.bytes).includes("/Encrypt")).toBe(false);
    expect(rows(await parseStatement(redacted.bytes, {}))).toEqual(WANT);
  });

  for (const cipher of ["rc4", "aes128", "aes256"] as const) {
    test(`${cipher}: a file whose /O was computed from the empty owner password`, async () => {
      const bytes = encryptedPdf(statementObjects(), cipher, "USERPW", "");
      expect(emptyPasswordIsOwner(bytes)).toBe(true);
      // Revisions 2-4: the user password itself is recovered from /O and handed to pdf.js.
      if (cipher !== "aes256") expect(emptyOwnerPasswordAccess(bytes)).toEqual({ password: "USERPW" });
      expect(rows(await parseStatement(bytes, {}))).toEqual(WANT);
    });
  }

  test("an empty USER password is not handled here (pdf.js opens it itself)", () => {
    const bytes = encryptedPdf(statementObjects(), "rc4", "", "owner-secret");
    expect(emptyPasswordIsOwner(bytes)).toBe(false);
    expect(emptyOwnerPasswordAccess(bytes)).toBeUndefined();
  });

  test("both passwords set: still encrypted_source without the password", async () => {
    for (const cipher of ["rc4", "aes256"] as const) {
      const bytes = encryptedPdf(statementObjects(), cipher, "USERPW", "owner-secret");
      expect(emptyOwnerPasswordAccess(bytes)).toBeUndefined();
      const e = await rejection(parseStatement(bytes, {}));
      expect(e.errorClass).toBe("encrypted_source");
      expect(e.message).toMatch(/needs a password/);
    }
  });

  test("qpdf's RC4 form (--encrypt USERPW \"\" 128 --use-aes=n) takes the USER password as owner: it needs the password", async () => {
    // Algorithm 3 of the standard: with no owner password the user password is used to make /O,
    // so this file does not open with the empty one in any reader (poppler and qpdf ask too).
    const bytes = data("rc4-no-empty-owner.pdf");
    expect(emptyPasswordIsOwner(bytes)).toBe(false);
    expect((await rejection(parseStatement(bytes, {}))).errorClass).toBe("encrypted_source");
    expect(rows(await parseStatement(bytes, { password: "USERPW" }))).toEqual(WANT);
  });
});
