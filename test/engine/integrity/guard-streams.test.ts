/**
 * The integrity index reads the object streams the guard already inflated (PdfGuardReport
 * .objectStreams) instead of inflating them again: the byte facts must be the same either way, on
 * every PDF of the corpus that has object streams, and an encrypted file shares none.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { guardPdf } from "../../../src/engine/guards/index.ts";
import { byteFacts } from "../../../src/engine/integrity/index.ts";

const ROOT = join(import.meta.dir, "../../..");

function pdfsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return pdfsUnder(p);
    return n.endsWith(".pdf") ? [p] : [];
  });
}

describe("object streams shared by the guard with the integrity index", () => {
  test("byte facts are identical with and without the guard's inflated object streams", async () => {
    const files = [join(ROOT, "fixtures"), join(ROOT, "test/engine/producers"), join(ROOT, "test/engine/integrity/data")].flatMap(pdfsUnder);
    let shared = 0;
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(file));
      const report = await guardPdf(bytes, { maxPages: 3000 }).catch(() => null);
      if (!report) continue;
      shared += report.objectStreams.size;
      const alone = byteFacts(bytes, { maxPages: 3000 });
      const withGuard = byteFacts(bytes, { maxPages: 3000, objectStreams: report.objectStreams });
      expect({ file, facts: withGuard }).toEqual({ file, facts: alone });
    }
    // Some corpus files do have object streams (else this test would compare nothing shared).
    expect(shared).toBeGreaterThan(0);
  }, 120_000);

  test("an encrypted file's object streams are not shared (the index decrypts its own)", async () => {
    const bytes = new Uint8Array(readFileSync(join(ROOT, "test/engine/data/owner-only.pdf")));
    const report = await guardPdf(bytes, { maxPages: 3000 });
    expect(report.encryption).toBe("open");
    expect(report.objectStreams.size).toBe(0);
  });
});
