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
import { encryptedPdf, STATEMENT_ROWS as WANT, statementObjects } from "../hostile/encrypt.ts";
import { rejection } from "../helpers/errors.ts";

const data = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, "data", name)));
const rows = (r: Awaited<ReturnType<typeof parseStatement>>) => r.transactions.map((t) => [t.narration, t.debit, t.credit, t.balance]);


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
