/**
 * Encrypted PDFs (standard security handler): encrypted by qpdf, an independent implementation,
 * then redacted with the user password, the owner password, or none when only an owner password is
 * set. The redacted copy is written unencrypted and holds none of the planted data.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../../src/errors.ts";
import { redactDocument } from "../../src/engine/redact/index.ts";
import { buildStatementPdf, PLANTED } from "./redact-fixture.ts";
import { expectNoLeaks, pdfShape, pdfjsText } from "./redact-support.ts";

const dir = mkdtempSync(join(tmpdir(), "redact-enc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** qpdf reads from a file; the encrypted result comes back on stdout. */
async function encrypt(bytes: Uint8Array, encryptArgs: string[], extra: string[] = []): Promise<Uint8Array> {
  const input = join(dir, `in-${[...encryptArgs, ...extra].join("-").replace(/\W+/g, "_")}.pdf`);
  writeFileSync(input, bytes);
  const proc = Bun.spawn(["qpdf", "--allow-weak-crypto", "--encrypt", ...encryptArgs, "--", ...extra, input, "-"], { stdout: "pipe", stderr: "pipe" });
  const out = new Uint8Array(await new Response(proc.stdout).arrayBuffer());
  expect(await proc.exited).toBe(0);
  return out;
}

const CASES = [
  { name: "AES-256 (R6), owner password only, in object streams", args: ["", "owner-secret", "256"], extra: ["--object-streams=generate"], password: undefined },
  { name: "AES-256 (R6), opened with the user password", args: ["user-secret", "owner-secret", "256"], extra: [], password: "user-secret" },
  { name: "AES-128 (R4), opened with the owner password", args: ["user-secret", "owner-secret", "128", "--use-aes=y"], extra: [], password: "owner-secret" },
  { name: "RC4-128 (R3), owner password only", args: ["", "owner-secret", "128", "--use-aes=n"], extra: ["--object-streams=disable"], password: undefined },
  { name: "RC4-40 (R2), opened with the user password", args: ["user-secret", "owner-secret", "40"], extra: [], password: "user-secret" },
];

describe.each(CASES)("redacting an encrypted PDF: $name", ({ args, extra, password }) => {
  test("removes the planted data and writes the copy unencrypted, pages unchanged", async () => {
    const { bytes } = await buildStatementPdf();
    const encrypted = await encrypt(bytes, args, extra);
    const r = await redactDocument(encrypted, { password });
    expect(r.redactions).toBe(22);
    await expectNoLeaks(r.bytes, PLANTED);
    expect((await pdfShape(r.bytes)).pages).toEqual((await pdfShape(bytes)).pages);
    // Unencrypted: pdf.js reads it without a password.
    expect((await pdfjsText(r.bytes)).length).toBeGreaterThan(100);
  });
});

test("a wrong password gives encrypted_source, as a parse does", async () => {
  const { bytes } = await buildStatementPdf();
  const encrypted = await encrypt(bytes, ["user-secret", "owner-secret", "256"]);
  let error: unknown;
  try {
    await redactDocument(encrypted, { password: "wrong" });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).errorClass).toBe("encrypted_source");
});
