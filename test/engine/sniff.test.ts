import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../../src/errors.ts";
import { sniff } from "../../src/engine/sniff.ts";

const sample = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, "../../fixtures/real", name)));
const bytes = (s: string) => new TextEncoder().encode(s);

function errorOf(b: Uint8Array): AppError {
  try {
    sniff(b);
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected an AppError");
}

describe("sniff (content, never the file name)", () => {
  test("PDF, also with junk before the signature", () => {
    expect(sniff(sample("zenith.pdf"))).toBe("pdf");
    expect(sniff(bytes(`${"x".repeat(500)}%PDF-1.4\n...`))).toBe("pdf");
  });
  test("the signature past the first KiB is not a PDF", () => {
    expect(errorOf(bytes(`${"x".repeat(2000)}%PDF-1.4`)).errorClass).toBe("unsupported_format");
  });
  test("XLSX zip", () => expect(sniff(sample("opay.xlsx"))).toBe("xlsx"));
  test("encrypted XLSX (CFB with EncryptionInfo) is encrypted_source", () => {
    expect(errorOf(sample("encrypted.xlsx")).errorClass).toBe("encrypted_source");
  });
  test("a legacy CFB .xls is unsupported_format", () => {
    const cfb = new Uint8Array(4096);
    cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    cfb.set(new TextEncoder().encode("W\0o\0r\0k\0b\0o\0o\0k\0"), 1024);
    const e = errorOf(cfb);
    expect(e.errorClass).toBe("unsupported_format");
    expect(e.message).toMatch(/xls/i);
  });
  test("an HTML table saved as .xls", () => {
    expect(sniff(bytes("<html><body><table><tr><td>Date</td></tr></table></body></html>"))).toBe("html");
  });
  test("a zip that is not a workbook, text, and empty input are unsupported", () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(26), ...bytes("word/document.xml")]);
    zip[26] = 17;
    expect(errorOf(zip).errorClass).toBe("unsupported_format");
    expect(errorOf(bytes("date,amount\n")).errorClass).toBe("unsupported_format");
    expect(errorOf(new Uint8Array()).errorClass).toBe("unsupported_format");
  });
});
